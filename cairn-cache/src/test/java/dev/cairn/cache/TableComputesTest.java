package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** compute, computeIfPresent and merge (TableComputes): against a HashMap, and under contention. */
class TableComputesTest {

  @Test
  void randomOperations_matchAHashMap() {
    long seed = new SplittableRandom().nextLong();
    System.out.println("TableComputesTest seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    Map<Integer, String> model = new HashMap<>();
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Integer, String> table = cache.table("t", Integer.class, String.class);
      for (int i = 0; i < 5_000; i++) {
        int key = random.nextInt(24);
        int n = random.nextInt(7);
        String step = "op " + i + " key " + key + " (seed " + seed + ")";
        // each function ends in null (a remove) for some values, so removes are exercised too
        BiFunction<Integer, String, String> remap =
            (k, v) -> v == null ? (n == 0 ? null : "v" + n) : (v.length() > 6 ? null : v + n);
        BiFunction<String, String, String> merge = (a, b) -> a.length() > 5 ? null : a + b;
        switch (random.nextInt(5)) {
          case 0 ->
              assertThat(table.compute(key, remap)).as(step).isEqualTo(model.compute(key, remap));
          case 1 ->
              assertThat(table.computeIfPresent(key, remap))
                  .as(step)
                  .isEqualTo(model.computeIfPresent(key, remap));
          case 2 -> {
            String value = "m" + n;
            assertThat(table.merge(key, value, merge))
                .as(step)
                .isEqualTo(model.merge(key, value, merge));
          }
          case 3 -> {
            table.put(key, "p" + n);
            model.put(key, "p" + n);
          }
          default -> assertThat(table.remove(key)).as(step).isEqualTo(model.remove(key) != null);
        }
      }
      for (int key = 0; key < 24; key++) {
        assertThat(table.get(key))
            .as("key " + key + " (seed " + seed + ")")
            .isEqualTo(model.get(key));
      }
      assertThat(table.size()).isEqualTo(model.size());
    }
  }

  @Test
  void aWriteBetweenTheReadAndTheSet_runsTheFunctionAgainOnTheNewerValue() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      table.put("k", "a");
      List<String> seen = new ArrayList<>();
      String result =
          table.compute(
              "k",
              (k, v) -> {
                seen.add(v);
                if (seen.size() == 1) {
                  table.put("k", "b"); // another write comes between: this round must not set
                }
                return v + "!";
              });
      assertThat(seen).containsExactly("a", "b");
      assertThat(result).isEqualTo("b!");
      assertThat(table.get("k")).isEqualTo("b!");
    }
  }

  @Test
  void manyThreadsMergingCounters_loseNoUpdate() throws InterruptedException {
    int threads = 6; // more than this machine's cores
    int rounds = 3_000;
    int keys = 5;
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Integer, Long> counts = cache.table("counts", Integer.class, Long.class);
      CountDownLatch start = new CountDownLatch(1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        boolean useCompute = t % 2 == 0;
        Thread worker =
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                      int key = i % keys;
                      if (useCompute) {
                        counts.compute(key, (k, v) -> v == null ? 1L : v + 1);
                      } else {
                        counts.merge(key, 1L, Long::sum);
                      }
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        worker.start();
        workers.add(worker);
      }
      start.countDown();
      for (Thread worker : workers) {
        worker.join();
      }
      assertThat(failure.get()).isNull();
      for (int key = 0; key < keys; key++) {
        assertThat(counts.get(key)).as("key " + key).isEqualTo((long) threads * rounds / keys);
      }
    }
  }

  @Test
  void aFunctionReturningWhatItWasGiven_writesNothing() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      table.put("k", "a");
      long puts = table.stats().puts();
      assertThat(table.compute("k", (k, v) -> v)).isEqualTo("a");
      assertThat(table.computeIfPresent("k", (k, v) -> v)).isEqualTo("a");
      assertThat(table.merge("k", "b", (old, given) -> old)).isEqualTo("a");
      assertThat(table.stats().puts()).isEqualTo(puts);
      assertThat(table.compute("k", (k, v) -> v + "!")).isEqualTo("a!");
      assertThat(table.stats().puts()).isEqualTo(puts + 1);
    }
  }

  @Test
  void theFunctionMayCallTheCache() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      table.put("other", "x");
      AtomicInteger calls = new AtomicInteger();
      String value =
          table.compute(
              "k",
              (k, v) -> {
                calls.incrementAndGet();
                table.put("side", table.get("other") + "y"); // no deadlock: no lock is held
                return "made";
              });
      assertThat(value).isEqualTo("made");
      assertThat(calls).hasValue(1);
      assertThat(table.get("side")).isEqualTo("xy");
    }
  }

  @Test
  void computeIfPresentOfAnAbsentKey_runsNothing() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      assertThat(
              table.computeIfPresent(
                  "k",
                  (k, v) -> {
                    throw new AssertionError("ran for an absent key");
                  }))
          .isNull();
      assertThat(table.compute("k", (k, v) -> null)).isNull();
      assertThat(table.containsKey("k")).isFalse();
    }
  }

  /** A value class with no equals of its own. */
  static final class Identity {}

  record Point(int x, int y) {}

  @Test
  void valuesThatCompareByIdentity_areRefused() {
    assertThat(TableComputes.hasValueEquality(Identity.class)).isFalse();
    assertThat(TableComputes.hasValueEquality(Point.class)).isTrue();
    assertThat(TableComputes.hasValueEquality(byte[].class)).isTrue();
    assertThat(TableComputes.hasValueEquality(String.class)).isTrue();
    assertThat(TableComputes.hasValueEquality(Long.class)).isTrue();
    assertThatThrownBy(() -> TableComputes.requireValueEquality(new Identity()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining(Identity.class.getName())
        .hasMessageContaining("equals");
  }

  @Test
  void nullArguments_areRefused() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      assertThatThrownBy(() -> table.compute(null, (k, v) -> v))
          .isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> table.compute("k", null)).isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> table.merge("k", null, (a, b) -> a))
          .isInstanceOf(NullPointerException.class);
    }
  }
}
