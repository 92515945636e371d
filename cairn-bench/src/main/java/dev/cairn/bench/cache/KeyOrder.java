package dev.cairn.bench.cache;

import java.util.Locale;

/**
 * The keys of the cache workload: the i-th of its n keys. {@link #SEQUENTIAL} keys are 0..n-1, as
 * most ids are; {@link #SCATTERED} keys are the same count of distinct longs spread over the whole
 * range, so that no store's hash keeps neighbouring keys in neighbouring buckets.
 *
 * <p>The order matters because {@code ConcurrentHashMap} (and Caffeine over it) spreads a {@code
 * Long}'s hash only by folding its high half into its low half: keys 0..n-1 fill its table from one
 * end to the other, one cache line per several inserts, while Cairn, Chronicle Map and Ehcache hash
 * every key to a random place. {@code --keys scattered} measures all of them with a random place
 * each (docs/BENCHMARKS.md, "Cache against its peers").
 */
public enum KeyOrder {
  SEQUENTIAL,
  SCATTERED;

  /** Odd, so that multiplying by it is a bijection of the longs: distinct keys stay distinct. */
  private static final long SPREAD = 0x9E3779B97F4A7C15L;

  /** The i-th key, for i in 0..n-1. */
  public long key(long i) {
    return this == SEQUENTIAL ? i : i * SPREAD;
  }

  /** Its name on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The order named {@code label}.
   *
   * @throws IllegalArgumentException naming the orders there are
   */
  public static KeyOrder of(String label) {
    for (KeyOrder order : values()) {
      if (order.label().equals(label)) {
        return order;
      }
    }
    throw new IllegalArgumentException(
        "--keys must be sequential or scattered, not '" + label + "'");
  }
}
