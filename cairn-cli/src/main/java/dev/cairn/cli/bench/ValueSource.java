package dev.cairn.cli.bench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The bench's values: a pool of up to {@link #MAX_POOL_VALUES} distinct values, made before any
 * store runs, and cycled by index, so value {@code i} is pool entry {@code i mod pool size} for
 * every store alike.
 *
 * <p>Why a pool, rather than N values made ahead or a new value per put: N pre-made values would
 * sit on the heap during the pile's run, and a new String per put would be garbage; either way
 * the pile's GC pauses and RSS growth would then measure the bench's own heap, not the pile (a
 * young generation that G1 keeps growing shows up as RSS growth). With a pool, a put allocates
 * nothing but what the store itself allocates. Values repeat every pool-size indices; neither
 * store looks at a value's content, so that changes nothing for them.
 *
 * <p>A string value is ASCII, so its UTF-8 form has one byte per character. Pool entries differ
 * in their last 3 characters (or 2 bytes), where the entry's number is stamped: all distinct for
 * sizes of at least that. The pool holds at most
 * {@link #MAX_POOL_BYTES}, so large values get fewer entries. Thread-safe: read-only after
 * construction.
 */
public final class ValueSource {

  /** Distinct values at most: enough that gets of consecutive indices read different values. */
  static final int MAX_POOL_VALUES = 1 << 16;

  /** The pool's size bound: a few MiB of heap for 32-byte values, never more than this. */
  static final long MAX_POOL_BYTES = 64L << 20;

  private static final byte[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          .getBytes(StandardCharsets.US_ASCII);

  private final int size;
  /** String or byte[] entries, by kind. */
  private final Object[] pool;
  /** Each entry's last byte, which a get's checksum includes. */
  private final byte[] lastBytes;
  private final int mask;

  /**
   * @param seed seeds the pool; the bench uses a fixed one, so runs are repeatable
   */
  public ValueSource(BenchValueKind kind, int size, long seed) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be positive: size=" + size);
    }
    this.size = size;
    int entries = (int) Math.min(MAX_POOL_VALUES, Math.max(1, MAX_POOL_BYTES / size));
    entries = Integer.highestOneBit(entries); // a power of two: index mod size is a mask
    this.pool = new Object[entries];
    this.lastBytes = new byte[entries];
    this.mask = entries - 1;
    SplittableRandom random = new SplittableRandom(seed);
    for (int e = 0; e < entries; e++) {
      byte[] bytes = new byte[size];
      if (kind == BenchValueKind.STRING) {
        for (int i = 0; i < size; i++) {
          bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        stampBase62(e, bytes);
        pool[e] = new String(bytes, StandardCharsets.US_ASCII);
      } else {
        random.nextBytes(bytes);
        stampBigEndian(e, bytes);
        pool[e] = bytes;
      }
      lastBytes[e] = bytes[size - 1];
    }
  }

  /** Characters of a string value, bytes of a byte[] value; for both, the stored bytes. */
  public int size() {
    return size;
  }

  /** A buffer for one thread to read values back into. */
  public byte[] newBuffer() {
    return new byte[size];
  }

  /**
   * Value {@code index}: a String or a byte[], shared by all callers; a store must copy it and
   * must not change it.
   */
  public Object value(int index) {
    return pool[index & mask];
  }

  /**
   * What a get of a value adds to a store's checksum: its length plus its last byte, where pool
   * entries differ. Both stores compute exactly this from what they return, so a wrong, stale or
   * truncated value shows as a checksum mismatch, at the cost of touching the value once (which a
   * real reader does anyway).
   */
  static long checksumOf(byte[] value, int length) {
    return length + value[length - 1];
  }

  /** The checksum that gets of values {@code [0, n)} must add up to. */
  public long expectedChecksum(int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += size + lastBytes[i & mask];
    }
    return sum;
  }

  /** Writes {@code number} as the last base-62 digits: 3 of them tell 62^3 > 2^16 entries apart. */
  private static void stampBase62(int number, byte[] bytes) {
    for (int at = bytes.length - 1; at >= Math.max(0, bytes.length - 3); at--) {
      bytes[at] = ALPHABET[number % ALPHABET.length];
      number /= ALPHABET.length;
    }
  }

  /** Writes {@code number} as the last 2 bytes, big-endian: they tell 2^16 entries apart. */
  private static void stampBigEndian(int number, byte[] bytes) {
    for (int at = bytes.length - 1; at >= Math.max(0, bytes.length - 2); at--) {
      bytes[at] = (byte) number;
      number >>>= Byte.SIZE;
    }
  }
}
