package dev.cairn.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The constants match the box diagram of {@link PolicyBitsLayout}'s javadoc. */
class PolicyBitsLayoutTest {
  @Test
  void fields_matchTheDiagram_andFillOneByte() {
    assertThat(PolicyBitsLayout.SEGMENT_SHIFT).isZero();
    assertThat(PolicyBitsLayout.SEGMENT_LENGTH).isEqualTo(2);
    assertThat(PolicyBitsLayout.REFERENCED_SHIFT).isEqualTo(2);
    assertThat(PolicyBitsLayout.AGE_SHIFT).isEqualTo(3);
    assertThat(PolicyBitsLayout.AGE_LENGTH).isEqualTo(2);
    assertThat(PolicyBitsLayout.SPARE_SHIFT).isEqualTo(5);
    assertThat(PolicyBitsLayout.SPARE_SHIFT + PolicyBitsLayout.SPARE_LENGTH).isEqualTo(Byte.SIZE);
    assertThat(
            PolicyBitsLayout.SEGMENT_MASK | PolicyBitsLayout.REFERENCED | PolicyBitsLayout.AGE_MASK)
        .isEqualTo((1 << PolicyBitsLayout.SPARE_SHIFT) - 1)
        .isEqualTo(PolicyBitsLayout.POLICY_MASK);
  }

  @Test
  void bits_roundTripEverySegmentAndAge() {
    for (int segment = 0; segment <= PolicyBitsLayout.LEAVING; segment++) {
      for (int age = 0; age <= PolicyBitsLayout.AGE_MAX; age++) {
        int bits = PolicyBitsLayout.bits(segment, age);
        assertThat(PolicyBitsLayout.segment(bits)).isEqualTo(segment);
        assertThat(PolicyBitsLayout.age(bits)).isEqualTo(age);
        assertThat(PolicyBitsLayout.referenced(bits)).isFalse();
        int referenced = bits | PolicyBitsLayout.REFERENCED;
        assertThat(PolicyBitsLayout.segment(referenced)).isEqualTo(segment);
        assertThat(PolicyBitsLayout.age(PolicyBitsLayout.withAge(referenced, 1))).isEqualTo(1);
        assertThat(PolicyBitsLayout.referenced(PolicyBitsLayout.withAge(referenced, 1))).isTrue();
      }
    }
    assertThat(PolicyBitsLayout.bits(PolicyBitsLayout.WINDOW, 0))
        .as("window, not referenced: what onInsert sets")
        .isZero();
  }
}
