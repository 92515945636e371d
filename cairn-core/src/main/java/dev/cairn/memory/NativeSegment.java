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
 * the allocation stripe owning the segment. Readers do not lock; they validate an optimistic
 * read against the write sequence, a seqlock:
 *   writer: beginWrite() (sequence becomes odd), change bytes, endWrite() (even again)
 *   reader: s = sequenceAcquire(); if odd, retry; read bytes; if !validate(s), retry
 * Only changes that can invalidate what a reader already checked (freeing a block, rewriting a
 * live value in place, turning a block into a link) need a write section. Writing a new value
 * into free space does not: no valid pointer reaches it until the put returns.
 *
 * Lifecycle: release() closes the arena. A reader still holding the segment then gets
 * IllegalStateException from the FFM runtime, never a crash; the pile translates it into a
 * stale-pointer or closed-pile exception.
 * }</pre>
 */
public final class NativeSegment {
  private static final VarHandle SEQUENCE;

  static {
    try {
      SEQUENCE =
          MethodHandles.lookup().findVarHandle(NativeSegment.class, "sequence", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Arena arena;
  private final MemorySegment memory;
  private final int index;

  @SuppressWarnings("unused") // accessed through SEQUENCE
  private volatile long sequence;

  // pages written since the last checkpoint copied them (persistent piles only); written and
  // cleared under the owning stripe's lock, like the bytes themselves
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

  private NativeSegment(Arena arena, MemorySegment memory, int index) {
    this.arena = arena;
    this.memory = memory;
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
      MemorySegment memory = OsMemory.available()
          ? OsMemory.mapAnonymous(sizeBytes, arena, hugePages)
          : arena.allocate(sizeBytes, 4096);
      success = true;
      return new NativeSegment(arena, memory, index);
    } finally {
      if (!success) {
        arena.close();
      }
    }
  }

  /**
   * Wraps memory the caller obtained from {@code arena} (a private file mapping, say) as a
   * segment; {@link #release()} closes the arena.
   */
  public static NativeSegment of(int index, Arena arena, MemorySegment memory) {
    return new NativeSegment(arena, memory, index);
  }

  /** The segment's bytes; bounds-checked like every {@link MemorySegment}. */
  public MemorySegment memory() {
    return memory;
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

  /** Records that the owner merged blocks, so that an offset between them may no longer start one. */
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

  /** Starts tracking which pages are written; until then {@link #markDirty} does nothing. */
  public void trackDirtyPages() {
    if (dirtyPages == null) {
      long pages = (memory.byteSize() + PAGE_BYTES - 1) >>> PAGE_SHIFT;
      dirtyPages = new long[(int) ((pages + 63) >>> 6)];
    }
  }

  /** Marks the pages of {@code [offset, offset + length)} written; under the owner's lock. */
  public void markDirty(long offset, long length) {
    long[] bits = dirtyPages;
    if (bits == null || length <= 0) {
      return;
    }
    long first = offset >>> PAGE_SHIFT;
    long last = (offset + length - 1) >>> PAGE_SHIFT;
    for (long page = first; page <= last; page++) {
      bits[(int) (page >>> 6)] |= 1L << page;
    }
  }

  /** Marks every page dirty (a segment whose file must be written whole). */
  public void markAllDirty() {
    markDirty(0, memory.byteSize());
  }

  /** The first dirty page at or after {@code fromPage}, or -1. */
  public long nextDirtyPage(long fromPage) {
    long[] bits = dirtyPages;
    if (bits == null) {
      return -1;
    }
    int word = (int) (fromPage >>> 6);
    if (word >= bits.length) {
      return -1;
    }
    long masked = bits[word] & (-1L << fromPage);
    while (masked == 0) {
      if (++word == bits.length) {
        return -1;
      }
      masked = bits[word];
    }
    return ((long) word << 6) + Long.numberOfTrailingZeros(masked);
  }

  /** Whether {@code page} is marked dirty. */
  public boolean isDirty(long page) {
    return dirtyPages != null && (dirtyPages[(int) (page >>> 6)] & (1L << page)) != 0;
  }

  /** Clears the dirty mark of {@code page}. */
  public void clearDirty(long page) {
    dirtyPages[(int) (page >>> 6)] &= ~(1L << page);
  }

  /** The number of pages marked dirty. */
  public long dirtyPageCount() {
    long count = 0;
    if (dirtyPages != null) {
      for (long word : dirtyPages) {
        count += Long.bitCount(word);
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
   * The checks still owed to this segment's pages (see {@link PageCheck}), or null if none are:
   * a segment born in memory, or one whose pages have all been checked.
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
