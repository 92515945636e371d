package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.codec.Utf8;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Strings longer than the pile's one-pass scratch (4,096 chars), which it encodes a piece at a
 * time: every string comes back as it was put, and takes its UTF-8 length, whatever sits at the
 * pieces' edges (a surrogate pair across one, a lone surrogate on either side of one, the last char
 * a lone high surrogate) and whatever the text (ASCII, two- and three-byte chars).
 */
class LongStringTest {
  private static final int PIECE = 4096;

  @Test
  void longStrings_comeBackAsTheyWerePut_whateverIsAtThePiecesEdges() {
    List<String> strings = new ArrayList<>();
    for (int length : new int[] {PIECE - 1, PIECE, PIECE + 1, 2 * PIECE + 3, 100_003}) {
      for (char fill : new char[] {'a', '\u0436', '\u4e2d'}) {
        String base = String.valueOf(fill).repeat(length);
        strings.add(base);
        for (int edge = PIECE; edge < length; edge += PIECE) {
          strings.add(with(base, edge - 1, "\uD83D\uDE00")); // a pair across the edge
          strings.add(with(base, edge - 2, "\uD83D\uDE00")); // a pair just before it
          strings.add(with(base, edge - 1, "\uD800")); // a lone high surrogate before the edge
          strings.add(with(base, edge, "\uDC00")); // a lone low surrogate after it
        }
        strings.add(base.substring(1) + "\uD800"); // the last char a lone high surrogate
      }
    }
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      for (String s : strings) {
        long p = pile.put(s);
        assertThat(pile.getString(p)).isEqualTo(s);
        assertThat(pile.sizeOf(p)).isEqualTo(Utf8.encodedLength(s));
        String shorter = "short " + s.length(); // the thread's scratch after a long string
        assertThat(pile.getString(pile.put(shorter))).isEqualTo(shorter);
      }
    }
  }

  /** {@code base} with {@code piece} written over it from char {@code at}. */
  private static String with(String base, int at, String piece) {
    return base.substring(0, at) + piece + base.substring(at + piece.length());
  }
}
