package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reopened cache views each index shard's region at the shard's first use, not in the open
 * (HashIndex V1): the open reads none of the index's pages, a first hit reads one shard's, and
 * damage on disk to a shard's pages is still reported, by the first operation that uses the shard.
 */
class LazyIndexViewTest {
  private static final int KEYS = 5_000;

  @TempDir Path dir;

  @Test
  void aReopenedCache_viewsOnlyTheShardsItUses() throws IOException {
    fill();
    try (Cache cache = open()) {
      OffHeapTable<Long, String> table = table(cache);
      HashIndex index = table.index;
      assertThat(viewedShards(index)).as("shards viewed by the open").isZero();

      long key = 42;
      int shard = shardOf(table, key);
      assertThat(table.get(key)).isEqualTo(value(key));
      assertThat(viewedShards(index)).as("shards viewed after one hit").isEqualTo(1);
      assertThat(index.isViewed(shard)).isTrue();

      // a write whose shard no read has viewed yet: its lookup views it before the pile write
      long other = firstKeyOutside(table, shard);
      assertThat(index.isViewed(shardOf(table, other))).isFalse();
      assertThat(table.put(other, "rewritten")).isEqualTo(PutResult.REPLACED);
      long fresh = KEYS + 1;
      while (index.isViewed(shardOf(table, fresh))) {
        fresh++;
      }
      assertThat(table.put(fresh, value(fresh))).isEqualTo(PutResult.INSERTED);
      assertThat(table.remove(firstUnviewedKey(table))).isTrue();
      assertThat(table.size()).isEqualTo(KEYS);
      assertThat(cache.verify()).isEqualTo(KEYS);
    }
    try (Cache cache = open()) {
      OffHeapTable<Long, String> table = table(cache);
      assertThat(table.get(firstKeyOutside(table, -1))).isNotNull();
      assertThat(cache.verify()).isEqualTo(KEYS);
    }
  }

  /**
   * A bounded cache's policy bits are reset at each shard's first view (HashIndex V2), not by a
   * walk at open: the open views no shard, a hit views one, and the policy's totals, which start at
   * zero, agree with the slots (verify) as the hand counts entries and evicts over the budget.
   */
  @Test
  void aReopenedBoundedCache_viewsNoShardAtOpen_andCountsEntriesAsItMeetsThem() throws IOException {
    long budget = 4L << 20;
    fill(budget);
    try (Cache cache = open(budget)) {
      OffHeapTable<Long, String> table = table(cache);
      HashIndex index = table.index;
      assertThat(viewedShards(index)).as("shards viewed by the open").isZero();

      assertThat(table.get(42L)).isEqualTo(value(42));
      assertThat(viewedShards(index)).as("shards viewed after one hit").isEqualTo(1);
      assertThat(cache.verify()).isEqualTo(KEYS); // views every shard: totals agree with slots

      // entries of 1 KiB until the budget is spent twice over: the hand counts and evicts
      String big = "x".repeat(1024);
      for (long k = KEYS; k < KEYS + 8_000; k++) {
        table.put(k, big);
      }
      assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo(budget);
      assertThat(table.stats().evictions()).isPositive();
      cache.verify();
    }
    try (Cache cache = open(budget)) { // and again: what this process counted is reset too
      assertThat(viewedShards(table(cache).index)).isZero();
      cache.verify();
    }
  }

  @Test
  void damageToAShardsRegion_isReportedByItsFirstUse() throws IOException {
    fill();
    long key = 7;
    long region;
    try (Cache cache = open()) {
      OffHeapTable<Long, String> table = table(cache);
      region = table.index.regionOf(shardOf(table, key));
    }
    damagePayloadOf(region);

    try (Cache cache = open()) { // the open reads no index page, so it does not meet the damage
      OffHeapTable<Long, String> table = table(cache);
      assertThatThrownBy(() -> table.get(key))
          .isInstanceOf(CorruptValueException.class)
          .hasMessageContaining("seg-");
      assertThatThrownBy(() -> table.put(key, "over a damaged shard"))
          .isInstanceOf(CorruptValueException.class);
      assertThatThrownBy(cache::verify).isInstanceOf(CorruptValueException.class);
    }
  }

  // ---------------------------------------------------------------------------------- helpers

  private void fill() throws IOException {
    fill(0);
  }

  private void fill(long budget) throws IOException {
    try (Cache cache = open(budget)) {
      OffHeapTable<Long, String> table = table(cache);
      for (long k = 0; k < KEYS; k++) {
        table.put(k, value(k));
      }
    }
  }

  private Cache open() throws IOException {
    return open(0);
  }

  /** The cache in {@code dir}, bounded to {@code budget} bytes (0: unbounded). */
  private Cache open(long budget) throws IOException {
    CacheOptions.Builder options =
        CacheOptions.builder().pile(PileOptions.builder().durability(Durability.PERIODIC).build());
    if (budget > 0) {
      options.budgetBytes(budget);
    }
    return Cache.open(dir, options.build());
  }

  @SuppressWarnings("unchecked")
  private static OffHeapTable<Long, String> table(Cache cache) {
    return (OffHeapTable<Long, String>) cache.table("t", Long.class, String.class);
  }

  private static String value(long key) {
    return "value of " + key;
  }

  private static int shardOf(OffHeapTable<Long, String> table, long key) {
    return HashIndex.shardOf(table.encodeLong(key, Scratch.get()));
  }

  private static int viewedShards(HashIndex index) {
    int n = 0;
    for (int shard = 0; shard < HashIndex.SHARDS; shard++) {
      if (index.regionOf(shard) != 0 && index.isViewed(shard)) {
        n++;
      }
    }
    return n;
  }

  /** The first stored key whose shard is not {@code shard} and not viewed yet. */
  private static long firstKeyOutside(OffHeapTable<Long, String> table, int shard) {
    for (long k = 0; k < KEYS; k++) {
      int s = shardOf(table, k);
      if (s != shard && !table.index.isViewed(s)) {
        return k;
      }
    }
    throw new AssertionError("every shard is viewed");
  }

  private static long firstUnviewedKey(OffHeapTable<Long, String> table) {
    return firstKeyOutside(table, -1);
  }

  /**
   * Flips a byte in the middle of a region's payload, in its segment file. A pointer is tag (23
   * bits), segment (14) and offset in 8-byte granules (27), docs/FORMAT.md; the payload follows the
   * block's 8-byte header.
   */
  private void damagePayloadOf(long region) throws IOException {
    int segment = (int) ((region >>> 27) & ((1 << 14) - 1));
    long block = (region & ((1L << 27) - 1)) << 3;
    long at = block + 8 + HashIndex.regionBytes(HashIndex.MIN_CAPACITY) / 2;
    Path file = dir.resolve(String.format("seg-%05d.dat", segment));
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, at);
      b.put(0, (byte) ~b.get(0)).rewind();
      channel.write(b, at);
    }
  }
}
