package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The weak consistency a table's iterator and {@code clear} promise ({@link CacheTable#iterator}),
 * while other threads insert and remove around them, so that shards grow and removals move entries
 * under the walk: every entry present throughout an iteration is returned exactly once, with its
 * own value, a get finds it, and {@code clear} removes every entry present throughout it. More
 * threads than cores; prints its seed.
 */
class IterationUnderWritesTest {
  private static final int STABLE = 20_000;
  private static final long CHURN_BASE = 1L << 40;
  private static final int CHURN_WAVE = 40_000;

  @Test
  void anIterationAmidInsertsAndRemovals_returnsEachEntryPresentThroughoutOnce() throws Exception {
    AtomicInteger iterations = new AtomicInteger();
    readAmidChurn(
        "iteration",
        (table, random, failures) -> {
          for (int i = 0; i < 12 && failures.isEmpty(); i++) {
            checkOneIteration(table);
            iterations.incrementAndGet();
          }
        });
    assertThat(iterations.get()).isEqualTo(24);
  }

  @Test
  void clearAmidInsertsAndRemovals_removesEveryEntryPresentThroughout() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("IterationUnderWritesTest clear seed=" + seed);
    try (Cache cache = Cache.offHeap(CacheOptions.builder().build())) {
      CacheTable<Long, byte[]> table = cache.table("t", Long.class, byte[].class);
      for (int round = 0; round < 6; round++) {
        for (long k = 0; k < STABLE; k++) {
          table.put(k, value(k));
        }
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = churn(table, seed + round, running, failures);
        Thread.sleep(5);
        table.clear();
        running.set(false);
        for (Thread t : writers) {
          t.join();
        }
        assertThat(failures).as("seed=%d", seed).isEmpty();
        for (long k = 0; k < STABLE; k++) {
          assertThat(table.containsKey(k)).as("key %d after clear, seed=%d", k, seed).isFalse();
        }
        cache.verify();
      }
    }
  }

  @Test
  void aGetAmidRemovalsThatMoveEntries_findsEveryEntryPresentThroughout() throws Exception {
    readAmidChurn(
        "get",
        (table, random, failures) -> {
          for (int i = 0; i < 3_000_000 && failures.isEmpty(); i++) {
            long k = random.nextInt(STABLE);
            if (table.get(k) == null) {
              failures.add(new AssertionError("key " + k + " missed at get " + i));
            }
          }
        });
  }

  /** What each of two reading threads does while churn() writes. */
  @FunctionalInterface
  private interface Reader {
    void read(CacheTable<Long, byte[]> table, Random random, Queue<Throwable> failures);
  }

  /**
   * Fills a table with the stable keys, runs {@code reader} on two threads while churn() writes,
   * and checks that no thread failed and the cache verifies.
   */
  private static void readAmidChurn(String what, Reader reader) throws Exception {
    long seed = new Random().nextLong();
    System.out.println("IterationUnderWritesTest " + what + " seed=" + seed);
    try (Cache cache = Cache.offHeap(CacheOptions.builder().build())) {
      CacheTable<Long, byte[]> table = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < STABLE; k++) {
        table.put(k, value(k));
      }
      AtomicBoolean running = new AtomicBoolean(true);
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      List<Thread> writers = churn(table, seed, running, failures);
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        Random random = new Random(seed - r);
        readers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        reader.read(table, random, failures);
                      } catch (Throwable t) {
                        failures.add(t);
                      }
                    }));
      }
      for (Thread t : readers) {
        t.join();
      }
      running.set(false);
      for (Thread t : writers) {
        t.join();
      }
      assertThat(failures).as("seed=%d", seed).isEmpty();
      cache.verify();
    }
  }

  /** Three threads, each inserting a wave of its own keys and removing them again, in turn. */
  private static List<Thread> churn(
      CacheTable<Long, byte[]> table,
      long seed,
      AtomicBoolean running,
      ConcurrentLinkedQueue<Throwable> failures) {
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      long base = CHURN_BASE * (w + 1);
      Random random = new Random(seed + w);
      writers.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      while (running.get()) {
                        int wave = CHURN_WAVE / 2 + random.nextInt(CHURN_WAVE);
                        for (long k = base; k < base + wave && running.get(); k++) {
                          table.put(k, value(k));
                        }
                        for (long k = base; k < base + wave; k++) {
                          table.remove(k);
                        }
                      }
                    } catch (Throwable t) {
                      failures.add(t);
                    }
                  }));
    }
    return writers;
  }

  private static void checkOneIteration(CacheTable<Long, byte[]> table) {
    int[] seen = new int[STABLE];
    for (Map.Entry<Long, byte[]> e : table) {
      long k = e.getKey();
      assertThat(e.getValue()).as("value of key %d", k).isEqualTo(value(k));
      if (k < STABLE) {
        seen[(int) k]++;
      } else {
        assertThat(k).as("a key never written").isGreaterThanOrEqualTo(CHURN_BASE);
      }
    }
    for (int k = 0; k < STABLE; k++) {
      if (seen[k] != 1) {
        throw new AssertionError(
            "key "
                + k
                + ", present throughout, returned "
                + seen[k]
                + " times; "
                + Arrays.stream(seen).filter(n -> n != 1).count()
                + " such keys");
      }
    }
  }

  private static byte[] value(long k) {
    byte[] v = new byte[24];
    for (int i = 0; i < v.length; i++) {
      v[i] = (byte) (k >>> (8 * (i % 8)));
    }
    return v;
  }
}
