package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * Writers do not wait for another thread's sweep (Evictor E2, E3): while a thread holds the
 * eviction lock, puts within the slack return at once and leave their eviction to the drain; only a
 * put that would pass budget + slack waits for the lock, and evicts before it writes (T4).
 */
class DeferredEvictionTest {
  private static final long BUDGET = 1L << 20;

  /**
   * More than a put of a 100-byte value adds: its entry, and the region of a shard it may grow (a
   * cache of BUDGET holds about 7,000 such entries, some 30 a shard: regions of 2 KiB at most).
   */
  private static final int MARGIN_BYTES = 8 << 10;

  /** Holds the cache's eviction lock on its own thread until {@link #release}. */
  private static final class LockHolder {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread thread;

    LockHolder(ReentrantLock lock) throws InterruptedException {
      thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    lock.lock();
                    try {
                      held.countDown();
                      release.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } finally {
                      lock.unlock();
                    }
                  });
      held.await();
    }

    void release() throws InterruptedException {
      release.countDown();
      thread.join();
    }
  }

  private static long fill(CacheTable<Long, byte[]> t, Cache cache) {
    long k = 0;
    while (t.stats().evictions() == 0) {
      t.put(k++, new byte[100]);
    }
    assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo(BUDGET);
    return k;
  }

  @Test
  void putsWithinTheSlack_whileAnotherThreadHoldsTheEvictionLock_returnWithoutEvicting()
      throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(BUDGET).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      long next = fill(t, cache);
      long evictions = t.stats().evictions();
      long slack = cache.core().evictor().slackBytes();
      Evictor evictor = cache.core().evictor();
      LockHolder holder = new LockHolder(evictor.lock());
      try {
        long first = next;
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> {
              // half the slack's worth of puts: none may wait for the lock
              for (long k = first;
                  cache.stats().usedBytes() + MARGIN_BYTES < BUDGET + slack / 2;
                  k++) {
                t.put(k, new byte[100]);
              }
            });
        assertThat(cache.stats().usedBytes())
            .as("over the budget: the eviction waits")
            .isGreaterThan(BUDGET)
            .isLessThanOrEqualTo(BUDGET + slack);
        assertThat(t.stats().evictions())
            .as("nothing evicted while the lock is held")
            .isEqualTo(evictions);
      } finally {
        holder.release();
      }
      t.put(-1L, new byte[100]); // the next write's drain evicts what the others left
      assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo(BUDGET);
      assertThat(t.stats().evictions()).isGreaterThan(evictions);
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  @Test
  void aPutPastTheSlack_waitsForTheEvictionLock_andEvictsBeforeItWrites() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(BUDGET).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      long next = fill(t, cache);
      long slack = cache.core().evictor().slackBytes();
      ReentrantLock lock = cache.core().evictor().lock();
      Thread waiting;
      LockHolder holder = new LockHolder(lock);
      try {
        long[] k = {next};
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> {
              // up to the slack, less a margin for a shard's new region: these go ahead
              while (cache.stats().usedBytes() + MARGIN_BYTES <= BUDGET + slack) {
                t.put(k[0]++, new byte[100]);
              }
            });
        long big = k[0];
        waiting = Thread.ofPlatform().start(() -> t.put(big, new byte[2 * MARGIN_BYTES]));
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> {
              while (!lock.hasQueuedThread(waiting)) {
                Thread.onSpinWait(); // E3: the put past the slack waits for the lock, not written
              }
            });
        assertThat(t.containsKey(big)).as("not written before it made room").isFalse();
      } finally {
        holder.release();
      }
      waiting.join();
      assertThat(t.stats().entries()).isPositive();
      assertThat(cache.stats().usedBytes())
          .as("it evicted first, and the drain after it")
          .isLessThanOrEqualTo(BUDGET);
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  /**
   * A victim whose key's lock is busy is kept, set back to be counted again, and the policy's
   * totals stay exact (Evictor E1); once the lock is free, the next drains evict it as usual.
   */
  @Test
  void victimsWhoseKeyLockIsBusy_areKept_andThePolicysTotalsStayExact() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(BUDGET).build())) {
      OffHeapTable<Long, byte[]> cold =
          (OffHeapTable<Long, byte[]>) cache.table("cold", Long.class, byte[].class);
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 2_000; k++) {
        cold.put(k, new byte[100]);
      }
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread holder =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < OffHeapTable.KEY_LOCKS; i++) {
                      cold.stripeLock(i).lock(); // every key of "cold": the drains only try them
                    }
                    held.countDown();
                    try {
                      release.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } finally {
                      for (int i = 0; i < OffHeapTable.KEY_LOCKS; i++) {
                        cold.stripeLock(i).unlock();
                      }
                    }
                  });
      held.await();
      try {
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () -> {
              for (long k = 0; k < 20_000; k++) {
                t.put(k, new byte[100]);
                if (k % 2_000 == 0) {
                  assertThat(cache.verify()).as("put %d", k).isEqualTo(cold.size() + t.size());
                }
              }
            });
        assertThat(cold.size())
            .as("no entry of cold removed while its locks are held")
            .isEqualTo(2_000);
        assertThat(cold.stats().evictions()).isZero();
        assertThat(t.stats().evictions()).as("the policy went on with t's entries").isPositive();
        assertThat(cache.verify()).isEqualTo(cold.size() + t.size());
      } finally {
        release.countDown();
        holder.join();
      }
      // cold's entries and t's newcomers were each asked for once: TinyLFU keeps the resident on
      // a tie, so a kept victim goes once the sketch's ageing has halved its count, within a
      // sample period (some ten times the entries held) of puts
      long puts = 0;
      for (long k = 20_000; puts < 1_000_000 && cold.stats().evictions() == 0; k++, puts++) {
        t.put(k, new byte[100]);
      }
      System.out.println("DeferredEvictionTest: cold's first eviction after " + puts + " puts");
      assertThat(cold.stats().evictions()).as("kept victims are evicted once free").isPositive();
      assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo(BUDGET);
      assertThat(cache.verify()).isEqualTo(cold.size() + t.size());
    }
  }
}
