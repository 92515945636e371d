package dev.cairn.codec.object;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdkValueTypeTest {
  @Test
  void byTag_findsEveryKindByItsTag_andNothingElse() {
    for (JdkValueType kind : JdkValueType.values()) {
      assertThat(JdkValueType.byTag(kind.tag())).isSameAs(kind);
    }
    assertThat(JdkValueType.byTag(0)).isNull();
    assertThat(JdkValueType.byTag(-1)).isNull();
    assertThat(JdkValueType.byTag(Refs.TAG_STRING)).isNull();
    assertThat(JdkValueType.byTag(10_000)).isNull();
  }

  @Test
  void valueCodecs_areBuiltOnFirstUse_thenShared() {
    for (JdkValueType kind : JdkValueType.values()) {
      ValueCodec first = ValueCodecs.value(kind);
      assertThat(first).isNotNull();
      assertThat(ValueCodecs.value(kind)).isSameAs(first);
    }
  }
}
