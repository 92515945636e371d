package dev.cairn.bench.cache;

import java.util.SplittableRandom;

/**
 * Keys 0..n-1 drawn with a Zipfian distribution of exponent {@code theta}, the hot ranks scattered
 * over the key space by a hash (YCSB's "scrambled Zipfian"), so that the hot keys are not also
 * neighbours. The rank is drawn by the method of Gray et al., "Quickly generating billion-record
 * synthetic databases" (SIGMOD 1994), which needs zeta(n, theta) once: computed in the constructor
 * (a pass of n terms, about a second for 100M) and shared by every thread's {@link #next}.
 *
 * <p>Thread-safety: immutable; each thread passes its own random source.
 */
final class ZipfKeys {
  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetaN;
  private final double eta;
  private final double half;

  ZipfKeys(long n, double theta) {
    if (n < 2 || !(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException(
          "need n >= 2 and 0 < theta < 1: n=" + n + " theta=" + theta);
    }
    this.n = n;
    this.theta = theta;
    this.alpha = 1 / (1 - theta);
    this.zetaN = zeta(n, theta);
    double zeta2 = zeta(2, theta);
    this.eta = (1 - Math.pow(2.0 / (double) n, 1 - theta)) / (1 - zeta2 / zetaN);
    this.half = 1 + Math.pow(0.5, theta);
  }

  private static double zeta(long n, double theta) {
    double sum = 0;
    for (long i = 1; i <= n; i++) {
      sum += 1 / Math.pow((double) i, theta);
    }
    return sum;
  }

  /** The rank drawn: 0 is the most frequent. */
  long rank(SplittableRandom random) {
    double u = random.nextDouble();
    double uz = u * zetaN;
    if (uz < 1) {
      return 0;
    }
    if (uz < half) {
      return 1;
    }
    return Math.min(n - 1, (long) ((double) n * Math.pow(eta * u - eta + 1, alpha)));
  }

  /** A key drawn: the rank's scrambled position in 0..n-1. */
  long next(SplittableRandom random) {
    return Long.remainderUnsigned(scramble(rank(random)), n);
  }

  /** FNV-1a over the rank's 8 bytes, as YCSB scrambles. */
  static long scramble(long rank) {
    long hash = 0xCBF29CE484222325L;
    for (int i = 0; i < Long.BYTES; i++) {
      hash ^= (rank >>> (i * 8)) & 0xFF;
      hash *= 0x100000001B3L;
    }
    return hash;
  }

  double theta() {
    return theta;
  }
}
