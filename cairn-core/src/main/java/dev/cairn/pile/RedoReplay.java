package dev.cairn.pile;

import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import java.lang.foreign.MemorySegment;

/**
 * Applies a persistent pile's redo records to it during recovery (single-threaded, before the
 * pile is used): the records {@link Journal} writes, laid out in docs/FORMAT.md, "Log records
 * of a pile". Replay applies bytes and counters; it never runs the allocator, so it is correct
 * over segment files holding any mix of old, new and torn pages.
 */
final class RedoReplay {
  private final SegmentTable table;
  private final Stripe[] stripes;
  private final PersistentStore store;

  private final long[] stateValues = new long[Stripe.STATE_FIELDS];
  private final long[] cursor = new long[1];
  // whether the checkpoint after the one recovery starts from was cut short while writing pages
  // in place: the pages the log rewrites are then taken as they are (see checkBeforeRewrite)
  private boolean trustRewrittenPages;

  RedoReplay(SegmentTable table, Stripe[] stripes, PersistentStore store) {
    this.table = table;
    this.stripes = stripes;
    this.store = store;
  }

  /**
   * Applies one {@link Journal#TYPE_OP} record: segments it took, then its byte ranges, then
   * segments it retired, then the stripe's counters and free-list heads.
   *
   * @throws PileCorruptionException if the record does not fit the pile
   * @throws IndexOutOfBoundsException if a range lies outside its segment
   */
  /** See {@link #checkBeforeRewrite}: set before the first record is applied. */
  void trustRewrittenPages(boolean trust) {
    this.trustRewrittenPages = trust;
  }

  void applyOp(MemorySegment record) {
    int stripeWord = record.get(Journal.U32, 0);
    boolean compact = (stripeWord & Journal.COMPACT_STATE) != 0;
    Stripe stripe = Stripe.byId(stripes, stripeWord & ~Journal.COMPACT_STATE);
    int headCount = record.get(Journal.U32, 4);
    int tableCount = record.get(Journal.U32, 8);
    int rangeCount = record.get(Journal.U32, 12);
    if (headCount < 0 || headCount > SizeClasses.COUNT || tableCount < 0 || rangeCount < 0) {
      throw new PileCorruptionException("op record with impossible counts: heads=" + headCount
          + " tables=" + tableCount + " ranges=" + rangeCount);
    }
    int stateMask = Stripe.ALL_STATE_FIELDS;
    long headsAt = Journal.FIXED_BYTES;
    if (compact) {
      stateMask = record.get(Journal.U16, Journal.PREFIX_BYTES) & 0xFFFF;
      if ((stateMask & ~Stripe.ALL_STATE_FIELDS) != 0) {
        throw new PileCorruptionException(
            "op record names unknown state fields: mask=0x" + Integer.toHexString(stateMask));
      }
      long at = Journal.PREFIX_BYTES + 2;
      for (int i = 0; i < Stripe.STATE_FIELDS; i++) {
        if ((stateMask & 1 << i) != 0) {
          long value = Uleb128.read(record, at, cursor);
          stateValues[i] = i == 0 ? value - 1 : value;
          at = cursor[0];
        }
      }
      headsAt = at;
    }
    long tableAt = headsAt + (long) headCount * Journal.HEAD_ENTRY_BYTES;
    for (int i = 0; i < tableCount; i++) { // segments born in this operation, first
      long at = tableAt + (long) i * Journal.TABLE_ENTRY_BYTES;
      int index = checkedIndex(record.get(Journal.U32, at));
      int owner = record.get(Journal.U32, at + 4);
      if (owner != 0 && table.segmentAt(index) == null) {
        table.install(store.freshSegment(index), Stripe.byId(stripes, owner - 1));
      }
    }
    long at = tableAt + (long) tableCount * Journal.TABLE_ENTRY_BYTES;
    for (int i = 0; i < rangeCount; i++) {
      int index = checkedIndex(record.get(Journal.U32, at));
      long length = Integer.toUnsignedLong(record.get(Journal.U32, at + 4));
      long offset = record.get(Journal.U64, at + 8);
      NativeSegment segment = table.segmentAt(index);
      if (segment != null) { // a segment retired by this same operation needs no bytes
        PageCheck check = segment.pageCheck();
        if (check != null) {
          checkBeforeRewrite(segment, check, offset, length);
        }
        MemorySegment.copy(record, at + Journal.RANGE_HEADER_BYTES, segment.memory(), offset,
            length);
        segment.markDirty(offset, length);
      }
      at += Journal.RANGE_HEADER_BYTES + length;
    }
    if (at != record.byteSize()) {
      throw new PileCorruptionException(
          "record holds " + record.byteSize() + " bytes, its entries " + at);
    }
    for (int i = 0; i < tableCount; i++) { // segments retired by this operation, last
      long entry = tableAt + (long) i * Journal.TABLE_ENTRY_BYTES;
      if (record.get(Journal.U32, entry + 4) == 0) {
        table.uninstall(checkedIndex(record.get(Journal.U32, entry)));
      }
    }
    if (compact) {
      stripe.restoreStateFields(stateMask, stateValues);
    } else {
      stripe.readState(record, Journal.PREFIX_BYTES);
    }
    for (int i = 0; i < headCount; i++) {
      long entry = headsAt + (long) i * Journal.HEAD_ENTRY_BYTES;
      stripe.restoreHead(record.get(Journal.U32, entry), record.get(Journal.U64, entry + 4));
    }
  }

  /**
   * Before replay first writes a page mapped from a file, checks it against its checksum while
   * the memory still shows the file's bytes (PageCheck I1): afterwards the page holds bytes of
   * both, and a page damaged on disk would pass for the log's. A page a damaged check finds is
   * remembered, and its values raise CorruptValueException. Only after a checkpoint that a crash
   * cut short while it wrote pages in place (see {@code trustRewrittenPages}) are the pages the
   * log rewrites taken as they are: such a page may rightly differ from its checksum, the
   * checkpoint having written the one and not the other.
   */
  private void checkBeforeRewrite(NativeSegment segment, PageCheck check, long offset,
      long length) {
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
}
