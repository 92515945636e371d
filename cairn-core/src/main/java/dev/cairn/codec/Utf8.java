package dev.cairn.codec;

import java.nio.charset.StandardCharsets;

/**
 * Strings to bytes and back with nothing lost: UTF-8, but for an unpaired surrogate, which is
 * written as the three bytes UTF-8 would give its code unit ({@code ED A0 80} to {@code ED BF BF}:
 * generalized UTF-8, or WTF-8) instead of the {@code '?'} of {@code String.getBytes(UTF_8)}. So
 * every Java string, valid Unicode or not, has its own bytes: two strings are equal exactly when
 * their bytes are (a key of a cache table is its bytes), and decoding gives the string back. A
 * string that is valid Unicode, the usual case, gets exactly the bytes of {@code getBytes(UTF_8)}.
 * This is the form of the pile's string values, of a cache's string keys and values, and of the
 * names of roots.
 *
 * <p>Encoding into the caller's arrays allocates nothing ({@link #encode(String, byte[], char[])}
 * and its piece-at-a-time form; {@link #encode(String, byte[])} makes a char array of its own).
 * Decoding bytes that are not of this form (damaged, or another encoding's) never throws: each
 * malformed sequence becomes U+FFFD, as {@code new String(bytes, UTF_8)} makes it.
 *
 * <p>Thread-safety: stateless; every method may be called from any thread.
 *
 * {@snippet class=dev.cairn.codec.Utf8Test region=example}
 */
public final class Utf8 {
  private Utf8() {}

  /** The number of bytes {@link #encode(String, byte[])} writes for {@code s}. */
  public static int encodedLength(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          bytes += 1;
        } else if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          bytes += 2; // 4 bytes for 2 chars
          i++;
        } else {
          bytes += 2; // 3 bytes, an unpaired surrogate too
        }
      }
    }
    return bytes;
  }

  /** The most bytes {@code chars} chars take: 3 each (a surrogate pair takes 4). */
  public static long maxEncodedLength(int chars) {
    return 3L * chars;
  }

  /** The bytes of {@code s}, in a new array of exactly their length. */
  public static byte[] encode(String s) {
    // the JDK's encoder is the fast one, and right unless a '?' it wrote stands for a surrogate
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      if (b == '?') {
        return hasUnpairedSurrogate(s) ? exactly(s) : bytes;
      }
    }
    return bytes;
  }

  private static byte[] exactly(String s) {
    byte[] bytes = new byte[encodedLength(s)];
    encode(s, bytes);
    return bytes;
  }

  /** Whether {@code s} holds a surrogate that is not half of a pair: it is not valid Unicode. */
  public static boolean hasUnpairedSurrogate(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Encodes {@code s} into {@code dst} from 0, which must hold {@link #encodedLength} bytes (or
   * {@link #maxEncodedLength}); returns the number of bytes written. Copies the chars out a piece
   * of up to 1,024 at a time into an array of its own; a caller that encodes often keeps one and
   * calls {@link #encode(String, byte[], char[])}.
   *
   * @throws ArrayIndexOutOfBoundsException if {@code dst} is too short
   */
  public static int encode(String s, byte[] dst) {
    int n = s.length();
    char[] chars = new char[Math.max(2, Math.min(n, PIECE_CHARS))];
    int at = 0;
    for (int from = 0; from < n; ) {
      int to = pieceEnd(s, from, chars.length);
      at = encode(s, from, to, chars, dst, at);
      from = to;
    }
    return at;
  }

  /** The chars {@link #encode(String, byte[])} copies out of the string at a time. */
  private static final int PIECE_CHARS = 1024;

  /**
   * Where a piece of {@code s} from char {@code from}, of at most {@code maxChars} chars (at least
   * 2), ends for {@link #encode(String, int, int, char[], byte[], int)}: before a high surrogate
   * that is not the string's last char, so that no surrogate pair is split.
   */
  public static int pieceEnd(String s, int from, int maxChars) {
    int to = (int) Math.min(s.length(), (long) from + maxChars);
    return to < s.length() && Character.isHighSurrogate(s.charAt(to - 1)) ? to - 1 : to;
  }

  /**
   * {@link #encode(String, byte[])}, taking the string's chars into {@code chars} first (at least
   * {@code s.length()} long, kept by the caller): one bulk copy and a loop over an array, about as
   * fast as {@link #encode(String)} on ASCII with no array made; a loop of {@code charAt} took
   * several times as long past a few dozen ASCII chars ({@code docs/probes/Utf8ScratchCost.java}).
   *
   * @throws ArrayIndexOutOfBoundsException if {@code dst} or {@code chars} is too short
   */
  public static int encode(String s, byte[] dst, char[] chars) {
    return encode(s, 0, s.length(), chars, dst, 0);
  }

  /**
   * Encodes the chars {@code [from, to)} of {@code s} into {@code dst} from byte {@code at},
   * through {@code chars} (at least {@code to - from} long) as {@link #encode(String, byte[],
   * char[])} does; returns where the bytes end. For a string encoded a piece at a time: a piece
   * that ends between the two chars of a surrogate pair writes its high surrogate as an unpaired
   * one, so a caller ends each piece where {@link #pieceEnd} says.
   *
   * @throws ArrayIndexOutOfBoundsException if {@code dst} or {@code chars} is too short
   * @throws StringIndexOutOfBoundsException if {@code [from, to)} is not a range of {@code s}
   */
  public static int encode(String s, int from, int to, char[] chars, byte[] dst, int at) {
    int n = to - from;
    s.getChars(from, to, chars, 0);
    for (int i = 0; i < n; i++) {
      char c = chars[i];
      if (c >= 0x80) {
        return encodeFrom(chars, n, i, dst, at + i); // not ASCII: the general loop, from here
      }
      dst[at + i] = (byte) c;
    }
    return at + n;
  }

  /**
   * Encodes {@code chars[i, n)} into {@code dst} from {@code j}; returns where the bytes end. The
   * general loop of {@link #encode(String, byte[])}, over an array.
   */
  private static int encodeFrom(char[] chars, int n, int i, byte[] dst, int j) {
    for (; i < n; i++) {
      char c = chars[i];
      if (c < 0x80) {
        dst[j++] = (byte) c;
      } else if (c < 0x800) {
        dst[j++] = (byte) (0xC0 | (c >> 6));
        dst[j++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(chars[i + 1])) {
        int cp = Character.toCodePoint(c, chars[++i]);
        dst[j++] = (byte) (0xF0 | (cp >> 18));
        dst[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        dst[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        dst[j++] = (byte) (0x80 | (cp & 0x3F));
      } else { // a char of three bytes, or an unpaired surrogate, written the same way
        dst[j++] = (byte) (0xE0 | (c >> 12));
        dst[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return j;
  }

  /**
   * The string whose bytes are {@code bytes[offset, offset + length)}: the inverse of {@link
   * #encode(String)}. Bytes of valid UTF-8 decode as {@code new String(bytes, offset, length,
   * UTF_8)} decodes them.
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code bytes}
   */
  public static String decode(byte[] bytes, int offset, int length) {
    String s = new String(bytes, offset, length, StandardCharsets.UTF_8);
    // an unpaired surrogate's bytes are malformed UTF-8, which the JDK decodes as U+FFFD: only
    // then (or for a U+FFFD of the string's own, or damage) is a second look needed
    return s.indexOf('\uFFFD') < 0 ? s : decodeSurrogates(bytes, offset, length);
  }

  private static String decodeSurrogates(byte[] bytes, int offset, int length) {
    StringBuilder out = new StringBuilder(length);
    int end = offset + length;
    int start = offset;
    int i = offset;
    while (i + 2 < end) {
      if (bytes[i] == (byte) 0xED
          && (bytes[i + 1] & 0xE0) == 0xA0
          && (bytes[i + 2] & 0xC0) == 0x80) {
        out.append(new String(bytes, start, i - start, StandardCharsets.UTF_8));
        out.append((char) (0xD000 | ((bytes[i + 1] & 0x3F) << 6) | (bytes[i + 2] & 0x3F)));
        i += 3;
        start = i;
      } else {
        i++;
      }
    }
    return out.append(new String(bytes, start, end - start, StandardCharsets.UTF_8)).toString();
  }
}
