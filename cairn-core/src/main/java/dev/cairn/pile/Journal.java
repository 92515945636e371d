package dev.cairn.pile;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * What one operation on a stripe of a persistent pile wrote: the byte ranges of its segments, the
 * free-list heads and segment-table entries it changed. Each write marks its pages dirty for the
 * next checkpoint; when the operation ends ({@link Stripe#unlockAndLog}), if the pile keeps a log,
 * the journal turns all of it into one redo record ({@link #TYPE_OP}, or {@link #TYPE_TX_ALLOC} in
 * a transaction's {@link WriteContext}) holding the after-images of those ranges and the stripe's
 * counters, and returns the record's end LSN to the operation.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why after-images of ranges (physical redo): replaying them is idempotent and needs no
 * interpretation, so recovery is correct over segment files that are any mix of the last
 * checkpoint and later pages, and the allocator never runs during replay.
 *
 * Why the record is built as the lock is released: every byte a stripe owns is written only under its lock,
 * so the order of records of one stripe in the log is the order of its writes, and the bytes
 * copied at unlock are the operation's final ones. Segment bytes are never shared between
 * stripes: a retired segment's index is reused only after the next checkpoint (SegmentTable, T2).
 *
 * Concurrency: used only by the thread holding the stripe's lock.
 * }</pre>
 *
 * <pre>
 * TxAlloc  --> TxId:u64, Kind:u32 (0 put, 1 update target), Zero:u32, Pointer:u64, OpRecord
 * TxCommit --> TxId:u64, Count:u32, Attachments:u32, (Length:u32, Zero:u32, OpRecord[Length])^Count,
 *              (ParticipantHeader, Payload)^Attachments    see ParticipantRegistry
 * ParticipantOp --> ParticipantHeader, Payload, OpRecord   a participant's record and the op
 * TxEnd    --> TxId:u64                                   a rollback's allocations are undone
 * OpRecord --> StripeWord:u32, HeadCount:u32, TableCount:u32, RangeCount:u32,
 *              State,
 *              (SizeClass:u32, Head:u64)^HeadCount,
 *              (Segment:u32, Owner:u32)^TableCount         owner: stripe + 1, or 0 for none
 *              (Segment:u32, Length:u32, Offset:u64, Bytes[Length])^RangeCount
 * StripeWord   the stripe id; bit 31 (RedoLayout.COMPACT_STATE) set: State is ChangedState
 * State    --> StripeState[Stripe.STATE_BYTES]                 bit 31 clear (earlier logs)
 *            | ChangedState
 * ChangedState --> FieldMask:u16, Value:uleb128^popcount(FieldMask)
 *              a field's bit is set if it changed since the stripe's previous record, and in
 *              the stripe's first record after an open, a failed append or a checkpoint's
 *              snapshot (all set); values are absolute (field 0, the bump segment, stored
 *              plus one), so replay stays idempotent; fields not named keep the value the
 *              previous record set
 * </pre>
 */
final class Journal {
  /** The log record type of one stripe operation. */
  static final int TYPE_OP = 16;

  /** The log record type of {@link Pile#purge()}: every segment dropped, every stripe reset. */
  static final int TYPE_PURGE = 17;

  /** An operation that allocated for a transaction: a put, or an update's prepared target. */
  static final int TYPE_TX_ALLOC = 18;

  /** A transaction's commit: the operations of every stripe it changed, applied together. */
  static final int TYPE_TX_COMMIT = 19;

  /** A transaction's rollback is complete. */
  static final int TYPE_TX_END = 20;

  /** A named root set or removed: a RootRecord (see {@link RootDirectory}). */
  static final int TYPE_ROOT = 21;

  /** A participant's record of its own (see {@link ParticipantRegistry}). */
  static final int TYPE_PARTICIPANT = 22;

  /** A stripe operation with a participant's record attached: both apply, or neither. */
  static final int TYPE_PARTICIPANT_OP = 23;

  /** A bound on a record's bytes besides the value: counters, heads, free-list words. */
  static final int SMALL_RECORD_BYTES = 4096;

  static final int TX_PUT = 0;
  static final int TX_TARGET = 1;

  static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
  static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
  static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
  static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;

  private final Stripe stripe;
  private final SegmentTable table;
  private final PersistentStore store;
  private final boolean logging;

  private int[] rangeSegments = new int[16];
  private long[] rangeOffsets = new long[16];
  private long[] rangeLengths = new long[16];
  private int rangeCount;

  private final boolean[] headMarked = new boolean[SizeClasses.COUNT];
  private final int[] headClasses = new int[SizeClasses.COUNT];
  private int headCount;

  private int[] tableEntries = new int[8];
  private int tableCount;

  private MemorySegment scratch = Arena.ofAuto().allocate(4096, 8);

  // The stripe's state as its last record left it (what replay holds after that record), so
  // that a record carries only the fields that changed: the state is 80 bytes, of which a
  // 32-byte put changes a few. Invalid after an open, a failed append and a checkpoint's
  // snapshot: the next record then carries every field.
  private final long[] stateNow = new long[Stripe.STATE_FIELDS];
  private final long[] stateLogged = new long[Stripe.STATE_FIELDS];
  private boolean stateLoggedValid;
  private int stateMask;
  private int stateBytes;

  Journal(Stripe stripe, SegmentTable table, PersistentStore store) {
    this.stripe = stripe;
    this.table = table;
    this.store = store;
    this.logging = store.logging();
  }

  /** Records that {@code [offset, offset + length)} of {@code segment} was written. */
  void touch(NativeSegment segment, long offset, long length) {
    segment.markDirty(offset, length);
    if (!logging) {
      return;
    }
    int index = segment.index();
    int last = rangeCount - 1;
    if (last >= 0
        && rangeSegments[last] == index
        && rangeOffsets[last] + rangeLengths[last] == offset) {
      rangeLengths[last] += length; // adjacent writes (header, then payload) make one range
      return;
    }
    if (rangeCount == rangeSegments.length) {
      rangeSegments = Arrays.copyOf(rangeSegments, rangeCount * 2);
      rangeOffsets = Arrays.copyOf(rangeOffsets, rangeCount * 2);
      rangeLengths = Arrays.copyOf(rangeLengths, rangeCount * 2);
    }
    rangeSegments[rangeCount] = index;
    rangeOffsets[rangeCount] = offset;
    rangeLengths[rangeCount] = length;
    rangeCount++;
  }

  /** Records that the head of free list {@code sizeClass} changed. */
  void headChanged(int sizeClass) {
    if (logging && !headMarked[sizeClass]) {
      headMarked[sizeClass] = true;
      headClasses[headCount++] = sizeClass;
    }
  }

  /** Records that segment {@code index} now belongs to {@code owner} (null: to no stripe). */
  void tableChanged(int index, Stripe owner) {
    if (!logging) {
      return;
    }
    if (tableCount * 2 == tableEntries.length) {
      tableEntries = Arrays.copyOf(tableEntries, tableEntries.length * 2);
    }
    tableEntries[tableCount * 2] = index;
    tableEntries[tableCount * 2 + 1] = owner == null ? 0 : owner.id + 1;
    tableCount++;
  }

  boolean logging() {
    return logging;
  }

  boolean isEmpty() {
    return rangeCount == 0 && headCount == 0 && tableCount == 0;
  }

  /**
   * Appends the operation's record, if it wrote anything, as {@code context} says, and returns its
   * end LSN: what the operation waits for to be durable; 0 if nothing was logged. Called with the
   * stripe's lock held, just before it is released ({@link Stripe#unlockAndLog}).
   */
  long flush(WriteContext context) {
    if (isEmpty()) {
      return 0;
    }
    try {
      long bytes = prepare();
      if (context.inTransaction()) {
        MemorySegment out = scratch(RedoLayout.TX_ALLOC_PREFIX_BYTES + bytes);
        out.set(U64, RedoLayout.TX_ID_OFFSET, context.transactionId());
        out.set(U32, RedoLayout.TX_ALLOC_KIND_OFFSET, context.allocationKind());
        out.set(U32, RedoLayout.TX_ALLOC_ZERO_OFFSET, 0);
        out.set(U64, RedoLayout.TX_ALLOC_POINTER_OFFSET, stripe.lastPointer);
        encodeInto(out, RedoLayout.TX_ALLOC_PREFIX_BYTES);
        return store.append(TYPE_TX_ALLOC, out, RedoLayout.TX_ALLOC_PREFIX_BYTES + bytes);
      }
      MemorySegment out = scratch(bytes);
      encodeInto(out, 0);
      return store.append(TYPE_OP, out, bytes);
    } catch (RuntimeException | Error e) {
      forgetLoggedState(); // the record may not be in the log: the next one carries all fields
      throw e;
    } finally {
      reset();
    }
  }

  /**
   * {@link #flush} of a plain operation with participant {@code participant}'s record ({@code
   * type}, {@code payload}) attached, as one {@link #TYPE_PARTICIPANT_OP} record; logs the
   * participant's record alone if the operation wrote nothing.
   */
  long flush(int participant, int type, MemorySegment payload) {
    long prefix = RedoLayout.PARTICIPANT_HEADER_BYTES + payload.byteSize();
    if (isEmpty()) {
      MemorySegment out = scratch(prefix);
      ParticipantRegistry.writeHeader(out, 0, participant, type, payload.byteSize());
      MemorySegment.copy(payload, 0, out, RedoLayout.PARTICIPANT_HEADER_BYTES, payload.byteSize());
      return store.append(TYPE_PARTICIPANT, out, prefix);
    }
    try {
      long bytes = prepare();
      MemorySegment out = scratch(prefix + bytes);
      ParticipantRegistry.writeHeader(out, 0, participant, type, payload.byteSize());
      MemorySegment.copy(payload, 0, out, RedoLayout.PARTICIPANT_HEADER_BYTES, payload.byteSize());
      encodeInto(out, prefix);
      return store.append(TYPE_PARTICIPANT_OP, out, prefix + bytes);
    } catch (RuntimeException | Error e) {
      forgetLoggedState(); // the record may not be in the log: the next one carries all fields
      throw e;
    } finally {
      reset();
    }
  }

  /** Makes the stripe's next record carry every state field (see {@link #stateLogged}). */
  void forgetLoggedState() {
    stateLoggedValid = false;
  }

  /**
   * Logs one commit record holding the operations recorded so far in every stripe (whose locks the
   * caller holds), forgets them, and returns the record's end LSN.
   */
  static long appendCommit(
      PersistentStore store, long txId, Stripe[] stripes, List<PileTransaction.Attached> attached) {
    long total = RedoLayout.TX_COMMIT_PREFIX_BYTES;
    for (PileTransaction.Attached a : attached) {
      total += RedoLayout.PARTICIPANT_HEADER_BYTES + a.record().byteSize();
    }
    long[] sizes = new long[stripes.length];
    int count = 0;
    for (int i = 0; i < stripes.length; i++) {
      Journal journal = stripes[i].journal;
      if (!journal.isEmpty()) {
        sizes[i] = journal.prepare();
        total += RedoLayout.TX_COMMIT_OP_HEADER_BYTES + sizes[i];
        count++;
      }
    }
    MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(total)]);
    out.set(U64, RedoLayout.TX_ID_OFFSET, txId);
    out.set(U32, RedoLayout.TX_COMMIT_COUNT_OFFSET, count);
    out.set(U32, RedoLayout.TX_COMMIT_ATTACHMENTS_OFFSET, attached.size());
    long at = RedoLayout.TX_COMMIT_PREFIX_BYTES;
    for (int i = 0; i < stripes.length; i++) {
      Journal journal = stripes[i].journal;
      if (!journal.isEmpty()) {
        out.set(U32, at + RedoLayout.TX_COMMIT_OP_LENGTH_OFFSET, (int) sizes[i]);
        journal.encodeInto(out, at + RedoLayout.TX_COMMIT_OP_HEADER_BYTES);
        at += RedoLayout.TX_COMMIT_OP_HEADER_BYTES + sizes[i];
        journal.reset();
      }
    }
    for (PileTransaction.Attached a : attached) {
      long length = a.record().byteSize();
      ParticipantRegistry.writeHeader(out, at, a.participant(), a.type(), length);
      MemorySegment.copy(a.record(), 0, out, at + RedoLayout.PARTICIPANT_HEADER_BYTES, length);
      at += RedoLayout.PARTICIPANT_HEADER_BYTES + length;
    }
    try {
      return store.append(TYPE_TX_COMMIT, out);
    } catch (RuntimeException | Error e) {
      for (Stripe stripe : stripes) {
        stripe.journal.forgetLoggedState();
      }
      throw e;
    }
  }

  /** Drops ranges of segments retired meanwhile and returns the bytes of the op record. */
  private long prepare() {
    // a range of a segment this same operation retired carries nothing replay needs
    int kept = 0;
    for (int i = 0; i < rangeCount; i++) {
      if (table.segmentAt(rangeSegments[i]) != null) {
        rangeSegments[kept] = rangeSegments[i];
        rangeOffsets[kept] = rangeOffsets[i];
        rangeLengths[kept] = rangeLengths[i];
        kept++;
      }
    }
    rangeCount = kept;
    prepareState();
    long bytes =
        RedoLayout.OP_PREFIX_BYTES
            + stateBytes
            + (long) headCount * RedoLayout.HEAD_ENTRY_BYTES
            + (long) tableCount * RedoLayout.TABLE_ENTRY_BYTES
            + (long) rangeCount * RedoLayout.RANGE_HEADER_BYTES;
    for (int i = 0; i < rangeCount; i++) {
      bytes += rangeLengths[i];
    }
    return bytes;
  }

  /** Finds the state fields the record must carry, and their encoded size. */
  private void prepareState() {
    stripe.readStateFields(stateNow);
    int mask = 0;
    int bytes = RedoLayout.FIELD_MASK_BYTES;
    for (int i = 0; i < Stripe.STATE_FIELDS; i++) {
      if (!stateLoggedValid || stateNow[i] != stateLogged[i]) {
        mask |= 1 << i;
        bytes += Uleb128.length(encodedField(i));
      }
    }
    stateMask = mask;
    stateBytes = bytes;
  }

  private long encodedField(int i) {
    return i == 0 ? stateNow[0] + 1 : stateNow[i]; // the bump segment: -1 (none) becomes 0
  }

  /** Writes the op record {@link #prepare()} sized at {@code base}: after-images copied now. */
  private void encodeInto(MemorySegment out, long base) {
    out.set(U32, base + RedoLayout.STRIPE_WORD_OFFSET, stripe.id | RedoLayout.COMPACT_STATE);
    out.set(U32, base + RedoLayout.HEAD_COUNT_OFFSET, headCount);
    out.set(U32, base + RedoLayout.TABLE_COUNT_OFFSET, tableCount);
    out.set(U32, base + RedoLayout.RANGE_COUNT_OFFSET, rangeCount);
    long at = base + RedoLayout.OP_PREFIX_BYTES;
    out.set(U16, at, (short) stateMask);
    at += 2;
    for (int i = 0; i < Stripe.STATE_FIELDS; i++) {
      if ((stateMask & 1 << i) != 0) {
        at = Uleb128.write(out, at, encodedField(i));
      }
    }
    System.arraycopy(stateNow, 0, stateLogged, 0, Stripe.STATE_FIELDS);
    stateLoggedValid = true;
    for (int i = 0; i < headCount; i++) {
      int sizeClass = headClasses[i];
      out.set(U32, at + RedoLayout.HEAD_SIZE_CLASS_OFFSET, sizeClass);
      out.set(U64, at + RedoLayout.HEAD_VALUE_OFFSET, stripe.listHead(sizeClass));
      at += RedoLayout.HEAD_ENTRY_BYTES;
    }
    for (int i = 0; i < tableCount; i++) {
      out.set(U32, at + RedoLayout.TABLE_SEGMENT_OFFSET, tableEntries[i * 2]);
      out.set(U32, at + RedoLayout.TABLE_OWNER_OFFSET, tableEntries[i * 2 + 1]);
      at += RedoLayout.TABLE_ENTRY_BYTES;
    }
    for (int i = 0; i < rangeCount; i++) {
      long length = rangeLengths[i];
      out.set(U32, at + RedoLayout.RANGE_SEGMENT_OFFSET, rangeSegments[i]);
      out.set(U32, at + RedoLayout.RANGE_LENGTH_OFFSET, (int) length);
      out.set(U64, at + RedoLayout.RANGE_OFFSET_OFFSET, rangeOffsets[i]);
      MemorySegment.copy(
          table.segmentAt(rangeSegments[i]).memory(),
          rangeOffsets[i],
          out,
          at + RedoLayout.RANGE_HEADER_BYTES,
          length);
      at += RedoLayout.RANGE_HEADER_BYTES + length;
    }
  }

  /** Forgets what was recorded (the caller logs the operation another way). */
  void discard() {
    reset();
  }

  private void reset() {
    rangeCount = 0;
    for (int i = 0; i < headCount; i++) {
      headMarked[headClasses[i]] = false;
    }
    headCount = 0;
    tableCount = 0;
  }

  private MemorySegment scratch(long bytes) {
    if (scratch.byteSize() < bytes) {
      scratch = Arena.ofAuto().allocate(Math.max(bytes, scratch.byteSize() * 2), 8);
    }
    return scratch;
  }
}
