package dev.cairn.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One native memory segment with its own arena, so that it can be returned to the OS on its own.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Concurrency: the segment's bytes are written only by the one thread that holds the lock of
 * the allocation stripe owning the segment, except the payloads of participants' regions, which
 * their participant writes in place under the lock of another pile write (see Dirty pages, and
 * the pile's Regions). Readers do not lock; they validate an optimistic read against the write
 * sequence, a seqlock (which a region write does not take: a region is its participant's to
 * read):
 *   writer: beginWrite() (sequence becomes odd), change bytes, endWrite() (even again)
 *   reader: s = sequenceAcquire(); if odd, retry; read bytes; if !validate(s), retry
 * Only changes that can invalidate what a reader already checked (freeing a block, rewriting a
 * live value in place, turning a block into a link) need a write section. Writing a new value
 * into free space does not: no valid pointer reaches it until the put returns.
 *
 * Lifecycle: release() closes the arena. A reader still holding the segment then gets
 * IllegalStateException from the FFM runtime, never a crash; the pile translates it into a
 * stale-pointer or closed-pile exception.
 *
 * Dirty pages (persistent piles): one bit per 4 KiB page written since a checkpoint last copied
 * it. Most writes hold the owning stripe's lock, as the checkpoint's copy does; a participant's
 * region write does not (it holds the lock of the pile write it belongs to, which may be
 * another stripe's: markWritten), so the bits are shared between threads:
 *   D1 Every change to a word of marks is atomic (getAndBitwiseOr to mark, getAndBitwiseAnd to
 *      clear): a plain read-modify-write by one thread would drop a bit another thread set in
 *      the same word meanwhile (64 pages share a word).
 *   D2 A page is marked after its bytes change (region writers: write, then markWritten) and
 *      its mark is cleared before the page is copied (the checkpoint: clearDirty, then copy).
 *      The two atomic operations on the word are ordered: if the clear reads the mark, the
 *      bytes were written before the copy reads them; if not, the mark lands after the clear
 *      and the page stays dirty for the next checkpoint. A write racing the copy is never lost.
 *      (Writers under the owner's lock may mark before or after their bytes: the copy holds
 *      the same lock, so it sees both or neither.)
 *   D3 markDirty, for writers under the owner's lock (and a single-threaded replay), skips the
 *      atomic operation when an opaque read finds every bit already set: only a clear takes a
 *      bit away, and clears hold the owner's lock, so a bit seen set stays set. So the pile's
 *      own writers pay a plain load per page written, as before, and one atomic OR per page
 *      per checkpoint interval. markWritten always ORs: without the owner's lock a bit seen
 *      set may be cleared by a checkpoint before the bytes written just before are visible to
 *      its copy (a store may pass a later load), and the OR is what orders them (D2).
 * }</pre>
 */
public final class NativeSegment {
  private static final VarHandle SEQUENCE;
  private static final VarHandle MARKS = MethodHandles.arrayElementVarHandle(long[].class);

  static {
    try {
      SEQUENCE = MethodHandles.lookup().findVarHandle(NativeSegment.class, "sequence", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Arena arena;
  private final MemorySegment memory;
  private final MemorySegment readOnlyMemory; // memory.asReadOnly(), made once
  private final int index;
  private final boolean anonymous; // mapped by OsMemory.mapAnonymous: pages can be given back
  private final boolean hugePages; // anonymous and advised for huge pages: give back whole ones

  @SuppressWarnings("unused") // accessed through SEQUENCE
  private volatile long sequence;

  // pages written since the last checkpoint copied them (persistent piles only): see D1-D3.
  // Made before the segment is shared (trackDirtyPages), never replaced.
  private long[] dirtyPages;
  // whether the segment's file holds its bytes as of some checkpoint; false for a segment born
  // in memory since, whose file must be (re)created from scratch. Checkpointer thread only.
  private boolean hasFile;
  // the pages still to check against the checksums of the file they were mapped from, or null
  // (a segment born in memory, or one whose pages are all checked): see PageCheck
  private PageCheck pageCheck;

  // write sections may nest (a delete frees a link and its target in the same segment);
  // only the outermost one moves the sequence. Touched only under the owning stripe's lock.
  private int writeDepth;

  // bumped by the owner whenever blocks merge, so that a scan resuming at a block boundary it
  // saw can tell whether that boundary may be gone. Touched only under the owning stripe's lock.
  private long merges;

  private NativeSegment(
      Arena arena, MemorySegment memory, int index, boolean anonymous, boolean hugePages) {
    this.arena = arena;
    this.anonymous = anonymous;
    this.hugePages = anonymous && hugePages;
    this.memory = memory;
    this.readOnlyMemory = memory.asReadOnly();
    this.index = index;
  }

  /**
   * Allocates {@code sizeBytes} of zeroed native memory, aligned to a page: anonymous pages from
   * the OS, resident as they are first written, where {@link OsMemory} is available (asking for
   * transparent huge pages if {@code hugePages}, see {@link OsMemory#mapAnonymous(long, Arena,
   * boolean)}); else from {@link Arena#allocate}, which zeroes (and so touches) all of it now.
   *
   * @throws OutOfMemoryError if the OS refuses
   */
  public static NativeSegment allocate(int index, long sizeBytes, boolean hugePages) {
    Arena arena = Arena.ofShared();
    boolean success = false;
    try {
      boolean anonymous = OsMemory.available();
      MemorySegment memory =
          anonymous
              ? OsMemory.mapAnonymous(sizeBytes, arena, hugePages)
              : arena.allocate(sizeBytes, 4096);
      success = true;
      return new NativeSegment(arena, memory, index, anonymous, hugePages);
    } finally {
      if (!success) {
        arena.close();
      }
    }
  }

  /**
   * Wraps memory the caller obtained from {@code arena} (a private file mapping, say) as a segment;
   * {@link #release()} closes the arena.
   */
  public static NativeSegment of(int index, Arena arena, MemorySegment memory) {
    return new NativeSegment(arena, memory, index, false, false);
  }

  /**
   * Gives the whole pages inside {@code [offset, offset + length)} back to the OS, if this
   * segment's memory is anonymous ({@link #allocate} where {@link OsMemory} is available): they
   * read as zeros from now on and cost no resident memory until written again. A no-op for other
   * memory (a file mapping, or memory from {@link Arena#allocate}), whose bytes stay as they are.
   * For the interior of a free extent, which nothing reads but a stale reader, who then finds a
   * zero word where a block header was: tag 0, which no pointer has. A segment allocated with huge
   * pages gives back only the whole 2 MiB pages inside the range, so as not to split them.
   *
   * @return the bytes given back (0 if none)
   * @throws IndexOutOfBoundsException if the range is not inside the segment
   */
  public long releasePages(long offset, long length) {
    return anonymous ? OsMemory.releasePages(memory, offset, length, hugePages) : 0;
  }

  /** The segment's bytes; bounds-checked like every {@link MemorySegment}. */
  public MemorySegment memory() {
    return memory;
  }

  /**
   * {@link #memory()} as a read-only segment, made once: what a read hands to code that must not
   * write, without a view per read.
   */
  public MemorySegment readOnlyMemory() {
    return readOnlyMemory;
  }

  /** The slot of this segment in its pile's segment table. */
  public int index() {
    return index;
  }

  public long sizeBytes() {
    return memory.byteSize();
  }

  /** Starts a write section; the caller must hold the owning stripe's lock. */
  public void beginWrite() {
    if (writeDepth++ > 0) {
      return;
    }
    long s = (long) SEQUENCE.getOpaque(this);
    SEQUENCE.setOpaque(this, s + 1);
    // the odd sequence must be visible before any byte of the write section
    VarHandle.storeStoreFence();
  }

  /** Ends a write section; publishes every byte written since {@link #beginWrite()}. */
  public void endWrite() {
    if (--writeDepth > 0) {
      return;
    }
    long s = (long) SEQUENCE.getOpaque(this);
    SEQUENCE.setRelease(this, s + 1);
  }

  /** How many times the owner merged blocks in this segment (see {@link #countMerge()}). */
  public long merges() {
    return merges;
  }

  /**
   * Records that the owner merged blocks, so that an offset between them may no longer start one.
   */
  public void countMerge() {
    merges++;
  }

  /** The write sequence, with acquire semantics; odd while a write section is open. */
  public long sequenceAcquire() {
    return (long) SEQUENCE.getAcquire(this);
  }

  /** True if no write section began since {@code sequence} was read (and it was even). */
  public boolean validate(long sequence) {
    // loads of the optimistic read must not move below the re-read of the sequence
    VarHandle.acquireFence();
    return (long) SEQUENCE.getOpaque(this) == sequence;
  }

  // ---------------------------------------------------------------------------------------
  // dirty pages, for checkpoints of persistent piles

  /** Bytes per tracked page. */
  public static final int PAGE_BYTES = 4096;

  private static final int PAGE_SHIFT = 12;

  /** Starts tracking which pages are written; until then the marks do nothing. */
  public void trackDirtyPages() {
    if (dirtyPages == null) {
      long pages = (memory.byteSize() + PAGE_BYTES - 1) >>> PAGE_SHIFT;
      dirtyPages = new long[(int) ((pages + 63) >>> 6)];
    }
  }

  /**
   * Marks the pages of {@code [offset, offset + length)} written (D1, D3). For writers holding the
   * owning stripe's lock, and for a replay (one thread): bits already set are not set again.
   */
  public void markDirty(long offset, long length) {
    long[] bits = dirtyPages;
    if (bits == null || length <= 0) {
      return;
    }
    long first = offset >>> PAGE_SHIFT;
    long last = (offset + length - 1) >>> PAGE_SHIFT;
    for (long page = first; page <= last; page = (page | 63) + 1) {
      int word = (int) (page >>> 6);
      long mask = wordMask(page, last);
      if (((long) MARKS.getOpaque(bits, word) & mask) != mask) { // D3
        MARKS.getAndBitwiseOr(bits, word, mask);
      }
    }
  }

  /**
   * Marks the pages of {@code [offset, offset + length)} written by a thread that need not hold the
   * owning stripe's lock (a participant's region write), after the bytes were written: always an
   * atomic OR, which orders the write before the mark (D2, D3). Safe from any thread.
   */
  public void markWritten(long offset, long length) {
    long[] bits = dirtyPages;
    if (bits == null || length <= 0) {
      return;
    }
    long first = offset >>> PAGE_SHIFT;
    long last = (offset + length - 1) >>> PAGE_SHIFT;
    for (long page = first; page <= last; page = (page | 63) + 1) {
      MARKS.getAndBitwiseOr(bits, (int) (page >>> 6), wordMask(page, last));
    }
  }

  /** The bits of pages {@code page} to {@code last} that lie in {@code page}'s word. */
  private static long wordMask(long page, long last) {
    long mask = -1L << page; // shifts use the low 6 bits: page's bit and those above it
    if (last >>> 6 == page >>> 6) {
      mask &= -1L >>> (63 - (last & 63));
    }
    return mask;
  }

  /** Marks every page dirty (a segment whose file must be written whole). */
  public void markAllDirty() {
    markWritten(0, memory.byteSize());
  }

  /** The first dirty page at or after {@code fromPage}, or -1. Safe from any thread. */
  public long nextDirtyPage(long fromPage) {
    long[] bits = dirtyPages;
    if (bits == null) {
      return -1;
    }
    int word = (int) (fromPage >>> 6);
    if (word >= bits.length) {
      return -1;
    }
    long masked = (long) MARKS.getOpaque(bits, word) & (-1L << fromPage);
    while (masked == 0) {
      if (++word == bits.length) {
        return -1;
      }
      masked = (long) MARKS.getOpaque(bits, word);
    }
    return ((long) word << 6) + Long.numberOfTrailingZeros(masked);
  }

  /** Whether {@code page} is marked dirty. Safe from any thread. */
  public boolean isDirty(long page) {
    long[] bits = dirtyPages;
    return bits != null && ((long) MARKS.getOpaque(bits, (int) (page >>> 6)) & (1L << page)) != 0;
  }

  /**
   * Clears the dirty mark of {@code page}, atomically (D1); a checkpoint does so before it copies
   * the page (D2), holding the owning stripe's lock (D3).
   */
  public void clearDirty(long page) {
    MARKS.getAndBitwiseAnd(dirtyPages, (int) (page >>> 6), ~(1L << page));
  }

  /** The number of pages marked dirty. Safe from any thread (a count of one instant's bits). */
  public long dirtyPageCount() {
    long count = 0;
    long[] bits = dirtyPages;
    if (bits != null) {
      for (int word = 0; word < bits.length; word++) {
        count += Long.bitCount((long) MARKS.getOpaque(bits, word));
      }
    }
    return count;
  }

  /** Whether the segment's file holds its bytes as of some checkpoint (see the field). */
  public boolean hasFile() {
    return hasFile;
  }

  public void setHasFile(boolean hasFile) {
    this.hasFile = hasFile;
  }

  /**
   * The checks still owed to this segment's pages (see {@link PageCheck}), or null if none are: a
   * segment born in memory, or one whose pages have all been checked.
   */
  public PageCheck pageCheck() {
    return pageCheck;
  }

  void setPageCheck(PageCheck check) {
    this.pageCheck = check;
  }

  /** Drops {@code check} if it is still this segment's (every page checked, or none to protect). */
  void clearPageCheck(PageCheck check) {
    if (pageCheck == check) {
      pageCheck = null;
    }
  }

  /** Drops the page checks: the segment no longer holds values read from its file. */
  public void dropPageCheck() {
    pageCheck = null;
  }

  /** Returns the memory to the OS. Idempotent. */
  public void release() {
    if (arena.scope().isAlive()) {
      arena.close();
    }
  }
}
