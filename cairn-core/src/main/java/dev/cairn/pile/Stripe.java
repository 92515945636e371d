package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.FOOTER_LENGTH;
import static dev.cairn.pile.BlockLayout.MIN_BLOCK_GRANULES;
import static dev.cairn.pile.BlockLayout.NEXT_OFFSET;
import static dev.cairn.pile.BlockLayout.PREV_FREE;
import static dev.cairn.pile.BlockLayout.PREV_OFFSET;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;
import static dev.cairn.pile.Pointers.NIL;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One allocation stripe: a lock, the segments it owns, their free lists and counters.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Concurrency: every method that changes state is called with this stripe's lock held
 * (lock(), then unlockAndLog(context) after a write, unlock() after a section that wrote
 * nothing). Each segment belongs to exactly one stripe for its whole life, so a
 * delete or update of any pointer takes the lock of the stripe owning the pointer's segment,
 * and every block, free list and counter of that segment is guarded by that one lock.
 *
 * An emptied segment goes back to the pile at once (SegmentTable.retire), bump segment
 * included; the pile keeps one spare and returns the rest to the OS. In a persistent pile the
 * emptied bump segment stays the stripe's, all of it bump region again: a retired segment keeps
 * its index until the next checkpoint, so retiring it would make a loop of one put and one
 * delete take a new segment, and a new index, every turn, until the table of 16,384 was full.
 *
 * Allocation order, for a request of g granules:
 *   1. an exact-size free block (sizes under 1 KiB have a class each): no split;
 *   2. the first non-empty class that surely fits g, splitting off the remainder;
 *   3. the bump region: the untouched tail of the newest segment;
 *   4. a new segment from the pile (which enforces the memory budget).
 * Before step 4 the pile looks for free blocks (steps 1-2 only) in the other stripes, so that
 * space freed by one thread's deletes is reused by another thread's puts before the pile grows.
 * Reusing free space before bumping keeps the footprint flat under delete-and-refill.
 *
 * Giving back (volatile piles): freeing a block of RELEASE_MIN_BYTES (64 KiB) or more gives the
 * pages inside the free extent it ends in back to the OS, when the stripe's listed free bytes
 * are at least a sixteenth of its segments' (RELEASE_FREE_SHARE). Header, Next, Prev and footer
 * stay; the rest reads as zeros and is resident again only when reused (in a segment with huge
 * pages, only the whole 2 MiB pages inside: part of one given back would split it for good,
 * NativeSegment#releasePages). Why: an index that
 * doubles frees its old regions, hundreds of MiB at 10M entries, and the pile would otherwise
 * keep them resident, used or not (cairn bench --workload cache, bytesPerEntry). Why the two
 * conditions: a page given back costs a fault and a zeroing when reused, so small blocks, and
 * the churn of a full pile (little free, all reused soon), keep their pages. A persistent pile
 * keeps them too: its segments are private file mappings, whose pages would read as the file
 * again, and its dirty-page tracking and page checks assume bytes change only by writes.
 *
 * Invariants (checked by verify()):
 *   S1 blocks tile [SEGMENT_HEADER_BYTES, segment end) of every segment, except that the bump
 *      region [bumpStart, bumpEnd) of the bump segment is one free extent with no header;
 *   S2 no two free extents are neighbours (coalescing is immediate);
 *   S3 a block's PREV_FREE bit is set iff the block before it is a listed free block;
 *   S4 every free block is in the list of its size class, once, and no live block is listed;
 *   S5 allocatedBytes + freeBytes + headers = capacity; the counters equal what a walk finds.
 *
 * Layout: every put writes its stripe's fields (the bump region, the tag clock's share, the
 * counters), and threads work in different stripes. So the fields sit between 128 bytes of
 * padding on each side (StripePadding before them, the q fields after: two cache lines, as the
 * adjacent-line prefetcher fetches lines in pairs), and no other object's bytes share their
 * cache lines. Without it, JMH PileBenchmark.TwoThreads ran put_bytes at 0.78-0.87x and
 * putThenDelete_bytes at times at a quarter of the padded rate (3 alternating pairs each).
 * }</pre>
 */
final class Stripe extends StripePadding {

  /** Tries before {@link #lock} queues; a few critical sections' worth of spinning. */
  private static final int LOCK_SPINS = 128;

  /** A freed block at least this large may give its pages back to the OS (see Giving back). */
  static final long RELEASE_MIN_BYTES = 64 << 10;

  /**
   * ... when the stripe's listed free bytes, this block's included, reach at least one part in this
   * many of its segments' bytes.
   */
  static final int RELEASE_FREE_SHARE = 16;

  /** The words of a free block a release keeps: header, Next and Prev. */
  private static final long FREE_HEAD_BYTES = PREV_OFFSET + WORD.byteSize();

  final int id;
  private final SegmentTable table;
  private final TagClock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final long[] heads = new long[SizeClasses.COUNT];
  private final long[] nonEmpty = new long[(SizeClasses.COUNT + 63) >>> 6];
  final List<NativeSegment> segments = new ArrayList<>();

  // the bump region, or bumpSegment == null
  NativeSegment bumpSegment;
  long bumpStart;
  long bumpEnd;

  // The stripe's share of the pile's tag clock: it hands out tagClock..tagChunkEnd-1 (the
  // low 23 bits as the tag), then takes the next chunk from the pile. Why a pile-wide clock:
  // a segment index, and with it every address, passes between stripes (a segment released by
  // one stripe is reborn under the same index in another). With a counter per stripe, two
  // stripes whose counters ran through the same values could put the same tag at the same
  // address, and a deleted pointer would name a new value.
  private long tagClock;
  private long tagChunkEnd;

  // counters, guarded by the lock
  long objectCount;
  long linkCount;
  long allocatedBytes;
  long utilizedBytes;
  long listedFreeBytes;
  long listedPieceBytes;

  /** Set by {@link #allocate} to the size of the block it returned, which may exceed the ask. */
  long allocatedGranules;

  /** The address of the block the last allocation through the pile reserved. */
  long lastAddress;

  /** The pointer of the block the last put or prepared update in this stripe wrote. */
  long lastPointer;

  /** Link targets prepared by open transactions, not yet reached by a link (for verify). */
  int pendingTargets;

  /** What the current operation wrote, in a persistent pile; null in a volatile one. */
  Journal journal;

  // Padding after the fields (see Layout): longs are laid out after the superclass's fields and
  // before this class's ints and references, which writers change rarely (the bump segment,
  // the journal) or never.
  @SuppressWarnings("unused")
  private long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

  Stripe(int id, SegmentTable table, TagClock clock) {
    this.id = id;
    this.table = table;
    this.clock = clock;
    Arrays.fill(heads, NIL);
  }

  /**
   * The stripe with id {@code id} of {@code stripes}.
   *
   * @throws PileCorruptionException if there is none (a record naming a stripe the pile lacks)
   */
  static Stripe byId(Stripe[] stripes, int id) {
    if (id < 0 || id >= stripes.length) {
      throw new PileCorruptionException("no stripe " + id + " in a pile of " + stripes.length);
    }
    return stripes[id];
  }

  /** Locks every stripe of {@code stripes}, in id order: a commit, a checkpoint, a purge. */
  static void lockAll(Stripe[] stripes) {
    for (Stripe stripe : stripes) {
      stripe.lock();
    }
  }

  /** Releases what {@link #lockAll} took, with {@link #unlock}. */
  static void unlockAll(Stripe[] stripes) {
    for (Stripe stripe : stripes) {
      stripe.unlock();
    }
  }

  /**
   * Spins briefly on {@link #tryLock} before queueing. Why: a stripe's critical sections last about
   * a hundred nanoseconds, far less than parking and waking a thread, and every queued acquire
   * allocates a queue node; under two-thread churn those nodes were 80 MB of garbage per three
   * cycles, which grew the process's resident heap by a fifth of the pile's size. The spin is
   * bounded, so with more threads than cores a waiter whose owner is descheduled still parks.
   */
  void lock() {
    for (int i = 0; i < LOCK_SPINS; i++) {
      if (lock.tryLock()) {
        return;
      }
      Thread.onSpinWait();
    }
    lock.lock();
  }

  boolean tryLock() {
    return lock.tryLock();
  }

  boolean isHeldByCurrentThread() {
    return lock.isHeldByCurrentThread();
  }

  /** Whether a thread is queued for this stripe's lock (tests: a checkpoint waiting for it). */
  boolean hasQueuedThreads() {
    return lock.hasQueuedThreads();
  }

  /**
   * Ends a write: in a persistent pile that keeps a log, the outermost release first logs what the
   * operation wrote under the lock as one record, as {@code context} says (logged while the lock is
   * held, so the records of one stripe are in the log in the order of its writes), and returns the
   * record's end LSN, which the caller waits for as the pile's durability says; 0 if nothing was
   * logged. A nested release logs nothing: the outermost holder logs the whole operation (a commit,
   * under every stripe lock, logs one commit record for all of them).
   */
  long unlockAndLog(WriteContext context) {
    try {
      Journal j = journal;
      return j != null && lock.getHoldCount() == 1 ? j.flush(context) : 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@link #unlockAndLog(WriteContext)} of a plain operation with a participant's record attached
   * ({@link Journal#TYPE_PARTICIPANT_OP}). The caller holds the lock exactly once: the record must
   * be logged now, with the operation it belongs to.
   */
  long unlockAndLog(int participant, int type, java.lang.foreign.MemorySegment record) {
    try {
      Journal j = journal;
      if (lock.getHoldCount() != 1) {
        throw new IllegalStateException(
            "a participant's write must hold its stripe's lock once:"
                + " holdCount="
                + lock.getHoldCount());
      }
      return j != null && j.logging() ? j.flush(participant, type, record) : 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Releases the lock after a section that wrote nothing the log must hold (a lookup, a failed
   * allocation, a checkpoint's copy). A write ends with {@link #unlockAndLog} instead; should an
   * allocation that moved on to another stripe have left a write here (a segment it took), that
   * write is logged now as a plain record, ahead of the operation's own, which is the one waited
   * for, so that nothing written is ever missing from the log.
   */
  void unlock() {
    Journal j = journal;
    if (j != null && lock.getHoldCount() == 1 && !j.isEmpty()) {
      unlockAndLog(WriteContext.PLAIN);
    } else {
      lock.unlock();
    }
  }

  /** Records a write to segment bytes for the journal; free in a volatile pile. */
  void touch(NativeSegment segment, long offset, long length) {
    Journal j = journal;
    if (j != null) {
      j.touch(segment, offset, length);
    }
  }

  private void touchWord(long address, long byteOffset) {
    if (journal != null) {
      journal.touch(table.segmentAt(Pointers.segment(address)), byteOffset, WORD.byteSize());
    }
  }

  private void setHead(int sizeClass, long block) {
    heads[sizeClass] = block;
    if (journal != null) {
      journal.headChanged(sizeClass);
    }
  }

  /**
   * The tag for a new block: unique in the pile until 2^23 tags later (the clock wraps the tag, and
   * skips 0, which no pointer has).
   */
  int nextTag() {
    while (true) {
      if (tagClock == tagChunkEnd) {
        tagClock = clock.takeChunk();
        tagChunkEnd = tagClock + TagClock.CHUNK;
      }
      int tag = (int) tagClock & Pointers.TAG_MASK;
      tagClock++;
      if (tag != 0) {
        return tag;
      }
    }
  }

  // ---------------------------------------------------------------------------------------
  // allocation

  /** How far an allocation may go to find room. */
  enum Reach {
    /** Only blocks freed earlier: used when serving another stripe's thread. */
    FREE_LISTS,
    /** Free blocks, then the untouched tail of the newest segment. */
    NO_GROWTH,
    /** All of the above, then a new segment if the budget allows. */
    GROW
  }

  /**
   * Reserves a block of at least {@code granules} and returns its address, or {@link Pointers#NIL}
   * if {@code reach} does not allow what it would take, or the budget is spent. The caller writes
   * the block's header before it releases the lock.
   */
  long allocate(long granules, Reach reach) {
    if (granules < SizeClasses.EXACT_LIMIT) {
      long block = heads[(int) granules];
      if (block != NIL) {
        unlink(block, (int) granules, granules);
        takeWhole(block, granules);
        return block;
      }
    }
    int sizeClass = firstNonEmpty(SizeClasses.searchClassOf(granules));
    if (sizeClass >= 0) {
      long block = heads[sizeClass];
      MemorySegment memory = memoryOf(block);
      long offset = Pointers.offsetBytes(block);
      long size = BlockLayout.sizeGranules(memory.get(WORD, offset));
      unlink(block, sizeClass, size);
      if (size - granules >= MIN_BLOCK_GRANULES) {
        long rest = offset + (granules << GRANULE_SHIFT);
        // the block after the remainder keeps its PREV_FREE bit: a free block is still before it
        writeFreeBlock(memory, Pointers.segment(block), rest, size - granules);
        allocatedGranules = granules;
        allocatedBytes += granules << GRANULE_SHIFT;
      } else {
        takeWhole(block, size);
      }
      return block;
    }
    if (reach == Reach.FREE_LISTS) {
      return NIL;
    }
    if (bumpSegment == null || bumpEnd - bumpStart < granules << GRANULE_SHIFT) {
      if (reach != Reach.GROW) {
        return NIL;
      }
      NativeSegment fresh = table.newSegment(this);
      if (fresh == null) {
        return NIL;
      }
      retireBumpRegion();
      segments.add(fresh);
      bumpSegment = fresh;
      bumpStart = SEGMENT_HEADER_BYTES;
      bumpEnd = fresh.sizeBytes();
    }
    long offset = bumpStart;
    long bytes = granules << GRANULE_SHIFT;
    if (bumpEnd - offset - bytes < BlockLayout.MIN_BLOCK_BYTES) {
      bytes = bumpEnd - offset; // a sliver too small to be a block goes with this one
    }
    bumpStart = offset + bytes;
    allocatedGranules = bytes >>> GRANULE_SHIFT;
    allocatedBytes += bytes;
    return Pointers.address(bumpSegment.index(), offset);
  }

  private void takeWhole(long block, long size) {
    MemorySegment memory = memoryOf(block);
    long next = Pointers.offsetBytes(block) + (size << GRANULE_SHIFT);
    if (next < memory.byteSize()) {
      long header = memory.get(WORD, next);
      memory.set(WORD, next, header & ~PREV_FREE);
      touchWord(block, next);
    }
    allocatedGranules = size;
    allocatedBytes += size << GRANULE_SHIFT;
  }

  /** Turns what is left of the bump region into an ordinary free block. */
  private void retireBumpRegion() {
    if (bumpSegment != null && bumpEnd > bumpStart) {
      writeFreeBlock(
          bumpSegment.memory(),
          bumpSegment.index(),
          bumpStart,
          (bumpEnd - bumpStart) >>> GRANULE_SHIFT);
    }
    bumpSegment = null;
    bumpStart = bumpEnd = 0;
  }

  // ---------------------------------------------------------------------------------------
  // freeing

  /**
   * Frees the live block at {@code address}, merging it with free neighbours, and returns its
   * segment to the pile if the segment is now empty. Must run inside the segment's write section.
   */
  void free(long address) {
    NativeSegment segment = table.segmentAt(Pointers.segment(address));
    MemorySegment memory = segment.memory();
    long start = Pointers.offsetBytes(address);
    long header = memory.get(WORD, start);
    long size = BlockLayout.sizeGranules(header);
    long freedBytes = size << GRANULE_SHIFT;
    allocatedBytes -= freedBytes;
    segment.countMerge(); // a free may merge neighbours: boundaries a scan saw may be gone
    // stamp the header first: whatever happens to this extent, a stale reader sees F
    memory.set(WORD, start, BlockLayout.freeHeader(size));
    touch(segment, start, WORD.byteSize());

    long end = start + (size << GRANULE_SHIFT);
    boolean inBumpSegment = segment == bumpSegment;
    boolean joinsBumpRegion = inBumpSegment && end == bumpStart;
    if (!joinsBumpRegion && end < memory.byteSize()) {
      long nextHeader = memory.get(WORD, end);
      if (BlockLayout.isFree(nextHeader)) {
        long nextSize = BlockLayout.sizeGranules(nextHeader);
        unlink(Pointers.address(segment.index(), end), SizeClasses.classOf(nextSize), nextSize);
        size += nextSize;
        end += nextSize << GRANULE_SHIFT;
      }
    }
    if (BlockLayout.isPrevFree(header)) {
      long prevSize = memory.get(WORD, start - FOOTER_LENGTH);
      long prevStart = start - (prevSize << GRANULE_SHIFT);
      unlink(Pointers.address(segment.index(), prevStart), SizeClasses.classOf(prevSize), prevSize);
      start = prevStart;
      size += prevSize;
    }
    if (freedBytes >= RELEASE_MIN_BYTES) {
      giveBack(segment, start, end);
    }
    if (joinsBumpRegion) {
      bumpStart = start;
      if (bumpStart == SEGMENT_HEADER_BYTES && journal == null) { // the whole segment is free
        bumpSegment = null;
        bumpStart = bumpEnd = 0;
        segments.remove(segment);
        table.retire(segment, this);
      }
      return;
    }
    if (start == SEGMENT_HEADER_BYTES && end == memory.byteSize()) {
      segments.remove(segment);
      table.retire(segment, this);
      return;
    }
    writeFreeBlock(memory, segment.index(), start, size);
  }

  /**
   * Gives the pages inside the free extent {@code [start, end)} back to the OS, in a volatile pile
   * whose free bytes, the extent's included, are a large share of its stripe's (see Giving back).
   */
  private void giveBack(NativeSegment segment, long start, long end) {
    if (journal != null) {
      return;
    }
    long free = listedFreeBytes + (end - start);
    long held = (long) segments.size() * table.segmentBytes();
    if (free >= held / RELEASE_FREE_SHARE) {
      segment.releasePages(start + FREE_HEAD_BYTES, end - FOOTER_LENGTH - start - FREE_HEAD_BYTES);
    }
  }

  /** Writes a free block's header and footer, marks its successor, and lists it. */
  private void writeFreeBlock(MemorySegment memory, int segmentIndex, long start, long size) {
    long bytes = size << GRANULE_SHIFT;
    memory.set(WORD, start, BlockLayout.freeHeader(size));
    memory.set(WORD, start + bytes - FOOTER_LENGTH, size);
    long next = start + bytes;
    if (next < memory.byteSize()) {
      long header = memory.get(WORD, next);
      memory.set(WORD, next, header | PREV_FREE);
    }
    if (journal != null) {
      NativeSegment segment = table.segmentAt(segmentIndex);
      journal.touch(segment, start, WORD.byteSize());
      journal.touch(segment, start + bytes - FOOTER_LENGTH, WORD.byteSize());
      if (next < memory.byteSize()) {
        journal.touch(segment, next, WORD.byteSize());
      }
    }
    link(Pointers.address(segmentIndex, start), SizeClasses.classOf(size), size, memory, start);
  }

  // ---------------------------------------------------------------------------------------
  // free lists

  private void link(long block, int sizeClass, long size, MemorySegment memory, long offset) {
    long head = heads[sizeClass];
    memory.set(WORD, offset + NEXT_OFFSET, head);
    memory.set(WORD, offset + PREV_OFFSET, NIL);
    touchWord(block, offset + NEXT_OFFSET);
    touchWord(block, offset + PREV_OFFSET);
    if (head != NIL) {
      memoryOf(head).set(WORD, Pointers.offsetBytes(head) + PREV_OFFSET, block);
      touchWord(head, Pointers.offsetBytes(head) + PREV_OFFSET);
    }
    setHead(sizeClass, block);
    nonEmpty[sizeClass >>> 6] |= 1L << sizeClass;
    countListed(size, +1);
  }

  private void unlink(long block, int sizeClass, long size) {
    MemorySegment memory = memoryOf(block);
    long offset = Pointers.offsetBytes(block);
    long next = memory.get(WORD, offset + NEXT_OFFSET);
    long prev = memory.get(WORD, offset + PREV_OFFSET);
    if (prev == NIL) {
      setHead(sizeClass, next);
      if (next == NIL) {
        nonEmpty[sizeClass >>> 6] &= ~(1L << sizeClass);
      }
    } else {
      memoryOf(prev).set(WORD, Pointers.offsetBytes(prev) + NEXT_OFFSET, next);
      touchWord(prev, Pointers.offsetBytes(prev) + NEXT_OFFSET);
    }
    if (next != NIL) {
      memoryOf(next).set(WORD, Pointers.offsetBytes(next) + PREV_OFFSET, prev);
      touchWord(next, Pointers.offsetBytes(next) + PREV_OFFSET);
    }
    countListed(size, -1);
  }

  private void countListed(long sizeGranules, int sign) {
    long bytes = sizeGranules << GRANULE_SHIFT;
    listedFreeBytes += sign * bytes;
    if (bytes >= PileStats.AVAILABILITY_PIECE_BYTES) {
      listedPieceBytes += sign * bytes;
    }
  }

  private int firstNonEmpty(int fromClass) {
    int word = fromClass >>> 6;
    if (word >= nonEmpty.length) {
      return -1;
    }
    long bits = nonEmpty[word] & (-1L << fromClass);
    while (bits == 0) {
      if (++word == nonEmpty.length) {
        return -1;
      }
      bits = nonEmpty[word];
    }
    return (word << 6) + Long.numberOfTrailingZeros(bits);
  }

  private MemorySegment memoryOf(long address) {
    return table.segmentAt(Pointers.segment(address)).memory();
  }

  // ---------------------------------------------------------------------------------------
  // walking

  /** Receives each block of a segment in address order. */
  @FunctionalInterface
  interface BlockVisitor {
    void visit(long offset, long header);
  }

  /**
   * Visits every block of {@code segment}, skipping the bump region, with the lock held.
   *
   * @throws PileCorruptionException if a block's size does not tile the segment
   */
  void forEachBlock(NativeSegment segment, BlockVisitor visitor) {
    MemorySegment memory = segment.memory();
    long end = memory.byteSize();
    long offset = SEGMENT_HEADER_BYTES;
    while (offset < end) {
      if (segment == bumpSegment && offset == bumpStart) {
        offset = bumpEnd;
        continue;
      }
      long header = memory.get(WORD, offset);
      long size = BlockLayout.sizeGranules(header);
      if (size < MIN_BLOCK_GRANULES || offset + (size << GRANULE_SHIFT) > end) {
        throw new PileCorruptionException(
            "S1 blocks must tile the segment: segment="
                + segment.index()
                + " offset="
                + offset
                + " header=0x"
                + Long.toHexString(header));
      }
      visitor.visit(offset, header);
      offset += size << GRANULE_SHIFT;
    }
  }

  // ---------------------------------------------------------------------------------------
  // bulk

  /**
   * Retires every segment and resets all state (purge). What the journal recorded is dropped: the
   * purge's one record stands for all of it.
   */
  void releaseAll() {
    for (NativeSegment segment : segments) {
      table.retire(segment, this);
    }
    clearForRestore();
    if (journal != null) {
      journal.discard();
    }
  }

  long bumpFreeBytes() {
    return bumpSegment == null ? 0 : bumpEnd - bumpStart;
  }

  long capacityBytes() {
    long bytes = 0;
    for (NativeSegment segment : segments) {
      bytes += segment.sizeBytes();
    }
    return bytes;
  }

  long largestFreeBlockBytes() {
    long largest = bumpFreeBytes();
    int top = -1;
    for (int c = SizeClasses.COUNT - 1; c >= 0; c--) {
      if ((nonEmpty[c >>> 6] & (1L << c)) != 0) {
        top = c;
        break;
      }
    }
    if (top >= 0) {
      for (long b = heads[top];
          b != NIL;
          b = memoryOf(b).get(WORD, Pointers.offsetBytes(b) + NEXT_OFFSET)) {
        largest =
            Math.max(
                largest, BlockLayout.sizeBytes(memoryOf(b).get(WORD, Pointers.offsetBytes(b))));
      }
    }
    return largest;
  }

  // ---------------------------------------------------------------------------------------
  // persistent state: what a checkpoint stores and a redo record carries

  /** Bytes of {@link #writeState}: ten u64 fields. */
  static final int STATE_BYTES = 80;

  /**
   * Writes the stripe's scalar state (little-endian, unaligned): BumpSegment (-1 for none),
   * BumpStart, BumpEnd, NextTag, ObjectCount, LinkCount, AllocatedBytes, UtilizedBytes,
   * ListedFreeBytes, ListedPieceBytes.
   */
  void writeState(MemorySegment out, long at) {
    out.set(Journal.U64, at, bumpSegment == null ? -1 : bumpSegment.index());
    out.set(Journal.U64, at + 8, bumpStart);
    out.set(Journal.U64, at + 16, bumpEnd);
    out.set(Journal.U64, at + 24, tagClock);
    out.set(Journal.U64, at + 32, objectCount);
    out.set(Journal.U64, at + 40, linkCount);
    out.set(Journal.U64, at + 48, allocatedBytes);
    out.set(Journal.U64, at + 56, utilizedBytes);
    out.set(Journal.U64, at + 64, listedFreeBytes);
    out.set(Journal.U64, at + 72, listedPieceBytes);
  }

  /** Reads what {@link #writeState} wrote; the bump segment must already be in the pile. */
  void readState(MemorySegment in, long at) {
    long[] values = new long[STATE_FIELDS];
    for (int i = 0; i < STATE_FIELDS; i++) {
      values[i] = in.get(Journal.U64, at + 8L * i);
    }
    restoreStateFields(ALL_STATE_FIELDS, values);
  }

  /** The tag clock's bound: far beyond any pile's life, and it keeps uleb128 at 9 bytes. */
  static final long MAX_TAG_CLOCK = (1L << 62) - 1;

  /** The number of fields in the stripe's scalar state, in {@link #writeState}'s order. */
  static final int STATE_FIELDS = 10;

  /** A mask naming every state field. */
  static final int ALL_STATE_FIELDS = (1 << STATE_FIELDS) - 1;

  /** Copies the scalar state into {@code into}, in {@link #writeState}'s order. */
  void readStateFields(long[] into) {
    into[0] = bumpSegment == null ? -1 : bumpSegment.index();
    into[1] = bumpStart;
    into[2] = bumpEnd;
    into[3] = tagClock;
    into[4] = objectCount;
    into[5] = linkCount;
    into[6] = allocatedBytes;
    into[7] = utilizedBytes;
    into[8] = listedFreeBytes;
    into[9] = listedPieceBytes;
  }

  /**
   * Sets the state fields whose bit is in {@code mask} from {@code values} (indexed by field); the
   * others keep their value. The bump segment, if set, must already be in the pile.
   */
  void restoreStateFields(int mask, long[] values) {
    if ((mask & ~ALL_STATE_FIELDS) != 0) {
      throw new PileCorruptionException(
          "stripe " + id + ": unknown state fields in mask 0x" + Integer.toHexString(mask));
    }
    if ((mask & 1) != 0) {
      long bump = values[0];
      bumpSegment = bump < 0 || bump >= Pointers.MAX_SEGMENTS ? null : table.segmentAt((int) bump);
      if (bump >= 0 && bumpSegment == null) {
        throw new PileCorruptionException(
            "stripe " + id + " names bump segment " + bump + ", which the pile does not hold");
      }
    }
    if ((mask & 1 << 1) != 0) {
      bumpStart = values[1];
    }
    if ((mask & 1 << 2) != 0) {
      bumpEnd = values[2];
    }
    if ((mask & 1 << 3) != 0) {
      long restored = values[3];
      if (restored < 0 || restored > MAX_TAG_CLOCK) {
        throw new PileCorruptionException(
            "stripe " + id + " has an invalid tag clock: " + restored);
      }
      // every tag a stored block holds came from a clock value below some stripe's restored
      // clock: the pile's clock starts past all of them, and this stripe takes a fresh chunk
      // rather than continue one that, in a file of an earlier build, another stripe shared
      tagClock = restored;
      tagChunkEnd = restored;
      clock.atLeast(restored);
    }
    if ((mask & 1 << 4) != 0) {
      objectCount = values[4];
    }
    if ((mask & 1 << 5) != 0) {
      linkCount = values[5];
    }
    if ((mask & 1 << 6) != 0) {
      allocatedBytes = values[6];
    }
    if ((mask & 1 << 7) != 0) {
      utilizedBytes = values[7];
    }
    if ((mask & 1 << 8) != 0) {
      listedFreeBytes = values[8];
    }
    if ((mask & 1 << 9) != 0) {
      listedPieceBytes = values[9];
    }
  }

  /** Sets one free-list head, as a redo record or a checkpoint carries it. */
  void restoreHead(int sizeClass, long block) {
    if (sizeClass < 0 || sizeClass >= SizeClasses.COUNT) {
      throw new PileCorruptionException("stripe " + id + ": no size class " + sizeClass);
    }
    heads[sizeClass] = block;
    if (block == NIL) {
      nonEmpty[sizeClass >>> 6] &= ~(1L << sizeClass);
    } else {
      nonEmpty[sizeClass >>> 6] |= 1L << sizeClass;
    }
  }

  /** Forgets every segment and resets all state, without touching the segments (recovery). */
  void clearForRestore() {
    segments.clear();
    Arrays.fill(heads, NIL);
    Arrays.fill(nonEmpty, 0);
    bumpSegment = null;
    bumpStart = bumpEnd = 0;
    objectCount = linkCount = allocatedBytes = utilizedBytes = 0;
    listedFreeBytes = listedPieceBytes = 0;
  }

  /** Whether {@code address} heads a listed free block of {@code sizeClass} (for verify). */
  long listHead(int sizeClass) {
    return heads[sizeClass];
  }

  boolean classMarkedNonEmpty(int sizeClass) {
    return (nonEmpty[sizeClass >>> 6] & (1L << sizeClass)) != 0;
  }
}
