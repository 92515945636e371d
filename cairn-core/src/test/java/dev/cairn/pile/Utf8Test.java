package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Cairn's UTF-8 encoder must write exactly what {@code String.getBytes(UTF_8)} does. */
class Utf8Test {

  @Property(tries = 500)
  void encode_matchesTheJdk_inBothPasses(@ForAll("strings") String s) {
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);

    assertThat(Utf8.encodedLength(s)).isEqualTo(expected.length);
    byte[] oneBuffer = new byte[(int) Utf8.maxEncodedLength(s.length())];
    int written = Utf8.encode(s, oneBuffer); // room for the longest encoding: the one-pass use
    assertThat(written).isEqualTo(expected.length);
    assertThat(Arrays.copyOf(oneBuffer, written)).isEqualTo(expected);
    byte[] exact = new byte[expected.length]; // exactly measured: the two-pass use
    assertThat(Utf8.encode(s, exact)).isEqualTo(expected.length);
    assertThat(exact).isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> strings() {
    // ASCII, two- and three-byte chars, surrogate pairs, and lone surrogates (written as '?')
    Arbitrary<Character> chars =
        Arbitraries.oneOf(
            Arbitraries.chars().range('\u0000', '\u007f'),
            Arbitraries.chars().range('\u0080', '\u07ff'),
            Arbitraries.chars().range('\u0800', '\uffff'),
            Arbitraries.chars().range('\ud800', '\udfff'));
    return chars
        .list()
        .ofMaxSize(200)
        .map(
            list -> {
              StringBuilder b = new StringBuilder(list.size());
              list.forEach(b::append);
              return b.toString();
            });
  }
}
