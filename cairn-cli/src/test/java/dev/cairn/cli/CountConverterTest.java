package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CountConverterTest {
  private final CountConverter converter = new CountConverter();

  @Test
  void convert_acceptsDigitsSeparatorsAndSuffixes() {
    assertThat(converter.convert("5000000")).isEqualTo(5_000_000);
    assertThat(converter.convert("5_000_000")).isEqualTo(5_000_000);
    assertThat(converter.convert("5,000,000")).isEqualTo(5_000_000);
    assertThat(converter.convert("200k")).isEqualTo(200_000);
    assertThat(converter.convert("100M")).isEqualTo(100_000_000);
    assertThat(converter.convert("2g")).isEqualTo(2_000_000_000);
  }

  @Test
  void convert_rejectsWordsAndCountsPastIntRange() {
    for (String bad : new String[] {"", "M", "ten", "1.5M", "3G", "99999999999"}) {
      assertThatThrownBy(() -> converter.convert(bad))
          .as(bad)
          .isInstanceOf(CommandLine.TypeConversionException.class)
          .hasMessageContaining("is not a count");
    }
  }
}
