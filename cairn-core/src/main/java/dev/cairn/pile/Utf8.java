package dev.cairn.pile;

/** UTF-8 encoding into a caller's array, with no allocation (unlike {@code String.getBytes}). */
final class Utf8 {
  private Utf8() {}

  /** The UTF-8 length of {@code s}; unpaired surrogates count as '?' (one byte), as in the JDK. */
  static int encodedLength(String s) {
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
        } else if (Character.isSurrogate(c)) {
          // replaced by '?'
        } else {
          bytes += 2;
        }
      }
    }
    return bytes;
  }

  /** The most bytes UTF-8 takes for {@code chars} chars: 3 each (a surrogate pair takes 4). */
  static long maxEncodedLength(int chars) {
    return 3L * chars;
  }

  /**
   * Encodes {@code s} into {@code dst} from 0, which must hold {@link #encodedLength} bytes (or
   * {@link #maxEncodedLength}); returns the number of bytes written.
   */
  static int encode(String s, byte[] dst) {
    int n = s.length();
    int j = 0;
    int i = 0;
    for (; i < n; i++) { // ASCII run: the common case, kept tight
      char c = s.charAt(i);
      if (c >= 0x80) {
        break;
      }
      dst[j++] = (byte) c;
    }
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[j++] = (byte) c;
      } else if (c < 0x800) {
        dst[j++] = (byte) (0xC0 | (c >> 6));
        dst[j++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        dst[j++] = (byte) (0xF0 | (cp >> 18));
        dst[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        dst[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        dst[j++] = (byte) (0x80 | (cp & 0x3F));
      } else if (Character.isSurrogate(c)) {
        dst[j++] = '?';
      } else {
        dst[j++] = (byte) (0xE0 | (c >> 12));
        dst[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return j;
  }
}
