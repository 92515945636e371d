package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random operation sequences on a table without budget or expiry, checked step by step against a
 * HashMap. Prints its seed; rerun one with -Dcairn.seed=N.
 */
class CacheModelTest {

  private static long seed() {
    String fixed = System.getProperty("cairn.seed");
    long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
    System.out.println("CacheModelTest seed=" + seed);
    return seed;
  }

  @Test
  void randomOperations_matchAHashMap_stringKeys() {
    long seed = seed();
    Random random = new Random(seed);
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      Map<String, String> model = new HashMap<>();
      for (int step = 0; step < 60_000; step++) {
        String key = "k" + random.nextInt(2_000);
        String value = "v" + random.nextInt(1_000) + "x".repeat(random.nextInt(40));
        String at = "seed=" + seed + " step=" + step + " key=" + key;
        switch (random.nextInt(10)) {
          case 0, 1, 2 -> {
            PutResult r = table.put(key, value);
            assertThat(r)
                .as(at)
                .isEqualTo(model.containsKey(key) ? PutResult.REPLACED : PutResult.INSERTED);
            model.put(key, value);
          }
          case 3, 4 -> assertThat(table.get(key)).as(at).isEqualTo(model.get(key));
          case 5 -> assertThat(table.remove(key)).as(at).isEqualTo(model.remove(key) != null);
          case 6 ->
              assertThat(table.putIfAbsent(key, value))
                  .as(at)
                  .isEqualTo(model.putIfAbsent(key, value));
          case 7 -> {
            String expected = random.nextBoolean() ? model.get(key) : "nope";
            boolean did = expected != null && table.replace(key, expected, value);
            boolean should = expected != null && expected.equals(model.get(key));
            assertThat(did).as(at).isEqualTo(should);
            if (should) {
              model.put(key, value);
            }
          }
          case 8 ->
              assertThat(table.replace(key, value))
                  .as(at)
                  .isEqualTo(model.replace(key, value) != null);
          default -> {
            String got = table.computeIfAbsent(key, k -> value);
            assertThat(got).as(at).isEqualTo(model.computeIfAbsent(key, k -> value));
          }
        }
        if (step % 10_000 == 0) {
          assertThat(table.size()).as(at).isEqualTo(model.size());
        }
      }
      assertThat(table.size()).isEqualTo(model.size());
      Map<String, String> iterated = new HashMap<>();
      for (Map.Entry<String, String> e : table) {
        assertThat(iterated.put(e.getKey(), e.getValue())).as("seen twice: " + e.getKey()).isNull();
      }
      assertThat(iterated).isEqualTo(model);
      assertThat(cache.verify()).isEqualTo(model.size());
      table.clear();
      assertThat(table.size()).isZero();
      assertThat(cache.verify()).as("entries left in the pile (verify finds no orphan)").isZero();
    }
  }

  @Test
  void longKeys_growTheIndex_andAllStayReadable() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, byte[]> table = cache.table("longs", Long.class, byte[].class);
      int n = 200_000;
      for (long k = 0; k < n; k++) {
        table.put(k * 7919, new byte[] {(byte) k, (byte) (k >> 8)});
      }
      assertThat(table.size()).isEqualTo(n);
      for (long k = 0; k < n; k++) {
        assertThat(table.get(k * 7919)).as("key " + k).containsExactly((byte) k, (byte) (k >> 8));
      }
      assertThat(table.get(-1L)).isNull();
      List<Long> removed = new ArrayList<>();
      for (long k = 0; k < n; k += 3) {
        assertThat(table.remove(k * 7919)).isTrue();
        removed.add(k * 7919);
      }
      for (Long k : removed) {
        assertThat(table.containsKey(k)).isFalse();
      }
      assertThat(table.size()).isEqualTo(n - removed.size());
      assertThat(table.stats().indexBytes()).isPositive();
      assertThat(cache.verify()).isEqualTo(table.size());
    }
  }
}
