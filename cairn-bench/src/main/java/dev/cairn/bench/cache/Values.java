package dev.cairn.bench.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The values of the cache workload: {@code size} bytes, the first 8 the key and the next 8 a
 * version, the rest a filler derived from both. A get checks that the value names its key, so a
 * store that returned another key's value would fail the run rather than flatter it.
 */
final class Values {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The smallest value: key and version. */
  static final int MIN_BYTES = 16;

  private Values() {}

  /** Writes the value of {@code key} at {@code version} into {@code buffer}, whole. */
  static void fill(byte[] buffer, long key, long version) {
    LONGS.set(buffer, 0, key);
    LONGS.set(buffer, 8, version);
    byte b = (byte) (key * 31 + version);
    for (int i = 16; i < buffer.length; i++) {
      buffer[i] = b;
    }
  }

  /**
   * Checks a value read for {@code key}.
   *
   * @throws IllegalStateException if it is not {@code size} bytes or names another key
   */
  static void check(byte[] read, int length, long key, int size) {
    if (length != size || (long) LONGS.get(read, 0) != key) {
      throw new IllegalStateException(
          "the store returned a wrong value for key "
              + key
              + ": "
              + length
              + " bytes naming key "
              + (length >= 8 ? Long.toString((long) LONGS.get(read, 0)) : "?"));
    }
  }
}
