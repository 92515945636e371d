package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * More threads than cores hitting, writing, removing and expiring under a budget that evicts all
 * the time: afterwards the index, the pile and the policy's totals agree (Cache.verify, Evictor
 * E1), and usedBytes kept within the documented bound throughout (Evictor E3). Prints its seed.
 */
class EvictionConcurrencyTest {
  private static final int THREADS = 8;
  private static final long BUDGET = 1L << 20;
  private static final int KEYS = 20_000;
  private static final int MAX_VALUE_BYTES = 400;

  /**
   * A write in flight adds at most its entry (a value of MAX_VALUE_BYTES, its key and header) and
   * the region of one shard it grows (a cache of BUDGET holds a few thousand entries, a few dozen
   * per shard: regions of 1 KiB); 8 KiB covers both.
   */
  private static final long IN_FLIGHT_BYTES = 8 << 10;

  @Test
  void hitsWritesAndEvictions_onMoreThreadsThanCores_keepIndexPileAndPolicyInAgreement()
      throws Exception {
    long seed = new Random().nextLong();
    System.out.println("EvictionConcurrencyTest seed=" + seed);
    ManualClock clock = new ManualClock();
    try (Cache cache =
        Cache.offHeap(CacheOptions.builder().budgetBytes(BUDGET).clock(clock).build())) {
      LongCacheTable<byte[]> values = cache.longTable("values", byte[].class);
      CacheTable<String, String> names =
          cache.table(
              "names",
              String.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(5)).build());
      long slack = cache.core().evictor().slackBytes();
      long bound = BUDGET + slack + THREADS * IN_FLIGHT_BYTES;
      AtomicLong mostUsed = new AtomicLong();
      AtomicLong hits = new AtomicLong();
      AtomicBoolean running = new AtomicBoolean(true);
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int th = 0; th < THREADS; th++) {
        Random random = new Random(seed + th);
        boolean ticks = th == 0;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (int i = 0; i < 60_000; i++) {
                          // skewed: a small hot set is read again and again, the rest is a scan
                          long key =
                              random.nextInt(4) == 0 ? random.nextInt(KEYS) : random.nextInt(300);
                          int op = random.nextInt(100);
                          if (op < 50) {
                            byte[] v = values.get(key);
                            if (v != null) {
                              hits.incrementAndGet();
                              if (v.length > 0 && v[0] != (byte) key) {
                                failures.add(
                                    new AssertionError(
                                        "key "
                                            + key
                                            + " read another key's value"
                                            + " seed="
                                            + seed));
                              }
                            }
                          } else if (op < 80) {
                            byte[] v = new byte[random.nextInt(MAX_VALUE_BYTES)];
                            if (v.length > 0) {
                              v[0] = (byte) key;
                            }
                            values.put(key, v); // a replace as often as an insert: sizes change
                          } else if (op < 84) {
                            values.remove(key);
                          } else if (op < 96) {
                            String name = "n" + key;
                            if (names.get(name) == null) {
                              names.put(name, name + "=" + "x".repeat(random.nextInt(64)));
                            }
                          } else if (op < 97 && key < 5) {
                            byte[] v = new byte[16];
                            v[0] = (byte) key;
                            values.put(key, v, EntryOptions.pin()); // a few pinned entries
                          } else if (ticks && op < 98) {
                            clock.advance(
                                Duration.ofSeconds(1)); // names expire as the hand passes them
                          } else {
                            values.containsKey(key);
                          }
                          mostUsed.accumulateAndGet(cache.stats().usedBytes(), Math::max);
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      Thread watcher =
          Thread.ofPlatform()
              .start(
                  () -> {
                    while (running.get()) {
                      mostUsed.accumulateAndGet(cache.stats().usedBytes(), Math::max);
                      Thread.onSpinWait();
                    }
                  });
      start.countDown();
      for (Thread th : threads) {
        th.join();
      }
      running.set(false);
      watcher.join();
      assertThat(failures).isEmpty();

      CacheStats stats = cache.stats();
      System.out.printf(
          "usedBytes at rest %d, most %d; budget %d, slack %d, bound %d; hits %d,"
              + " evictions %d, expirations %d, entries %d%n",
          stats.usedBytes(),
          mostUsed.get(),
          BUDGET,
          slack,
          bound,
          hits.get(),
          stats.evictions(),
          stats.expirations(),
          stats.entries());
      assertThat(stats.evictions()).as("the budget evicted").isPositive();
      assertThat(stats.expirations()).as("entries expired").isPositive();
      assertThat(hits.get()).as("the hot set was hit").isPositive();
      assertThat(mostUsed.get()).as("usedBytes while writing (E3)").isLessThanOrEqualTo(bound);
      assertThat(stats.usedBytes())
          .as("usedBytes at rest (E3)")
          .isLessThanOrEqualTo(BUDGET + slack);
      // verify also finds no orphan: every pile value is an entry or an index region
      assertThat(cache.verify()).as("index, pile and policy agree").isEqualTo(stats.entries());
      assertThat(stats.entries()).isEqualTo(values.size() + names.size());
    }
  }
}
