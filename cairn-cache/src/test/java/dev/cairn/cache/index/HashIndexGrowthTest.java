package dev.cairn.cache.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** When a shard is rebuilt, and to what size ({@code HashIndex.neededCapacity}). */
class HashIndexGrowthTest {
  private static final int CAPACITY = 16_384;

  @Test
  void anUnusedShardStartsAtTheSmallestCapacity() {
    assertThat(HashIndex.neededCapacity(0, 0, 0)).isEqualTo(HashIndex.MIN_CAPACITY);
  }

  @Test
  void nothingIsRebuiltWhileLiveAndDeadSlotsStayWithinThreeQuarters() {
    assertThat(HashIndex.neededCapacity(CAPACITY, CAPACITY * 3 / 4 - 1, 0)).isZero();
    assertThat(HashIndex.neededCapacity(CAPACITY, CAPACITY / 4, CAPACITY / 2 - 1)).isZero();
  }

  @Test
  void aLoadWithoutRemovalsDoublesAtThreeQuarters() {
    assertThat(HashIndex.neededCapacity(CAPACITY, CAPACITY * 3 / 4, 0)).isEqualTo(CAPACITY * 2);
  }

  @Test
  void tombstonesAreDroppedAtTheSameSize_whileLiveSlotsAreAtMostHalf() {
    // a bounded cache's churn: a steady count just above 3/8, tombstones filling the rest
    int count = CAPACITY * 3 / 8 + 100;
    assertThat(HashIndex.neededCapacity(CAPACITY, count, CAPACITY * 3 / 4 - count))
        .isEqualTo(CAPACITY);
    int half = CAPACITY / 2 - 1;
    assertThat(HashIndex.neededCapacity(CAPACITY, half, CAPACITY * 3 / 4 - half))
        .isEqualTo(CAPACITY);
  }

  @Test
  void moreThanHalfLiveDoubles_soADoubledShardIsAtLeastAQuarterFull() {
    int count = CAPACITY / 2;
    assertThat(HashIndex.neededCapacity(CAPACITY, count, CAPACITY / 4)).isEqualTo(CAPACITY * 2);
  }

  @Test
  void aFullShardAtTheLargestCapacityIsRefused() {
    int max = HashIndex.MAX_CAPACITY;
    assertThatThrownBy(() -> HashIndex.neededCapacity(max, max * 3 / 4, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("index shard full");
  }
}
