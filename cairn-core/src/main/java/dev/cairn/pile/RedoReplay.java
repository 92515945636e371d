package dev.cairn.pile;

import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import java.lang.foreign.MemorySegment;

/**
 * Applies a persistent pile's redo records to it during recovery (single-threaded, before the pile
 * is used): the records {@link Journal} writes, laid out in docs/FORMAT.md, "Log records of a
 * pile". Replay applies bytes and counters; it never runs the allocator, so it is correct over
 * segment files holding any mix of old, new and torn pages.
 */
final class RedoReplay {
  private final SegmentTable table;
  private final Stripe[] stripes;
  private final long segmentBytes;
  private final boolean hugePages;

  private final long[] stateValues = new long[Stripe.STATE_FIELDS];
  private final long[] cursor = new long[1];
  // whether the checkpoint after the one recovery starts from was cut short while writing pages
  // in place: the pages the log rewrites are then taken as they are (see checkBeforeRewrite)
  private boolean trustRewrittenPages;

  RedoReplay(SegmentTable table, Stripe[] stripes, long segmentBytes, boolean hugePages) {
    this.table = table;
    this.stripes = stripes;
    this.segmentBytes = segmentBytes;
    this.hugePages = hugePages;
  }

  /** See {@link #checkBeforeRewrite}: set before the first record is applied. */
  void trustRewrittenPages(boolean trust) {
    this.trustRewrittenPages = trust;
  }

  /**
   * Applies one {@link Journal#TYPE_OP} record: segments it took, then its byte ranges, then
   * segments it retired, then the stripe's counters and free-list heads.
   *
   * @throws PileCorruptionException if the record does not fit the pile
   * @throws IndexOutOfBoundsException if a range lies outside its segment
   */
  void applyOp(MemorySegment record) {
    int stripeWord = record.get(Journal.U32, RedoLayout.STRIPE_WORD_OFFSET);
    if ((stripeWord & RedoLayout.COMPACT_STATE) == 0) {
      throw new PileCorruptionException(
          "op record without a compact state: stripe word 0x" + Integer.toHexString(stripeWord));
    }
    Stripe stripe = Stripe.byId(stripes, stripeWord & ~RedoLayout.COMPACT_STATE);
    int headCount = record.get(Journal.U32, RedoLayout.HEAD_COUNT_OFFSET);
    int tableCount = record.get(Journal.U32, RedoLayout.TABLE_COUNT_OFFSET);
    int rangeCount = record.get(Journal.U32, RedoLayout.RANGE_COUNT_OFFSET);
    if (headCount < 0 || headCount > SizeClasses.COUNT || tableCount < 0 || rangeCount < 0) {
      throw new PileCorruptionException(
          "op record with impossible counts: heads="
              + headCount
              + " tables="
              + tableCount
              + " ranges="
              + rangeCount);
    }
    int stateMask = record.get(Journal.U16, RedoLayout.OP_PREFIX_BYTES) & 0xFFFF;
    if ((stateMask & ~Stripe.ALL_STATE_FIELDS) != 0) {
      throw new PileCorruptionException(
          "op record names unknown state fields: mask=0x" + Integer.toHexString(stateMask));
    }
    long headsAt = RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES;
    for (int i = 0; i < Stripe.STATE_FIELDS; i++) {
      if ((stateMask & 1 << i) != 0) {
        long value = Uleb128.read(record, headsAt, cursor);
        stateValues[i] = i == 0 ? value - 1 : value;
        headsAt = cursor[0];
      }
    }
    long tableAt = headsAt + (long) headCount * RedoLayout.HEAD_ENTRY_BYTES;
    for (int i = 0; i < tableCount; i++) { // segments born in this operation, first
      long at = tableAt + (long) i * RedoLayout.TABLE_ENTRY_BYTES;
      int index = checkedIndex(record.get(Journal.U32, at + RedoLayout.TABLE_SEGMENT_OFFSET));
      int owner = record.get(Journal.U32, at + RedoLayout.TABLE_OWNER_OFFSET);
      if (owner != 0 && table.segmentAt(index) == null) {
        table.install(freshSegment(index), Stripe.byId(stripes, owner - 1));
      }
    }
    long at = tableAt + (long) tableCount * RedoLayout.TABLE_ENTRY_BYTES;
    for (int i = 0; i < rangeCount; i++) {
      int index = checkedIndex(record.get(Journal.U32, at + RedoLayout.RANGE_SEGMENT_OFFSET));
      long length =
          Integer.toUnsignedLong(record.get(Journal.U32, at + RedoLayout.RANGE_LENGTH_OFFSET));
      long offset = record.get(Journal.U64, at + RedoLayout.RANGE_OFFSET_OFFSET);
      if (at + RedoLayout.RANGE_HEADER_BYTES + length > record.byteSize()) {
        throw new PileCorruptionException(
            "op record's range "
                + i
                + " of "
                + rangeCount
                + " runs past the record's end: "
                + length
                + " bytes at "
                + (at + RedoLayout.RANGE_HEADER_BYTES)
                + " of "
                + record.byteSize());
      }
      NativeSegment segment = table.segmentAt(index);
      if (segment != null) { // a segment retired by this same operation needs no bytes
        PageCheck check = segment.pageCheck();
        if (check != null) {
          checkBeforeRewrite(segment, check, offset, length);
        }
        MemorySegment.copy(
            record, at + RedoLayout.RANGE_HEADER_BYTES, segment.memory(), offset, length);
        segment.markDirty(offset, length);
      }
      at += RedoLayout.RANGE_HEADER_BYTES + length;
    }
    if (at != record.byteSize()) {
      throw new PileCorruptionException(
          "record holds " + record.byteSize() + " bytes, its entries " + at);
    }
    for (int i = 0; i < tableCount; i++) { // segments retired by this operation, last
      long entry = tableAt + (long) i * RedoLayout.TABLE_ENTRY_BYTES;
      if (record.get(Journal.U32, entry + RedoLayout.TABLE_OWNER_OFFSET) == 0) {
        table.uninstall(
            checkedIndex(record.get(Journal.U32, entry + RedoLayout.TABLE_SEGMENT_OFFSET)));
      }
    }
    stripe.restoreStateFields(stateMask, stateValues);
    for (int i = 0; i < headCount; i++) {
      long entry = headsAt + (long) i * RedoLayout.HEAD_ENTRY_BYTES;
      stripe.restoreHead(
          record.get(Journal.U32, entry + RedoLayout.HEAD_SIZE_CLASS_OFFSET),
          record.get(Journal.U64, entry + RedoLayout.HEAD_VALUE_OFFSET));
    }
  }

  /**
   * Before replay first writes a page mapped from a file, checks it against its checksum while the
   * memory still shows the file's bytes (PageCheck I1): afterwards the page holds bytes of both,
   * and a page damaged on disk would pass for the log's. A page a damaged check finds is
   * remembered, and its values raise CorruptValueException. Only after a checkpoint that a crash
   * cut short while it wrote pages in place (see {@code trustRewrittenPages}) are the pages the log
   * rewrites taken as they are: such a page may rightly differ from its checksum, the checkpoint
   * having written the one and not the other.
   */
  private void checkBeforeRewrite(
      NativeSegment segment, PageCheck check, long offset, long length) {
    long last = PageCheck.pageOf(offset + length - 1);
    for (long page = PageCheck.pageOf(offset); page <= last; page++) {
      if (segment.isDirty(page)) {
        continue; // rewritten by an earlier record: checked then
      }
      if (trustRewrittenPages) {
        check.trust(page);
      } else {
        check.check(page);
      }
    }
  }

  /** Applies a {@link Journal#TYPE_PURGE} record: every segment dropped, every stripe reset. */
  void applyPurge() {
    for (int index = 0; index < Pointers.MAX_SEGMENTS; index++) {
      table.uninstall(index);
    }
    for (Stripe stripe : stripes) {
      stripe.clearForRestore();
    }
  }

  private static int checkedIndex(int index) {
    if (index < 0 || index >= Pointers.MAX_SEGMENTS) {
      throw new PileCorruptionException("segment index out of range: " + index);
    }
    return index;
  }

  /** A segment for replay of a record that created it: zeroed memory, no file yet. */
  private NativeSegment freshSegment(int index) {
    NativeSegment segment = NativeSegment.allocate(index, segmentBytes, hugePages);
    segment.trackDirtyPages();
    return segment;
  }
}
