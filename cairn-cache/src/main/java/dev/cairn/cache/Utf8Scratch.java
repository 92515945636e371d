package dev.cairn.cache;

import dev.cairn.codec.Utf8;

/**
 * One thread's array for a string's UTF-8 on its way off the heap (a {@code String} key into the
 * key buffer, a {@code String} value into its entry), so that a get or a put makes no array for it.
 * The bytes are {@link Utf8#encode(String)}'s: lone surrogates included.
 *
 * <p>Not thread-safe: one per thread, its bytes valid until its next {@link #encode}.
 */
final class Utf8Scratch {
  /** The longest encoding kept here; a string that may need more gets an array of its own. */
  static final int MAX_BYTES = 4096;

  private byte[] bytes = new byte[64];
  private char[] chars = new char[32];

  /**
   * Encodes {@code s} into {@link #bytes} from 0 and returns its length; -1 if {@code s} may take
   * more than {@link #MAX_BYTES} (three per char), left for {@link Utf8#encode(String)}.
   */
  int encode(String s) {
    int n = s.length();
    if (Utf8.maxEncodedLength(n) > MAX_BYTES) {
      return -1;
    }
    if (bytes.length < 3 * n) {
      bytes = new byte[Math.max(3 * n, Math.min(2 * bytes.length, MAX_BYTES))];
      chars = new char[bytes.length / 3];
    }
    return Utf8.encode(s, bytes, chars);
  }

  /** The array the last {@link #encode} wrote into. */
  byte[] bytes() {
    return bytes;
  }
}
