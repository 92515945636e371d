package dev.cairn.bench.jmh;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** The values every benchmark stores: 32 bytes, or 32 ASCII characters, as in the CLI bench. */
final class BenchValues {
  /** Value size in bytes, and in characters for strings (ASCII: one byte each as UTF-8). */
  static final int VALUE_BYTES = 32;

  /**
   * Values held by the "filled" states that gets read from: 2^20 x ~48 bytes is ~48 MiB for the
   * pile, larger than the CPU caches, so a get pays a real memory access as in a large store.
   */
  static final int FILLED_VALUES = 1 << 20;

  private static final char[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

  private BenchValues() {}

  /** A 32-character ASCII string, fixed by {@code seed}. */
  static String string(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    char[] chars = new char[VALUE_BYTES];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(chars);
  }

  /** 32 random bytes, fixed by {@code seed}. */
  static byte[] bytes(long seed) {
    byte[] bytes = new byte[VALUE_BYTES];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  static byte[] utf8(String string) {
    return string.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Values of the "hot" states: 2^12 x ~48 bytes is ~200 KiB, inside this machine's L2 cache, so
   * gets measure the read path itself rather than the memory under it.
   */
  static final int HOT_VALUES = 1 << 12;

  /**
   * Visits {@code [0, size)} in a scattered order: an odd step modulo a power of two has full
   * period, so every index comes once per round, and consecutive indices are far apart, as random
   * reads would be, for one add and one mask.
   */
  static final class ScatteredIndex {
    private final int step;
    private final int mask;
    private int index;

    /** Over {@link #FILLED_VALUES}. */
    ScatteredIndex(long seed) {
      this(seed, FILLED_VALUES);
    }

    ScatteredIndex(long seed, int size) {
      if (Integer.bitCount(size) != 1) {
        throw new IllegalArgumentException("size must be a power of two: " + size);
      }
      // odd, and near 0.618 of the range: neighbours in time land far apart in memory
      step = ((int) (size * 0.6180339887498949)) | 1;
      mask = size - 1;
      index = new SplittableRandom(seed).nextInt(size);
    }

    int next() {
      index = (index + step) & mask;
      return index;
    }
  }
}
