package dev.cairn.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 64-bit hash of a key's bytes under a table's seed ({@link KeyPlacement#HASHED}, and every key
 * but 8-byte ones under {@link KeyPlacement#RUNS}). Stable across restarts (the index keeps
 * positions derived from it); the seed is random per table, so that keys chosen to collide in one
 * table do not collide in another.
 */
final class KeyHash {
  private static final ValueLayout.OfLong LE_LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong BE_LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
  private static final long P1 = 0x9E3779B97F4A7C15L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;

  private KeyHash() {}

  static long hash(MemorySegment bytes, int length, long seed) {
    long h = seed ^ (length * P1);
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      h = Long.rotateLeft(h ^ (bytes.get(LE_LONG, i) * P2), 29) * P1;
    }
    long tail = 0;
    for (int shift = 0; i < length; i++, shift += 8) {
      tail |= (bytes.get(ValueLayout.JAVA_BYTE, i) & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * P2), 29) * P1;
    return mix(h);
  }

  /** MurmurHash3's finalizer: every input bit reaches every output bit. */
  static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}
