package dev.cairn.pile;

import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.file.Superblock;
import dev.cairn.pile.PileFiles.Geometry;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tag bound of a persistent pile: the superblock records a bound above every tag the pile's
 * clock has handed out, raised ahead of the clock, and every superblock write goes through here.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why: after a crash the clock restarts at the bound, past every tag handed out before,
 * including those of puts the crash lost, whose pointers a caller may have kept. Without it
 * such a pointer would meet its own tag at its own address again after the next few puts.
 *
 * Reservation: the clock is about to hand out tags below `end` (tagsTaken, under a stripe lock).
 * While the durable bound covers them with half a reservation to spare, nothing happens; past
 * that, a pooled I/O thread raises the bound to `end` + TAG_RESERVATION; a caller that has
 * caught up with the bound writes it before going on, so no tag is ever handed out unless the
 * superblock records a bound above it.
 *
 * Concurrency: the superblock's monitor guards the next bound (tagBound) and every superblock
 * write. A write records the bound as of the write (writeSuperblock), so the durable bound
 * never goes back: a checkpoint that built its payload before a reservation still writes the
 * reservation's bound. One background reservation runs at a time (`running`).
 *
 * Lifecycle: at open the bound the superblock holds is read (onDisk); recovery resumes it
 * (resume) and, after a crash, moves the clock to it and reserves past it (reserveAfterCrash).
 * close() waits for a reservation under way before the superblock closes.
 * }</pre>
 */
final class TagReservations {

  /**
   * How far a tag reservation reaches past the clock: a crash wastes at most this many of the 2^23
   * tags (6%), and a pile that puts ten million values a second writes its superblock about forty
   * times a second for it, on a pooled I/O thread.
   */
  static final long TAG_RESERVATION = 1L << 19;

  private final Superblock superblock; // null when open read-only: nothing is written then
  private final StoreFailure failure;
  private final String threadName;
  // what the next superblock write records, guarded by the superblock's monitor; and what the
  // durable superblock records
  private long tagBound;
  private volatile long durableTagBound;
  private volatile boolean closing;
  // a background reservation under way, opened when it has ended; null when none runs
  private final AtomicReference<CountDownLatch> running = new AtomicReference<>();
  private final Reserver reserver = new Reserver();

  TagReservations(Superblock superblock, StoreFailure failure, Path directory) {
    this.superblock = superblock;
    this.failure = failure;
    this.threadName = "cairn-tag-reservation " + directory;
  }

  /** At open: the bound the durable superblock records (0: a file of an earlier build). */
  void onDisk(long bound) {
    durableTagBound = bound;
  }

  /** After recovery: superblock writes from here on record at least {@code bound}. */
  void resume(long bound) {
    synchronized (superblock) {
      tagBound = bound;
    }
  }

  /**
   * After a crash, once the clock is at {@code clock} (past the bound): reserves a further {@link
   * #TAG_RESERVATION} before the pile is used.
   */
  void reserveAfterCrash(long clock) {
    long wanted = clock + TAG_RESERVATION;
    OwnThread.run(threadName, () -> reserveTags(wanted, wanted));
  }

  /**
   * The pile's tag clock is about to hand out values below {@code end} (OffHeapPile.takeTagChunk,
   * under a stripe lock). Returns at once while the durable bound covers them with half a
   * reservation to spare; past that, a pooled I/O thread raises the bound; and a caller that has
   * caught up with the bound writes it before going on (see the class note).
   *
   * @throws DurabilityFailedException if the superblock could not be written (the pile fails)
   */
  void tagsTaken(long end) {
    long durable = durableTagBound;
    if (end + TAG_RESERVATION / 2 <= durable) {
      return;
    }
    long wanted = end + TAG_RESERVATION;
    if (end <= durable) {
      reserveInBackground(wanted);
      return;
    }
    // writers that catch up together write once: the first one's bound covers the others
    OwnThread.run(threadName, () -> reserveTags(end, wanted));
  }

  private void reserveInBackground(long wanted) {
    if (closing || running.get() != null) {
      return;
    }
    CountDownLatch done = new CountDownLatch(1);
    if (!running.compareAndSet(null, done)) {
      return;
    }
    reserver.wanted = wanted; // seen by the task: the pool's hand-off orders them
    reserver.done = done;
    try { // a pooled thread: a run of 10M puts asks for about 40 of these (see OwnThread: why)
      OwnThread.start(threadName, reserver);
    } catch (RuntimeException | Error e) { // no thread could be started: nothing runs
      reserver.ended();
      throw e;
    }
  }

  /**
   * The background reservation's body, one per store, made at open, and its thread's name with it.
   * Why not lambdas and a name built per call: the first reservation comes in a put, under a stripe
   * lock, where linking lambdas and a string concatenation for the first time in a JVM takes
   * milliseconds ({@code linkMethodHandleConstant}), longer than any other put. One reservation
   * runs at a time ({@code running}), so one instance serves them all.
   */
  private final class Reserver implements Runnable {
    private long wanted;
    private CountDownLatch done;

    @Override
    public void run() {
      try {
        reserveTags(wanted, wanted);
      } catch (RuntimeException e) {
        failure.fail(e); // a writer that catches up with the bound meets the failure itself
      } finally {
        ended();
      }
    }

    void ended() {
      CountDownLatch latch = done;
      running.set(null);
      latch.countDown();
    }
  }

  /**
   * Makes the superblock record a tag bound of at least {@code needed}, durably: writes {@code
   * wanted} unless the bound on disk already covers {@code needed}.
   */
  private void reserveTags(long needed, long wanted) {
    synchronized (superblock) {
      if (durableTagBound >= needed) {
        return;
      }
      raiseTagBound(wanted);
      Superblock.State current = superblock.current();
      try {
        writeSuperblock(current.checkpointLsn(), current.cleanShutdown(), current.payload());
      } catch (RuntimeException e) {
        failure.fail(e);
        throw e;
      }
    }
  }

  /** Makes the next superblock write record a bound of at least {@code wanted}. */
  void raiseTagBound(long wanted) {
    synchronized (superblock) {
      tagBound = Math.max(tagBound, Math.min(wanted, Stripe.MAX_TAG_CLOCK));
    }
  }

  /**
   * Every superblock write goes through here: it records the tag bound as of the write, so that the
   * durable bound never goes back (a checkpoint that built its payload before a reservation still
   * writes the reservation's bound).
   */
  void writeSuperblock(long checkpointLsn, boolean clean, byte[] payload) {
    synchronized (superblock) {
      long bound = tagBound;
      superblock.write(checkpointLsn, clean, Geometry.withTagBound(payload, bound));
      durableTagBound = bound;
    }
  }

  /** The tag clock's bound in the durable superblock (0: a file of an earlier build). */
  long durableBound() {
    return durableTagBound;
  }

  /**
   * Starts no more background reservations and waits for one under way (before the superblock
   * closes). The reservation itself never closes the pile, so never waits here.
   */
  void close() {
    closing = true;
    CountDownLatch under = running.get();
    if (under != null) {
      OwnThread.awaitUninterruptibly(under);
    }
  }
}
