package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A table emptied gives its index back (HashIndex G2): by {@code clear}, every shard to its
 * smallest region; by removals, each shard to within a few halvings of what it holds; and the
 * cache's used bytes follow, once the retired regions are freed.
 */
@ExtendWith(NoRetiredGrace.class)
class IndexShrinkTest {
  private static final int ENTRIES = 200_000;
  private static final long SMALLEST_INDEX =
      (long) HashIndex.SHARDS * HashIndex.MIN_CAPACITY * SlotLayout.SLOT_BYTES;

  @Test
  void clear_givesEveryShardsRegionBack() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(256L << 20).build())) {
      LongCacheTable<byte[]> table = cache.longTable("t", byte[].class);
      for (long k = 0; k < ENTRIES; k++) {
        table.put(k, new byte[32]);
      }
      long full = table.stats().indexBytes();
      long usedFull = cache.stats().usedBytes();
      assertThat(full).isGreaterThan(16 * SMALLEST_INDEX);
      table.clear();
      table.put(1, new byte[32]); // an insert frees the regions retired (no grace in this test)
      assertThat(table.stats().indexBytes()).isEqualTo(SMALLEST_INDEX);
      assertThat(cache.stats().usedBytes()).isLessThan(usedFull / 16);
      for (long k = 0; k < ENTRIES; k++) {
        table.put(k, new byte[32]);
      }
      assertThat(table.size()).isEqualTo(ENTRIES);
      assertThat(cache.verify()).isEqualTo(ENTRIES);
    }
  }

  @Test
  void removals_halveTheShardsTheyEmpty() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, byte[]> table = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < ENTRIES; k++) {
        table.put(k, new byte[32]);
      }
      long full = table.stats().indexBytes();
      int kept = ENTRIES / 20;
      for (long k = kept; k < ENTRIES; k++) {
        table.remove(k);
      }
      // 39 entries a shard on average: at most 512 slots each, where 200,000 needed 2,048
      assertThat(table.stats().indexBytes()).isLessThanOrEqualTo(full / 4);
      for (long k = 0; k < kept; k++) {
        assertThat(table.get(k)).as("key %d", k).isNotNull();
      }
      assertThat(cache.verify()).isEqualTo(kept);
    }
  }
}
