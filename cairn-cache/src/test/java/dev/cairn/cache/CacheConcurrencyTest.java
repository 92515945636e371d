package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** More threads than cores against one cache: no lost key, no wrong value, pile and index agree. */
class CacheConcurrencyTest {
  private static final int THREADS = 8;

  private static long seed() {
    long seed = new Random().nextLong();
    System.out.println("CacheConcurrencyTest seed=" + seed);
    return seed;
  }

  /** Index growth under readers: a key whose put returned is found by every later get (I3). */
  @Test
  void keysPutBefore_aGet_areFound_whileShardsGrow() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, Long> t = cache.table("t", Long.class, Long.class);
      int perWriter = 60_000;
      int writers = 4;
      AtomicLongArray done = new AtomicLongArray(writers); // keys below done[w]*writers+w exist
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int id = w;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (long i = 0; i < perWriter; i++) {
                          long key = i * writers + id;
                          t.put(key, key * 3);
                          done.set(id, i + 1);
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      long seed = seed();
      for (int r = 0; r < THREADS - writers; r++) {
        Random random = new Random(seed + r);
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        while (failures.isEmpty()) { // a writer that failed stops the readers too
                          int w = random.nextInt(writers);
                          long upTo = done.get(w);
                          if (upTo == 0) {
                            if (allDone(done, perWriter)) {
                              return;
                            }
                            continue;
                          }
                          long key = random.nextLong(upTo) * writers + w;
                          Long got = t.get(key);
                          if (got == null || got != key * 3) {
                            failures.add(
                                new AssertionError(
                                    "key "
                                        + key
                                        + " put before the get: got "
                                        + got
                                        + " seed="
                                        + seed));
                            return;
                          }
                          if (allDone(done, perWriter)) {
                            return;
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      start.countDown();
      for (Thread th : threads) {
        th.join();
      }
      failIfAny(failures);
      assertThat(t.size()).isEqualTo((long) perWriter * writers);
    }
  }

  /** Fails with every failure of the threads, each with its stack trace. */
  static void failIfAny(ConcurrentLinkedQueue<Throwable> failures) {
    if (!failures.isEmpty()) {
      AssertionError error =
          new AssertionError(failures.size() + " thread(s) failed; first: " + failures.peek());
      failures.forEach(error::addSuppressed);
      throw error;
    }
  }

  private static boolean allDone(AtomicLongArray done, int perWriter) {
    for (int i = 0; i < done.length(); i++) {
      if (done.get(i) < perWriter) {
        return false;
      }
    }
    return true;
  }

  /**
   * Mixed writes on shared keys under a budget that evicts: afterwards every entry's value is one
   * some thread wrote for its key, iteration sees each key once, and the pile holds exactly the
   * table's entries.
   */
  @Test
  void mixedWrites_onSharedKeys_underEviction_leaveIndexAndPileInAgreement() throws Exception {
    long seed = seed();
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(3L << 20).build())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      CacheTable<Long, byte[]> u = cache.table("u", Long.class, byte[].class);
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int th = 0; th < THREADS; th++) {
        Random random = new Random(seed + th);
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (int i = 0; i < 40_000; i++) {
                          int k = random.nextInt(5_000);
                          String key = "key" + k;
                          switch (random.nextInt(8)) {
                            case 0, 1 -> t.put(key, key + "=" + random.nextInt(100));
                            case 2 -> t.remove(key);
                            case 3 -> t.putIfAbsent(key, key + "=first");
                            case 4 -> {
                              String v = t.get(key);
                              if (v != null && !v.startsWith(key + "=")) {
                                failures.add(
                                    new AssertionError(key + " read " + v + " seed=" + seed));
                              }
                            }
                            case 5 -> t.computeIfAbsent(key, kk -> kk + "=loaded");
                            case 6 -> u.put((long) k, new byte[random.nextInt(300)]);
                            default -> u.get((long) k);
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      start.countDown();
      for (Thread th : threads) {
        th.join();
      }
      failIfAny(failures);
      Set<String> seen = new HashSet<>();
      for (Map.Entry<String, String> e : t) {
        assertThat(seen.add(e.getKey())).as("seen twice: " + e.getKey()).isTrue();
        assertThat(e.getValue()).startsWith(e.getKey() + "=");
        assertThat(t.get(e.getKey())).isEqualTo(e.getValue());
      }
      assertThat(seen).hasSize((int) t.size());
      long uEntries = 0;
      for (Map.Entry<Long, byte[]> ignored : u) {
        uEntries++;
      }
      assertThat(uEntries).isEqualTo(u.size());
      assertThat(cache.verify()).isEqualTo(t.size() + u.size());
      assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo((3L << 20) + THREADS * 4096L);
    }
  }
}
