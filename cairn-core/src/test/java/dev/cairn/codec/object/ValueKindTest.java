package dev.cairn.codec.object;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ValueKindTest {
  @Test
  void byTag_findsEveryKindByItsTag_andNothingElse() {
    for (ValueKind kind : ValueKind.values()) {
      assertThat(ValueKind.byTag(kind.tag())).isSameAs(kind);
    }
    assertThat(ValueKind.byTag(0)).isNull();
    assertThat(ValueKind.byTag(-1)).isNull();
    assertThat(ValueKind.byTag(Refs.TAG_STRING)).isNull();
    assertThat(ValueKind.byTag(10_000)).isNull();
  }

  @Test
  void valueCodecs_areBuiltOnFirstUse_thenShared() {
    for (ValueKind kind : ValueKind.values()) {
      ValueCodec first = ValueCodecs.value(kind);
      assertThat(first).isNotNull();
      assertThat(ValueCodecs.value(kind)).isSameAs(first);
    }
  }
}
