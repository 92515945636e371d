package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Cache#longKeys}: a long key is its 8 big-endian bytes, in a table of byte[] keys. */
class LongKeysViewTest {

  private static byte[] bytes(long key) {
    return ByteBuffer.allocate(Long.BYTES).putLong(key).array();
  }

  @Test
  void aLongKey_isItsEightBigEndianBytes() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<byte[], String> table =
          cache.table(
              "t", byte[].class, String.class, TableOptions.builder().writeTimes(true).build());
      LongCacheTable<String> longs = cache.longKeys(table);
      assertThat(longs.put(5L, "five")).isEqualTo(PutResult.INSERTED);
      assertThat(table.get(bytes(5L))).isEqualTo("five");
      table.put(bytes(-7L), "minus seven");
      assertThat(longs.get(-7L)).isEqualTo("minus seven");
      assertThat(longs.put(-7L, "again")).isEqualTo(PutResult.REPLACED);
      table.put(new byte[] {0, 0, 0, 5}, "not a long"); // 4 bytes: another key
      assertThat(longs.get(5L)).isEqualTo("five");
      assertThat(longs.putIfAbsent(5L, "x")).isEqualTo("five");
      assertThat(longs.replace(6L, "x")).isFalse();
      assertThat(longs.replace(5L, "FIVE")).isTrue();
      assertThat(longs.get(5L, Duration.ofDays(1))).isEqualTo("FIVE");
      assertThat(longs.computeIfAbsent(9L, k -> "nine " + k)).isEqualTo("nine 9");
      assertThat(table.get(bytes(9L))).isEqualTo("nine 9");
      assertThat(longs.containsKey(9L)).isTrue();
      assertThat(longs.touch(9L)).isTrue();
      assertThat(longs.remove(9L)).isTrue();
      assertThat(longs.size()).isEqualTo(3);
      assertThat(longs.stats().puts()).isEqualTo(table.stats().puts());
      assertThatThrownBy(longs::boxed).isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> longs.get(1L, Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> longs.put(1L, null)).isInstanceOf(NullPointerException.class);
      assertThat(cache.verify()).isEqualTo(3);
    }
  }

  @Test
  void onlyATableOfByteArrayKeysOfThisCache_hasAView() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults());
        Cache other = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> strings = cache.table("s", String.class, String.class);
      CacheTable<byte[], String> elsewhere = other.table("b", byte[].class, String.class);
      @SuppressWarnings({"unchecked", "rawtypes"})
      CacheTable<byte[], String> notBytes = (CacheTable) strings;
      assertThatThrownBy(() -> cache.longKeys(notBytes))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("byte[] keys");
      assertThatThrownBy(() -> cache.longKeys(elsewhere))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theViewAndTheTable_agreeWithAMap_overRandomOperations() {
    long seed = new Random().nextLong();
    System.out.println("LongKeysViewTest seed=" + seed);
    Random random = new Random(seed);
    Map<Long, String> model = new HashMap<>();
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<byte[], String> table = cache.table("t", byte[].class, String.class);
      LongCacheTable<String> longs = cache.longKeys(table);
      for (int op = 0; op < 20_000; op++) {
        long key = random.nextInt(500) - 250L;
        String value = "v" + random.nextInt(1_000);
        boolean view = random.nextBoolean();
        switch (random.nextInt(4)) {
          case 0, 1 -> {
            if (view) {
              longs.put(key, value);
            } else {
              table.put(bytes(key), value);
            }
            model.put(key, value);
          }
          case 2 -> {
            boolean removed = view ? longs.remove(key) : table.remove(bytes(key));
            assertThat(removed)
                .as("seed=" + seed + " op=" + op)
                .isEqualTo(model.remove(key) != null);
          }
          default ->
              assertThat(view ? longs.get(key) : table.get(bytes(key)))
                  .as("seed=" + seed + " op=" + op)
                  .isEqualTo(model.get(key));
        }
      }
      assertThat(cache.verify()).isEqualTo(model.size());
    }
  }
}
