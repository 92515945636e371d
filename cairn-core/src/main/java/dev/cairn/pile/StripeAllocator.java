package dev.cairn.pile;

import static dev.cairn.pile.Pointers.GRANULE_SHIFT;
import static dev.cairn.pile.Pointers.NIL;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which stripe a new block is allocated in: the calling thread's own, while it is not contended and
 * has room; else another stripe's free space, the thread's stripe grown by a segment, or any stripe
 * at all, in that order ({@link #lockForAllocation}). One per pile, made by its {@link
 * BlockWriter}.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Each thread has a probe (Scratch.stripeProbe) whose low bits name its home stripe. A
 * contended lock moves the thread on, as a LongAdder cell does; finding room in another stripe
 * moves it there, so that free space left by deletes anywhere is reused before the pile grows.
 *
 * Locks: a thread holds one stripe lock at a time here, and gives its home stripe up before it
 * waits for another's, so two threads looking for room in each other's stripes cannot
 * deadlock. The stripe returned is locked, with its new block in Stripe.lastAddress; on a
 * failure every lock taken here is released.
 *
 * Thread safety: any thread, any number at once.
 * }</pre>
 */
final class StripeAllocator {

  private static final AtomicInteger NEXT_PROBE = new AtomicInteger();

  /**
   * A new thread's probe (its {@link Scratch} keeps it): its low bits name its home stripe, and a
   * contended lock moves it on by {@link #rehash}, a xorshift, which maps 0 to 0 and is otherwise
   * one-to-one. So a probe is never 0 (a thread there would never move), and each thread's starts
   * apart from every other's in its high bits (the thread count times an odd constant: the low bits
   * still take every stripe in turn), which a move to a stripe keeps ({@link #movedTo}): two
   * threads that meet in one stripe then rehash to different ones. With probes 0, 1, 2... and a
   * move that set the probe to the stripe's id, two threads could come to share a probe, and then
   * every stripe after: JMH PileBenchmark.TwoThreads.putThenDelete_bytes fell from about 40M to
   * 4-6M puts and deletes a second for whole runs, in about one fork of three.
   */
  static int newProbe() {
    return NEXT_PROBE.incrementAndGet() * 0x9E3779B9;
  }

  private final SegmentTable table;
  private final Stripe[] stripes;
  private final int stripeMask;

  StripeAllocator(SegmentTable table, Stripe[] stripes) {
    this.table = table;
    this.stripes = stripes;
    this.stripeMask = stripes.length - 1;
  }

  /** The calling thread's home stripe. */
  Stripe homeStripe() {
    return stripes[Scratch.forThread().stripeProbe & stripeMask];
  }

  /**
   * Returns a locked stripe whose {@link Stripe#lastAddress} holds a fresh block of {@code
   * granules}. In order: the caller's stripe, from its free space; another stripe's free space (the
   * thread then moves to that stripe, so free space left by deletes anywhere is reused before the
   * pile grows); the caller's stripe grown by a segment; any stripe at all, waiting for its lock,
   * before giving up with {@link PileFullException}.
   */
  Stripe lockForAllocation(long granules) {
    return lockForAllocation(granules, Scratch.forThread());
  }

  /** {@link #lockForAllocation(long)} for the calling thread, whose scratch is {@code thread}. */
  Stripe lockForAllocation(long granules, Scratch thread) {
    Stripe home = stripes[thread.stripeProbe & stripeMask];
    if (!home.tryLock()) {
      // contended: this thread moves on, as a LongAdder cell does
      thread.stripeProbe = rehash(thread.stripeProbe);
      home = stripes[thread.stripeProbe & stripeMask];
      home.lock();
    }
    if (allocateIn(home, granules, Stripe.Reach.NO_GROWTH)) {
      return home;
    }
    for (int i = 1; i < stripes.length; i++) {
      Stripe other = stripes[(home.id + i) & stripeMask];
      if (other.tryLock()) {
        boolean found;
        try {
          found = allocateIn(other, granules, Stripe.Reach.FREE_LISTS);
        } catch (RuntimeException | Error e) {
          home.unlock();
          throw e;
        }
        if (found) {
          home.unlock();
          thread.stripeProbe = movedTo(thread.stripeProbe, other.id);
          return other;
        }
        other.unlock();
      }
    }
    Stripe helper = waitForFreeSpace(home, granules);
    if (helper != null) {
      thread.stripeProbe = movedTo(thread.stripeProbe, helper.id);
      return helper;
    }
    if (allocateIn(home, granules, Stripe.Reach.GROW)) {
      return home;
    }
    home.unlock();
    for (Stripe other : stripes) {
      if (other != home) {
        other.lock();
        if (allocateIn(other, granules, Stripe.Reach.NO_GROWTH)) {
          return other;
        }
        other.unlock();
      }
    }
    throw new PileFullException(
        "memory budget exhausted: requested="
            + (granules << GRANULE_SHIFT)
            + " bytes maxMemoryBytes="
            + table.maxMemoryBytes()
            + " capacityBytes="
            + table.capacityBytes()
            + " (free space is too fragmented or the budget is spent; delete values or raise"
            + " maxMemoryBytes)");
  }

  /**
   * Before the pile grows: waits for the lock of each other stripe whose free lists hold enough
   * bytes, and allocates there. Returns that stripe locked, or null with {@code home} locked again.
   *
   * <p>Why: the pass above only tries locks, and under churn the stripe holding the freed space is
   * often busy at that moment, so without this the pile would take a new segment for every such
   * miss and keep growing under delete-and-refill churn. Growth is rare (a segment serves a million
   * small puts), so a wait here costs little. {@code home} is released first: a thread holds one
   * stripe lock at a time, so two threads helping each other cannot deadlock. The free-byte count
   * is read without the lock; it is only a hint.
   */
  private Stripe waitForFreeSpace(Stripe home, long granules) {
    long bytes = granules << GRANULE_SHIFT;
    boolean released = false;
    for (int i = 1; i < stripes.length; i++) {
      Stripe other = stripes[(home.id + i) & stripeMask];
      if (other.listedFreeBytes < bytes) {
        continue;
      }
      if (!released) {
        home.unlock();
        released = true;
      }
      other.lock();
      if (allocateIn(other, granules, Stripe.Reach.FREE_LISTS)) {
        return other;
      }
      other.unlock();
    }
    if (released) {
      home.lock();
      if (allocateIn(home, granules, Stripe.Reach.NO_GROWTH)) { // it may have freed meanwhile
        return home;
      }
    }
    return null;
  }

  /** Allocates in a locked stripe; unlocks it if this throws. */
  private boolean allocateIn(Stripe stripe, long granules, Stripe.Reach reach) {
    boolean success = false;
    try {
      table.checkOpen();
      stripe.lastAddress = stripe.allocate(granules, reach);
      success = true;
      return stripe.lastAddress != NIL;
    } finally {
      if (!success) {
        stripe.unlock();
      }
    }
  }

  /** {@code probe} with its home moved to stripe {@code id}, keeping the thread's own high bits. */
  private int movedTo(int probe, int id) {
    int moved = (probe & ~stripeMask) | id;
    return moved != 0 ? moved : stripeMask + 1; // never 0: see newProbe
  }

  private static int rehash(int probe) {
    probe ^= probe << 13;
    probe ^= probe >>> 17;
    probe ^= probe << 5;
    return probe;
  }
}
