package dev.cairn.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Cairn's strings as bytes: exactly {@code String.getBytes(UTF_8)} for valid Unicode, an unpaired
 * surrogate as its own three bytes, and every string decoded back as it was.
 */
class Utf8Test {

  @Test
  void anUnpairedSurrogate_hasBytesOfItsOwn_andComesBack() {
    // @start region=example
    String broken = "a\uD800b"; // half of a surrogate pair: not valid Unicode
    byte[] bytes = Utf8.encode(broken); // 61 ED A0 80 62, where getBytes(UTF_8) gives 61 3F 62
    String back = Utf8.decode(bytes, 0, bytes.length); // "a\uD800b" again
    // @end
    assertThat(bytes).containsExactly(0x61, 0xED, 0xA0, 0x80, 0x62);
    assertThat(back).isEqualTo(broken);
    assertThat(Utf8.encode("a?b")).as("not the bytes of another string").isNotEqualTo(bytes);
    assertThat(Utf8.encode("a\uDFFFb")).isNotEqualTo(bytes);
  }

  @Test
  void theReplacementCharOfTheStringsOwn_andDamagedBytes_decodeAsTheJdkDecodesThem() {
    String own = "x\uFFFDy";
    assertThat(Utf8.decode(Utf8.encode(own), 0, Utf8.encode(own).length)).isEqualTo(own);
    byte[] damaged = {(byte) 0xC3, 0x28, (byte) 0xE2, (byte) 0x82, 0x41, (byte) 0xFF};
    assertThat(Utf8.decode(damaged, 0, damaged.length))
        .isEqualTo(new String(damaged, StandardCharsets.UTF_8));
  }

  @Property(tries = 500)
  void encode_matchesTheJdk_forValidUnicode_inBothPasses(@ForAll("valid") String s) {
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);

    assertThat(Utf8.encodedLength(s)).isEqualTo(expected.length);
    byte[] oneBuffer = new byte[(int) Utf8.maxEncodedLength(s.length())];
    int written = Utf8.encode(s, oneBuffer); // room for the longest encoding: the one-pass use
    assertThat(written).isEqualTo(expected.length);
    assertThat(Arrays.copyOf(oneBuffer, written)).isEqualTo(expected);
    byte[] exact = new byte[expected.length]; // exactly measured: the two-pass use
    assertThat(Utf8.encode(s, exact)).isEqualTo(expected.length);
    assertThat(exact).isEqualTo(expected);
    assertThat(Utf8.encode(s)).isEqualTo(expected);
  }

  @Property(tries = 1000)
  void everyString_decodesBackToItself_fromBothPasses(@ForAll("any") String s) {
    byte[] oneBuffer = new byte[(int) Utf8.maxEncodedLength(s.length()) + 3];
    int written = Utf8.encode(s, oneBuffer);
    assertThat(written).isEqualTo(Utf8.encodedLength(s));
    assertThat(Utf8.decode(oneBuffer, 0, written)).isEqualTo(s);
    byte[] shifted = new byte[written + 5]; // at an offset, inside a larger array
    System.arraycopy(oneBuffer, 0, shifted, 2, written);
    assertThat(Utf8.decode(shifted, 2, written)).isEqualTo(s);
  }

  @Property(tries = 500)
  void bothEncoders_agree_andSayWhetherTheStringIsValid(@ForAll("any") String s) {
    byte[] exact = new byte[Utf8.encodedLength(s)];
    Utf8.encode(s, exact);
    assertThat(Utf8.encode(s)).isEqualTo(exact);
    boolean valid = Arrays.equals(exact, s.getBytes(StandardCharsets.UTF_8));
    assertThat(Utf8.hasUnpairedSurrogate(s)).isEqualTo(!valid);
    // a '?' of the string's own sends the fast encoder to check for surrogates
    assertThat(Utf8.encode("/search?q=" + s)).isEqualTo(concat(exact));
  }

  @Property(tries = 500)
  void encodingThroughTheCallersChars_isTheSame(@ForAll("any") String s) {
    byte[] dst = new byte[(int) Utf8.maxEncodedLength(s.length())];
    char[] chars = new char[s.length() + 2];
    int written = Utf8.encode(s, dst, chars);
    assertThat(Arrays.copyOf(dst, written)).isEqualTo(Utf8.encode(s));
    String ascii = "order:" + s.replaceAll("[^\\x00-\\x7F]", "");
    byte[] asciiDst = new byte[ascii.length()];
    assertThat(Utf8.encode(ascii, asciiDst, new char[ascii.length()])).isEqualTo(ascii.length());
    assertThat(asciiDst).isEqualTo(ascii.getBytes(StandardCharsets.US_ASCII));
  }

  /** Pieces ended before a high surrogate, as the javadoc asks, encode as the whole string. */
  @Property(tries = 500)
  void encodingAPieceAtATime_isTheWholeStringsBytes(
      @ForAll("any") String s, @ForAll @IntRange(min = 2, max = 7) int piece) {
    byte[] dst = new byte[(int) Utf8.maxEncodedLength(s.length())];
    char[] chars = new char[piece];
    int at = 0;
    for (int from = 0; from < s.length(); ) {
      int to = Math.min(s.length(), from + piece);
      if (to < s.length() && Character.isHighSurrogate(s.charAt(to - 1))) {
        to--;
      }
      at = Utf8.encode(s, from, to, chars, dst, at);
      from = to;
    }
    assertThat(Arrays.copyOf(dst, at)).isEqualTo(Utf8.encode(s));
  }

  private static byte[] concat(byte[] tail) {
    byte[] head = "/search?q=".getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, out, head.length, tail.length);
    return out;
  }

  @Property(tries = 500)
  void twoStrings_haveTheSameBytes_onlyIfEqual(@ForAll("any") String a, @ForAll("any") String b) {
    assertThat(Arrays.equals(Utf8.encode(a), Utf8.encode(b))).isEqualTo(a.equals(b));
    String aQ = a.replaceAll("[\uD800-\uDFFF]", "?"); // what getBytes would have made of it
    if (!aQ.equals(a)) {
      assertThat(Utf8.encode(aQ)).isNotEqualTo(Utf8.encode(a));
    }
  }

  @Property(tries = 500)
  void anyBytes_decodeWithoutThrowing_andValidOnesAsTheJdkDoes(@ForAll byte[] bytes) {
    String s = Utf8.decode(bytes, 0, bytes.length);
    String jdk = new String(bytes, StandardCharsets.UTF_8);
    if (jdk.indexOf('\uFFFD') < 0) {
      assertThat(s).isEqualTo(jdk);
    }
  }

  @Provide
  Arbitrary<String> valid() {
    return strings(false);
  }

  @Provide
  Arbitrary<String> any() {
    return strings(true);
  }

  private static Arbitrary<String> strings(boolean loneSurrogates) {
    // ASCII, two- and three-byte chars, surrogate pairs (valid), lone surrogates (if asked)
    Arbitrary<String> pieces =
        Arbitraries.oneOf(
            Arbitraries.chars().range('\u0000', '\u007f').map(String::valueOf),
            Arbitraries.chars().range('\u0080', '\u07ff').map(String::valueOf),
            Arbitraries.chars().range('\u0800', '\ud7ff').map(String::valueOf),
            Arbitraries.chars().range('\ue000', '\uffff').map(String::valueOf),
            Arbitraries.integers()
                .between(0x10000, Character.MAX_CODE_POINT)
                .map(Character::toString),
            loneSurrogates
                ? Arbitraries.chars().range('\ud800', '\udfff').map(String::valueOf)
                : Arbitraries.just("a"));
    return pieces.list().ofMaxSize(60).map(list -> String.join("", list));
  }
}
