/*
 * What a String key's or value's UTF-8 costs the cache, by length: Utf8.encode(String) (the JDK's
 * getBytes, a new array per call, and a scan for '?'), a loop of charAt into an array the caller
 * keeps (charAtLoop below: how Utf8.encode(String, byte[]) encoded before it copied the chars out
 * first) and the cache's Utf8Scratch (getChars into a char array it
 * keeps, then a loop over it), 5M strings of each length per round, five rounds in one JVM, the
 * last three averaged; ASCII strings ("order:12ab...") and strings of Cyrillic letters after an
 * ASCII prefix ("order:12бв...", two bytes a letter).
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core,cairn-cache
 *   $J/javac -cp cairn-core/target/classes:cairn-cache/target/classes -d /tmp/utf8probe \
 *       docs/probes/Utf8ScratchCost.java
 *   $J/java -cp cairn-core/target/classes:cairn-cache/target/classes:/tmp/utf8probe \
 *       dev.cairn.cache.Utf8ScratchCost
 */
package dev.cairn.cache;

import dev.cairn.codec.Utf8;

public class Utf8ScratchCost {
  public static void main(String[] args) {
    for (char first : new char[] {'a', '\u0430'}) {
      for (int length : new int[] {14, 32, 64, 128, 512}) {
        run(first, length);
      }
    }
  }

  private static void run(char first, int length) {
    {
      String[] strings = new String[64];
      for (int i = 0; i < strings.length; i++) {
        StringBuilder b = new StringBuilder("order:" + i);
        while (b.length() < length) {
          b.append((char) (first + b.length() % 26));
        }
        strings[i] = b.toString();
      }
      byte[] array = new byte[4096];
      Utf8Scratch scratch = new Utf8Scratch();
      long sink = 0;
      double[] sums = new double[3];
      int n = 5_000_000;
      for (int round = 0; round < 5; round++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          byte[] bytes = Utf8.encode(strings[i & 63]);
          sink += bytes[i % bytes.length];
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          int written = charAtLoop(strings[i & 63], array);
          sink += array[i % written];
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          int written = scratch.encode(strings[i & 63]);
          sink += scratch.bytes()[i % written];
        }
        long t3 = System.nanoTime();
        if (round >= 2) {
          sums[0] += (t1 - t0) / (double) n;
          sums[1] += (t2 - t1) / (double) n;
          sums[2] += (t3 - t2) / (double) n;
        }
      }
      System.out.printf(
          "%s %3d chars: new array %.1f ns, charAt loop %.1f ns, Utf8Scratch %.1f ns (%d)%n",
          first == 'a' ? "ASCII   " : "Cyrillic",
          length,
          sums[0] / 3,
          sums[1] / 3,
          sums[2] / 3,
          sink & 1);
    }
  }

  /**
   * UTF-8 of {@code s} into {@code dst} by a loop of {@code charAt}, lone surrogates as 3 bytes.
   */
  static int charAtLoop(String s, byte[] dst) {
    int n = s.length();
    int j = 0;
    int i = 0;
    for (; i < n; i++) { // ASCII run
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
      } else {
        dst[j++] = (byte) (0xE0 | (c >> 12));
        dst[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return j;
  }
}
