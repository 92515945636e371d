package dev.cairn.bench;

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
   * Visits {@code [0, FILLED_VALUES)} in a scattered order: an odd step modulo a power of two has
   * full period, so every index comes once per round, and consecutive indices are far apart, as
   * random reads would be, for one add and one mask.
   */
  static final class ScatteredIndex {
    /** Odd, and near 0.618 of the range: neighbours in time land far apart in memory. */
    private static final int STEP = ((int) (FILLED_VALUES * 0.6180339887498949)) | 1;

    private int index;

    ScatteredIndex(long seed) {
      index = new SplittableRandom(seed).nextInt(FILLED_VALUES);
    }

    int next() {
      index = (index + STEP) & (FILLED_VALUES - 1);
      return index;
    }
  }
}
