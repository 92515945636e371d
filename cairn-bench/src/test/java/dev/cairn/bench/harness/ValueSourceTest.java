package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ValueSourceTest {

  @Test
  void stringValues_areDistinctAsciiOfTheSizeAcrossThePool() {
    ValueSource values = new ValueSource(BenchValueKind.STRING, 32, 1);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < ValueSource.MAX_POOL_VALUES; i++) {
      String value = (String) values.value(i);
      assertThat(value).hasSize(32).matches("[0-9A-Za-z]+");
      seen.add(value);
    }
    assertThat(seen).hasSize(ValueSource.MAX_POOL_VALUES);
  }

  @Test
  void byteValues_areDistinctAcrossThePool() {
    ValueSource values = new ValueSource(BenchValueKind.BYTES, 8, 1);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < ValueSource.MAX_POOL_VALUES; i++) {
      seen.add(new String((byte[]) values.value(i), StandardCharsets.ISO_8859_1));
    }
    assertThat(seen).hasSize(ValueSource.MAX_POOL_VALUES);
  }

  @Test
  void values_areTheSameForTheSameSeedAndCycleThroughThePool() {
    ValueSource one = new ValueSource(BenchValueKind.STRING, 32, 7);
    ValueSource two = new ValueSource(BenchValueKind.STRING, 32, 7);
    assertThat(one.value(12345)).isEqualTo(two.value(12345));
    assertThat(one.value(12345)).isSameAs(one.value(12345 + ValueSource.MAX_POOL_VALUES));
  }

  @Test
  void largeValues_getASmallerPool() {
    ValueSource values = new ValueSource(BenchValueKind.BYTES, 16 << 20, 1);
    assertThat(values.value(0)).isNotSameAs(values.value(1));
    assertThat(values.value(0)).isSameAs(values.value(4));
  }

  @Test
  void personValues_areDistinctByIdAcrossThePool_andShareNothingWithTheirDeepCopies() {
    ValueSource values = new ValueSource(BenchValueKind.PERSON, 32, 1);
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < ValueSource.MAX_POOL_VALUES; i++) {
      Person person = (Person) values.value(i);
      assertThat(person.email()).endsWith("@example.com");
      ids.add(person.id());
    }
    assertThat(ids).hasSize(ValueSource.MAX_POOL_VALUES);

    Person original = (Person) values.value(7);
    Person copy = original.deepCopy();
    assertThat(copy).isEqualTo(original);
    assertThat(copy.name()).isNotSameAs(original.name());
    assertThat(copy.email()).isNotSameAs(original.email());
    assertThat(copy.birthDate()).isNotSameAs(original.birthDate());
  }

  @Test
  void expectedChecksum_isWhatReadingEveryValueBackAddsUp() {
    for (BenchValueKind kind : BenchValueKind.values()) {
      ValueSource values = new ValueSource(kind, 5, 3);
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum +=
            switch (values.value(i)) {
              case Person person -> ValueSource.checksumOf(person);
              case String s -> ValueSource.checksumOf(s.getBytes(StandardCharsets.UTF_8), 5);
              case byte[] bytes -> ValueSource.checksumOf(bytes, bytes.length);
              default -> throw new AssertionError(values.value(i));
            };
      }
      assertThat(values.expectedChecksum(200_000)).as(kind.label()).isEqualTo(sum);
    }
  }
}
