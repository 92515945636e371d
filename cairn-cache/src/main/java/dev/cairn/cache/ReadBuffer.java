package dev.cairn.cache;

import dev.cairn.cache.policy.StripedCounts;
import dev.cairn.cache.policy.TinyLfuClock;

/**
 * The hits that a bounded cache's readers have not told its policy yet: a batch of policy hashes
 * per thread stripe, told at once when full ({@link #BATCH}), or by a drain (the thread that drains
 * tells its own batch first, so a cache used from one thread decides on every hit but at most the
 * last {@code BATCH - 1} of other threads'). As Caffeine's read buffer, in spirit: a hit costs the
 * reader a store, and the policy's work for hits is done in batches.
 *
 * <p>Why batches: telling the policy of a hit increments the frequency sketch, a random line of a
 * table of about a byte per entry, which misses the processor's caches as the index does. One at a
 * time, each increment waits for its line; a batch lets the processor fetch the lines of many at
 * once (the policy's {@code recordHits}).
 *
 * <p>Thread-safety: any thread. A stripe is one thread's, but threads whose ids are equal modulo
 * {@link StripedCounts#STRIPES} share one: they may then lose or repeat a hit of the batch, which
 * only blurs the sketch's estimates (a hit is an estimate's input, never a promise). The batch's
 * count is checked before each use, so such a race never indexes out of the stripe.
 */
final class ReadBuffer {
  /** Hits per batch. */
  static final int BATCH = 32;

  // per stripe: the count, then the batch, then padding so that no two stripes share a line
  private static final int STRIDE = 1 + BATCH + 15;

  // stripe i at (i + 1) * STRIDE: the first STRIDE longs keep stripe 0 off the array header's line
  private final long[] cells = new long[(StripedCounts.STRIPES + 1) * STRIDE];

  /** Adds a hit on the entry of {@code policyHash}; tells {@code policy} the batch once full. */
  void add(long policyHash, TinyLfuClock policy) {
    int base = (StripedCounts.stripe() + 1) * STRIDE;
    long n = cells[base];
    if (n < 0 || n >= BATCH) {
      n = 0; // a thread of the same stripe raced this one: start the batch again
    }
    cells[base + 1 + (int) n] = policyHash;
    n++;
    if (n == BATCH) {
      cells[base] = 0;
      policy.recordHits(cells, base + 1, BATCH);
    } else {
      cells[base] = n;
    }
  }

  /** Tells {@code policy} the calling thread's stripe's hits, if any. */
  void flush(TinyLfuClock policy) {
    int base = (StripedCounts.stripe() + 1) * STRIDE;
    long n = cells[base];
    if (n <= 0 || n > BATCH) {
      return;
    }
    cells[base] = 0;
    policy.recordHits(cells, base + 1, (int) n);
  }
}
