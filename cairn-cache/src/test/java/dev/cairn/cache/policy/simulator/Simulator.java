package dev.cairn.cache.policy.simulator;

import java.util.SplittableRandom;

/** Replays traces through a {@link CachePolicy}. */
public final class Simulator {
  private Simulator() {}

  /**
   * What a replay measured.
   *
   * @param hitPercent hits per 100 references
   * @param byteHitPercent bytes of the hits per 100 bytes referenced
   */
  public record Result(double hitPercent, double byteHitPercent) {}

  /** Replays {@code trace} with every entry of size 1; returns the hit ratio in percent. */
  public static double hitPercent(Trace trace, CachePolicy policy) {
    long hits = 0;
    for (int key : trace.keys()) {
      if (policy.access(key, 1)) {
        hits++;
      }
    }
    return 100.0 * hits / trace.length();
  }

  /** Replays {@code trace}, key {@code k} weighing {@code sizes[k]} bytes. */
  public static Result replay(Trace trace, CachePolicy policy, long[] sizes) {
    long hits = 0;
    long hitBytes = 0;
    long bytes = 0;
    for (int key : trace.keys()) {
      long size = sizes[key];
      bytes += size;
      if (policy.access(key, size)) {
        hits++;
        hitBytes += size;
      }
    }
    return new Result(100.0 * hits / trace.length(), 100.0 * hitBytes / bytes);
  }

  /**
   * A size for each key: log-uniform between {@code minBytes} and {@code maxBytes} (many small
   * values, a few large ones, as value sizes usually are), from {@code seed}.
   */
  public static long[] randomSizes(int keys, long minBytes, long maxBytes, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double logMin = Math.log((double) minBytes);
    double logMax = Math.log((double) maxBytes);
    long[] sizes = new long[keys];
    for (int k = 0; k < keys; k++) {
      sizes[k] = Math.round(Math.exp(logMin + random.nextDouble() * (logMax - logMin)));
    }
    return sizes;
  }
}
