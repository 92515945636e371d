package dev.cairn.pile;

import dev.cairn.memory.NativeSegment;
import java.util.List;

/**
 * The pile's table of segments: which segment sits at each of the {@link Pointers#MAX_SEGMENTS}
 * indexes a pointer can name, which stripe owns it, and the memory budget they use.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Slots: segments[i] is what a pointer into segment i reads; owners[i] is the stripe that owns
 * it, or a mark (the spare's, a retired segment's), or null for a free index.
 *
 * Invariants:
 *   T1 segments[i] != null implies owners[i] != null: a slot's segment is published after its
 *      owner is set, and withdrawn before the owner is cleared;
 *   T2 an index is taken (owners[i] != null) from newSegment or install until the segment is
 *      released; a persistent pile's retired segment keeps its index and its memory (owner: the
 *      mark) until the checkpoint after its retirement releases it (releaseRetired), so the log
 *      records of one index always follow the writes of one segment;
 *   T3 capacityBytes and segmentCount count the segment of every taken index, the spare and
 *      retired ones included;
 *   T4 every index this table ever used is below indexBound, until next-fit wraps round (then
 *      it is MAX_SEGMENTS); a pile opened from files starts there, since the indexes of
 *      segments released before the open are unknown;
 *   T5 there is at most one spare, only in a volatile pile: a wholly free segment, its slot
 *      empty and owned by the mark, reused by the next newSegment.
 *
 * Concurrency: owners[], the counters and the spare are guarded by lock. segments[] is written
 * by the thread holding the owning stripe's lock (or by recovery, before the pile is used) and
 * read without any lock by gets, which validate what they read against the segment's write
 * sequence and its arena's liveness (ValueReads R1, R4); owners[] is read without the lock only by
 * those who lock the owner and then check again (BlockWriter.lockOwner, PageChecks.checkPages).
 * closed is set once, under every stripe lock.
 *
 * Lifecycle: a volatile pile's emptied segment becomes the spare or goes back to the OS at
 * once; a persistent pile's stays until its next checkpoint (PersistenceHooks). close releases
 * everything the table holds (releaseAll).
 * }</pre>
 */
final class SegmentTable {

  private final NativeSegment[] segments = new NativeSegment[Pointers.MAX_SEGMENTS];
  private final Stripe[] owners = new Stripe[Pointers.MAX_SEGMENTS];
  private final Object lock = new Object();
  private final long segmentBytes;
  private final boolean hugePages;
  private final long maxMemoryBytes;
  private final PersistenceHooks hooks;

  /** The owner mark of the spare's slot and of retired segments' (T2, T5): never allocates. */
  private final Stripe mark = new Stripe(-1, this, null);

  private long capacityBytes; // guarded by lock
  private int segmentCount; // guarded by lock
  private int nextSegmentIndex; // guarded by lock
  private NativeSegment spare; // guarded by lock
  // T4. Written under lock, read by failing gets
  private volatile int indexBound;
  private volatile boolean closed;

  SegmentTable(PileOptions options, PersistenceHooks hooks) {
    this.segmentBytes = options.segmentBytes();
    this.hugePages = options.hugePages();
    this.maxMemoryBytes = options.maxMemoryBytes();
    this.hooks = hooks;
    this.indexBound = hooks.hasEarlierSegments() ? Pointers.MAX_SEGMENTS : 0;
  }

  // =========================================================================================
  // lookups

  /** The segment at {@code index}, or null. No lock: see the note. */
  NativeSegment segmentAt(int index) {
    return segments[index];
  }

  /**
   * The slots themselves, for the read paths that index them without a lock (ValueReads,
   * BlockWriter): the array is never replaced, so a holder saves a load per read.
   */
  NativeSegment[] slots() {
    return segments;
  }

  /** The stripe owning segment {@code index}, the mark, or null. No lock: see the note. */
  Stripe ownerOf(int index) {
    return owners[index];
  }

  /** Whether segment {@code index} was retired and waits for a checkpoint to release it (T2). */
  boolean isRetired(int index) {
    synchronized (lock) {
      return owners[index] == mark;
    }
  }

  /** T4: no index at or above it was ever this table's (a failing get's message). */
  int indexBound() {
    return indexBound;
  }

  long segmentBytes() {
    return segmentBytes;
  }

  long maxMemoryBytes() {
    return maxMemoryBytes;
  }

  /** T3: the bytes of every segment held, live, spare or retired. */
  long capacityBytes() {
    synchronized (lock) {
      return capacityBytes;
    }
  }

  /** The bytes of the spare segment (T5), or 0 if there is none. */
  long spareBytes() {
    synchronized (lock) {
      return spare == null ? 0 : spare.sizeBytes();
    }
  }

  /**
   * Adds the segments a stripe owns, and their owners, to the two lists, in index order: what a
   * checkpoint records (the spare and retired segments are not the pile's any more).
   */
  void liveSegments(List<NativeSegment> live, List<Stripe> liveOwners) {
    synchronized (lock) {
      for (int i = 0; i < segments.length; i++) {
        if (segments[i] != null && owners[i] != null && owners[i].id >= 0) {
          live.add(segments[i]);
          liveOwners.add(owners[i]);
        }
      }
    }
  }

  // =========================================================================================
  // closing

  boolean isClosed() {
    return closed;
  }

  /**
   * @throws PileClosedException if the pile is closed
   */
  void checkOpen() {
    if (closed) {
      throw new PileClosedException();
    }
  }

  /** Closes the table: no new segment, no spare kept. Called under every stripe lock. */
  void markClosed() {
    closed = true;
  }

  // =========================================================================================
  // segments coming and going

  /**
   * A segment for {@code stripe}, whose lock the caller holds: the spare if there is one, else a
   * new one, or null if the budget or the table is full.
   *
   * @throws PileClosedException if the pile is closed
   * @throws PileFullException if the OS refuses the memory
   */
  NativeSegment newSegment(Stripe stripe) {
    int index;
    synchronized (lock) {
      if (closed) {
        throw new PileClosedException();
      }
      if (spare != null) { // T5: only a volatile pile keeps one
        NativeSegment adopted = spare;
        spare = null;
        owners[adopted.index()] = stripe;
        segments[adopted.index()] = adopted;
        return adopted;
      }
      if (capacityBytes + segmentBytes > maxMemoryBytes || segmentCount == Pointers.MAX_SEGMENTS) {
        return null;
      }
      index = nextSegmentIndex;
      while (owners[index] != null) {
        index = (index + 1) & (Pointers.MAX_SEGMENTS - 1);
      }
      // next-fit: a released index is reused as late as possible, so a stale pointer into a
      // released segment meets an empty slot for as long as possible
      nextSegmentIndex = (index + 1) & (Pointers.MAX_SEGMENTS - 1);
      indexBound = nextSegmentIndex == 0 ? Pointers.MAX_SEGMENTS : Math.max(indexBound, index + 1);
      owners[index] = stripe;
      capacityBytes += segmentBytes;
      segmentCount++;
    }
    NativeSegment segment;
    try {
      segment = NativeSegment.allocate(index, segmentBytes, hugePages);
    } catch (OutOfMemoryError e) {
      synchronized (lock) {
        owners[index] = null;
        capacityBytes -= segmentBytes;
        segmentCount--;
      }
      throw new PileFullException(
          "the OS refused a new segment of " + segmentBytes + " bytes: " + e);
    }
    hooks.segmentBorn(segment, stripe);
    segments[index] = segment; // T1
    return segment;
  }

  /**
   * Takes back a wholly free segment from its stripe {@code from} (whose lock the caller holds). A
   * persistent pile keeps it until its next checkpoint (T2). A volatile pile keeps one such segment
   * as a spare (T5), so that a stripe that empties and refills its only segment does not make the
   * OS zero 64 MiB each time; any other is returned to the OS.
   */
  void retire(NativeSegment segment, Stripe from) {
    int index = segment.index();
    segments[index] = null; // stale readers now meet an empty slot
    if (hooks.keepsRetiredSegments()) {
      // the memory and the index stay taken until the next checkpoint, which may still copy
      // its pages, and after which no log record can name the old segment (T2)
      synchronized (lock) {
        owners[index] = mark;
      }
      hooks.segmentRetired(segment, from);
      return;
    }
    boolean keep;
    synchronized (lock) {
      keep = spare == null && !closed;
      if (keep) {
        spare = segment;
        owners[index] = mark;
      } else {
        owners[index] = null;
        capacityBytes -= segment.sizeBytes();
        segmentCount--;
      }
    }
    if (!keep) {
      segment.release();
    }
  }

  /** Frees a retired segment's memory and index once a checkpoint no longer needs them (T2). */
  void releaseRetired(NativeSegment segment) {
    synchronized (lock) {
      owners[segment.index()] = null;
      capacityBytes -= segment.sizeBytes();
      segmentCount--;
    }
    segment.release();
  }

  /** Returns the spare (T5), if any, to the OS. */
  void releaseSpare() {
    NativeSegment released;
    synchronized (lock) {
      released = spare;
      spare = null;
      if (released != null) {
        owners[released.index()] = null;
        capacityBytes -= released.sizeBytes();
        segmentCount--;
      }
    }
    if (released != null) {
      released.release();
    }
  }

  /** Adds a segment that is the pile's already (open, replay) to {@code owner}. */
  void install(NativeSegment segment, Stripe owner) {
    int index = segment.index();
    synchronized (lock) {
      if (owners[index] != null) {
        throw new PileCorruptionException("segment " + index + " is listed twice");
      }
      owners[index] = owner;
      capacityBytes += segment.sizeBytes();
      segmentCount++;
      nextSegmentIndex = Math.max(nextSegmentIndex, (index + 1) & (Pointers.MAX_SEGMENTS - 1));
    }
    segments[index] = segment; // T1
    owner.segments.add(segment);
  }

  /** Drops a segment at once (replay of a record that retired it). */
  void uninstall(int index) {
    NativeSegment segment = segments[index];
    if (segment == null) {
      return;
    }
    Stripe owner = owners[index];
    owner.segments.remove(segment);
    segments[index] = null; // T1
    synchronized (lock) {
      owners[index] = null;
      capacityBytes -= segment.sizeBytes();
      segmentCount--;
    }
    segment.release();
  }

  /**
   * Releases every segment the table holds, the spare included, and frees every index (close,
   * failed open); the caller holds every stripe lock, or the pile is not in use yet.
   */
  void releaseAll() {
    synchronized (lock) {
      for (int i = 0; i < segments.length; i++) {
        if (segments[i] != null) {
          segments[i].release();
          segments[i] = null;
        }
        owners[i] = null;
      }
      if (spare != null) {
        spare.release();
        spare = null;
      }
      capacityBytes = 0;
      segmentCount = 0;
    }
  }
}
