package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.PileClosedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link CacheTable#getAll} and {@link CacheTable#putAll}, which read and write their keys a window
 * at a time ({@link OffHeapTable#PREFETCH_KEYS}): the same outcome as one get or put after another,
 * whatever the windows.
 */
class BatchTest {
  private final ManualClock clock = new ManualClock();

  private static String valueOf(long key) {
    return "value-" + key;
  }

  @Test
  void getAll_returnsThePresentKeys_inTheOrderAsked_acrossWindows() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, String> t = cache.table("t", Long.class, String.class);
      for (long key = 0; key < 1_000; key += 2) {
        t.put(key, valueOf(key)); // even keys only
      }
      List<Long> asked = new ArrayList<>();
      for (long key = 299; key >= 0; key -= 3) { // 100 keys, some odd (absent), descending
        asked.add(key);
      }
      Map<Long, String> got = t.getAll(asked);
      List<Long> expected = asked.stream().filter(k -> k % 2 == 0).toList();
      assertThat(got.keySet()).containsExactlyElementsOf(expected);
      got.forEach((k, v) -> assertThat(v).isEqualTo(valueOf(k)));
      assertThat(t.stats().hits()).isEqualTo(expected.size());
      assertThat(t.stats().misses()).isEqualTo(asked.size() - expected.size());
    }
  }

  @Test
  void getAll_ofEveryWindowSize_answersAsGetsDo() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().clock(clock).build())) {
      CacheTable<String, byte[]> t = cache.table("t", String.class, byte[].class);
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 500; i++) {
        t.put(
            "k" + i,
            new byte[] {(byte) i},
            EntryOptions.expireAfter(Duration.ofSeconds(1 + i % 3)));
      }
      clock.advance(Duration.ofMillis(1_500)); // a third of them expired
      for (int size = 0; size <= 2 * OffHeapTable.PREFETCH_KEYS + 1; size++) {
        List<String> asked = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          asked.add("k" + random.nextInt(600)); // a sixth never put
        }
        Map<String, byte[]> got = t.getAll(asked);
        for (String key : asked) {
          byte[] one = t.get(key);
          if (one == null) {
            assertThat(got).as("size %d, key %s", size, key).doesNotContainKey(key);
          } else {
            assertThat(got.get(key)).as("size %d, key %s", size, key).isEqualTo(one);
          }
        }
      }
    }
  }

  @Test
  void putAll_putsEveryEntry_acrossWindows_insertingAndReplacing() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, String> t = cache.table("t", Long.class, String.class);
      for (long key = 0; key < 50; key++) {
        t.put(key, "old");
      }
      Map<Long, String> entries = new LinkedHashMap<>();
      for (long key = 0; key < 3 * OffHeapTable.PREFETCH_KEYS + 5; key++) {
        entries.put(key * 2, valueOf(key * 2)); // half of the first 50 replaced, the rest new
      }
      t.putAll(entries);
      entries.forEach((k, v) -> assertThat(t.get(k)).isEqualTo(v));
      assertThat(t.get(1L)).isEqualTo("old");
      assertThat(t.size()).isEqualTo(25 + entries.size());
      t.putAll(Map.of()); // nothing
      assertThat(t.size()).isEqualTo(25 + entries.size());
    }
  }

  @Test
  void putAll_withANullKeyOrValue_putsNothing() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, String> t = cache.table("t", Long.class, String.class);
      Map<Long, String> withNullValue = new LinkedHashMap<>();
      for (long key = 0; key < 40; key++) {
        withNullValue.put(key, key == 35 ? null : valueOf(key));
      }
      assertThatThrownBy(() -> t.putAll(withNullValue))
          .isInstanceOf(NullPointerException.class)
          .hasMessageContaining("null value");
      Map<Long, String> withNullKey = new HashMap<>();
      withNullKey.put(1L, "a");
      withNullKey.put(null, "b");
      assertThatThrownBy(() -> t.putAll(withNullKey))
          .isInstanceOf(NullPointerException.class)
          .hasMessageContaining("null key");
      assertThat(t.size()).isZero();
    }
  }

  @Test
  void getAll_refusesANullKey_andAClosedCache() {
    Cache cache = Cache.offHeap(CacheOptions.defaults());
    CacheTable<Long, String> t = cache.table("t", Long.class, String.class);
    assertThatThrownBy(() -> t.getAll(Arrays.asList(1L, null)))
        .isInstanceOf(NullPointerException.class);
    cache.close();
    assertThatThrownBy(() -> t.getAll(List.of(1L))).isInstanceOf(PileClosedException.class);
  }

  @Test
  void getAll_whileOthersRemoveReplaceAndGrow_seesOnlyEachKeysOwnValues() throws Exception {
    // more threads than cores; writers remove and re-put keys, and the index grows under them,
    // so windows read slots and entries that change or go between the prefetch and the gets
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class);
      for (long key = 0; key < 2_000; key++) {
        t.put(key, valueOf(key));
      }
      AtomicBoolean stop = new AtomicBoolean();
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        long seed = w;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      SplittableRandom random = new SplittableRandom(seed);
                      long next = 2_000 + seed * 1_000_000L;
                      try {
                        while (!stop.get()) {
                          long key = random.nextLong(2_000);
                          t.remove(key);
                          t.put(key, valueOf(key));
                          t.put(next, valueOf(next)); // new keys: the shards grow
                          next++;
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      for (int r = 0; r < 3; r++) {
        long seed = 100L + r;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      SplittableRandom random = new SplittableRandom(seed);
                      try {
                        for (int call = 0; call < 3_000; call++) {
                          List<Long> asked = new ArrayList<>();
                          for (int i = 0; i < 40; i++) {
                            asked.add(random.nextLong(2_000));
                          }
                          t.boxed()
                              .getAll(asked)
                              .forEach((k, v) -> assertThat(v).isEqualTo(valueOf(k)));
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      for (int i = 2; i < threads.size(); i++) {
        threads.get(i).join();
      }
      stop.set(true);
      threads.get(0).join();
      threads.get(1).join();
      assertThat(failures).isEmpty();
    }
  }
}
