package dev.cairn.cache.policy;

/**
 * Counts kept in stripes picked by the calling thread, each stripe on cache lines of its own, for
 * counters that every read of the cache bumps. One plain field bumped by two cores passes its cache
 * line back and forth on every bump; with a stripe per thread each core writes lines only it
 * writes, and whoever needs the total sums the stripes now and then.
 *
 * <p>Thread-safety: any thread may {@link #add} and read; writes are plain, so two threads that
 * share a stripe (thread ids equal modulo {@link #STRIPES}) may lose one of their counts, and a
 * {@link #sum} taken while others count may miss their latest. The callers' counts are estimates (a
 * sample's hits, the time to the next ageing step), which such a loss only blurs. One thread alone
 * gets exact, repeatable counts.
 */
public final class StripedCounts {
  /** How many stripes: a power of two. */
  public static final int STRIPES = 16;

  // longs from one stripe to the next: 128 bytes, a line and the neighbour the prefetcher pairs
  // with it
  private static final int STRIDE = 16;

  // stripe i at (i + 1) * STRIDE: the first STRIDE longs keep stripe 0 off the array header's line
  private final long[] cells = new long[(STRIPES + 1) * STRIDE];

  /** The stripe of the calling thread. */
  public static int stripe() {
    return (int) Thread.currentThread().threadId() & (STRIPES - 1);
  }

  /** Adds {@code delta} to stripe {@code stripe}; returns its new count. */
  long add(int stripe, long delta) {
    int at = (stripe + 1) * STRIDE;
    long value = cells[at] + delta;
    cells[at] = value;
    return value;
  }

  /** Sets stripe {@code stripe} to {@code value}. */
  void set(int stripe, long value) {
    cells[(stripe + 1) * STRIDE] = value;
  }

  /** The count of stripe {@code stripe}. */
  long get(int stripe) {
    return cells[(stripe + 1) * STRIDE];
  }

  /** The sum over every stripe. */
  long sum() {
    long sum = 0;
    for (int i = 1; i <= STRIPES; i++) {
      sum += cells[i * STRIDE];
    }
    return sum;
  }

  /** Sets every stripe to 0. */
  void reset() {
    for (int i = 1; i <= STRIPES; i++) {
      cells[i * STRIDE] = 0;
    }
  }
}
