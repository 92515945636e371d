package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.Durability;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CairnSettingsTest {

  @Test
  void noProperties_volatileCache_noBudget() {
    CairnSettings settings = CairnSettings.from(new Properties());
    assertThat(settings.directory()).isNull();
    assertThat(settings.budgetBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(settings.durability()).isNull();
    assertThat(settings.verify()).isFalse();
    assertThat(settings.cacheOptions().budgetBytes()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void everyProperty_isRead() {
    Properties props = new Properties();
    props.setProperty("cairn.dir", "/tmp/c");
    props.setProperty("cairn.budget", "512m");
    props.setProperty("cairn.durability", "periodic");
    props.setProperty("cairn.logfilebytes", "4M");
    props.setProperty("cairn.verify", "TRUE");
    CairnSettings settings = CairnSettings.from(props);
    assertThat(settings.directory()).isEqualTo(Path.of("/tmp/c"));
    assertThat(settings.budgetBytes()).isEqualTo(512L << 20);
    assertThat(settings.durability()).isEqualTo(Durability.PERIODIC);
    assertThat(settings.verify()).isTrue();
    assertThat(settings.cacheOptions().pile().durability()).isEqualTo(Durability.PERIODIC);
    assertThat(settings.cacheOptions().pile().logFileBytes()).isEqualTo(4L << 20);
  }

  @Test
  void bytes_digitsWithSeparatorsAndBinarySuffixes() {
    assertThat(CairnSettings.bytes("p", "1000")).isEqualTo(1000);
    assertThat(CairnSettings.bytes("p", "1_000_000")).isEqualTo(1_000_000);
    assertThat(CairnSettings.bytes("p", "64k")).isEqualTo(64L << 10);
    assertThat(CairnSettings.bytes("p", "8G")).isEqualTo(8L << 30);
    assertThat(CairnSettings.bytes("p", "2t")).isEqualTo(2L << 40);
    for (String bad : new String[] {"", "k", "-1", "0", "1.5g", "8gb", "9999999999t"}) {
      assertThatThrownBy(() -> CairnSettings.bytes("cairn.budget", bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("cairn.budget=" + bad + " is not a positive number of bytes");
    }
  }
}
