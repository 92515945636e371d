package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Cache#dropTable}: the table's entries, index and name go, its handles throw, its bytes
 * come back, a drop racing writers leaves nothing orphaned, and a persistent drop holds across a
 * reopen.
 */
class DropTableTest {
  @TempDir Path temp;

  @Test
  void dropTable_removesEntriesAndName_andEveryOldHandleThrows() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      LongCacheTable<byte[]> longs = cache.longTable("l", byte[].class);
      for (int i = 0; i < 1_000; i++) {
        t.put("k" + i, "v" + i);
        longs.put(i, new byte[] {(byte) i});
      }
      LongCacheTable<byte[]> sameLongs = cache.longTable("l", byte[].class);

      assertThat(cache.dropTable("l")).isTrue();
      assertThat(cache.dropTable("l")).as("dropped already").isFalse();
      assertThat(cache.dropTable("nope")).isFalse();

      assertThat(cache.tableNames()).containsExactly("t");
      assertThat(cache.verify()).as("only t's entries are left").isEqualTo(1_000);
      for (LongCacheTable<byte[]> h : List.of(longs, sameLongs)) {
        assertThatThrownBy(() -> h.get(1)).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(() -> h.put(1, new byte[1]))
            .isInstanceOf(TableDroppedException.class)
            .hasMessageContaining("\"l\" was dropped");
        assertThatThrownBy(() -> h.remove(1)).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(() -> h.containsKey(1)).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(() -> h.touch(1)).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(h::clear).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(() -> h.boxed().iterator()).isInstanceOf(TableDroppedException.class);
        assertThatThrownBy(() -> h.boxed().get(1L)).isInstanceOf(TableDroppedException.class);
      }

      // the name is free: a new table, with other types, empty
      CacheTable<Long, String> again = cache.table("l", Long.class, String.class);
      assertThat(again.size()).isZero();
      assertThat(again.get(1L)).isNull();
      again.put(1L, "one");
      assertThat(again.get(1L)).isEqualTo("one");
      assertThat(t.get("k7")).isEqualTo("v7");
      assertThat(cache.verify()).isEqualTo(1_001);
    }
  }

  /**
   * An iterator that outlives its table's drop, or its cache's close, says so instead of ending as
   * if it had seen the whole table (an export that would look complete).
   */
  @Test
  void anIteratorOverADroppedTableOrAClosedCache_throws_andDoesNotEndSilently() {
    Cache cache = Cache.offHeap(CacheOptions.defaults());
    CacheTable<Long, Long> dropped = cache.table("dropped", Long.class, Long.class);
    CacheTable<Long, Long> kept = cache.table("kept", Long.class, Long.class);
    for (long k = 0; k < 1_000; k++) {
      dropped.put(k, k);
      kept.put(k, k);
    }
    java.util.Iterator<Map.Entry<Long, Long>> it = dropped.iterator();
    for (int i = 0; i < 10; i++) {
      it.next();
    }
    cache.dropTable("dropped");
    assertThatThrownBy(it::hasNext).isInstanceOf(TableDroppedException.class);

    java.util.Iterator<Map.Entry<Long, Long>> other = kept.iterator();
    other.next();
    cache.close();
    assertThatThrownBy(other::hasNext).isInstanceOf(dev.cairn.pile.PileClosedException.class);
  }

  @Test
  @ExtendWith(NoRetiredGrace.class)
  void dropTable_givesItsBytesBack_entriesAndIndex() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(64L << 20).build())) {
      CacheTable<String, String> keep = cache.table("keep", String.class, String.class);
      keep.put("a", "b");
      keep.put("c", "d"); // the shard of "c" gets its region now, not after the drop
      keep.remove("c");
      long before = cache.stats().usedBytes();
      long objectsBefore = cache.pile().stats().objectCount();
      CacheTable<Long, String> big = cache.table("big", Long.class, String.class);
      for (long i = 0; i < 20_000; i++) {
        big.put(i, "value " + i); // grows the index's shards: regions retired and freed
      }
      assertThat(cache.stats().usedBytes()).isGreaterThan(before + 20_000 * 16);

      cache.dropTable("big");
      keep.put("c", "d"); // a write frees the regions the drop retired (no grace here)
      keep.remove("c");

      assertThat(cache.stats().usedBytes()).as("every byte of the table back").isEqualTo(before);
      assertThat(cache.pile().stats().objectCount())
          .as("no entry and no region left in the pile")
          .isEqualTo(objectsBefore);
      assertThat(cache.verify()).isEqualTo(1);
    }
  }

  @Test
  void dropTable_ofABoundedCache_keepsThePolicysTotals() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(1L << 20).build())) {
      CacheTable<Long, String> keep = cache.table("keep", Long.class, String.class);
      CacheTable<Long, String> drop = cache.table("d", Long.class, String.class);
      for (long i = 0; i < 20_000; i++) {
        drop.put(i, "value " + i);
        if (i % 4 == 0) {
          keep.put(i, "kept " + i);
          keep.get(i / 2);
        }
      }
      assertThat(cache.stats().tables().get(1).evictions()).as("the budget evicts").isPositive();
      cache.dropTable("d");
      for (long i = 0; i < 20_000; i++) {
        keep.put(i, "again " + i); // evicts among what is left, counted as the drop left it
      }
      long entries = cache.verify(); // the policy's totals equal the sums over its slots
      assertThat(entries).isEqualTo(keep.size()).isPositive();
      assertThat(cache.stats().usedBytes()).isLessThanOrEqualTo(1L << 20);
    }
  }

  @Test
  void dropTable_whileWritersAndReadersRun_leavesNothingOrphaned() throws Exception {
    long seed = Long.getLong("cairn.seed", new Random().nextLong());
    System.out.println("DropTableTest seed=" + seed);
    int threads = 4; // more than the machine's cores
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<Long, String> keep = cache.table("keep", Long.class, String.class);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong droppedSeen = new AtomicLong();
      Map<Long, String> kept = new ConcurrentHashMap<>();
      List<Thread> workers = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        long workerSeed = seed + w;
        int worker = w;
        workers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      Random random = new Random(workerSeed);
                      CacheTable<Long, String> t = cache.table("d", Long.class, String.class);
                      try {
                        while (!stop.get()) {
                          long key = random.nextInt(5_000);
                          try {
                            switch (random.nextInt(4)) {
                              case 0, 1 -> t.put(key, "v" + key);
                              case 2 -> {
                                String v = t.get(key);
                                if (v != null && !v.equals("v" + key)) {
                                  throw new AssertionError("key " + key + " read " + v);
                                }
                              }
                              default -> t.remove(key);
                            }
                          } catch (TableDroppedException dropped) {
                            droppedSeen.incrementAndGet();
                            t = cache.table("d", Long.class, String.class); // a new one
                          }
                          if (random.nextInt(16) == 0) { // keys of one worker: a model holds
                            long k = worker * 1_000_000L + random.nextInt(100);
                            keep.put(k, "k" + k);
                            kept.put(k, "k" + k);
                          }
                        }
                      } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                      }
                    }));
      }
      Random random = new Random(seed);
      for (int drops = 0; drops < 20; drops++) {
        Thread.sleep(random.nextInt(30));
        cache.dropTable("d");
      }
      stop.set(true);
      for (Thread t : workers) {
        t.join();
      }
      assertThat(failure.get()).as("seed=" + seed).isNull();
      assertThat(droppedSeen.get()).as("writers met the drops").isPositive();
      long d = cache.table("d", Long.class, String.class).size();
      assertThat(cache.verify()).as("seed=" + seed + ": no orphan").isEqualTo(kept.size() + d);
      for (Map.Entry<Long, String> e : kept.entrySet()) {
        assertThat(keep.get(e.getKey())).isEqualTo(e.getValue());
      }
    }
  }

  @Test
  void dropTable_persists_andANewTableGetsANewId() throws IOException {
    Path dir = temp.resolve("cache");
    int droppedId;
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      CacheTable<String, String> a = cache.table("a", String.class, String.class);
      CacheTable<String, String> b = cache.table("b", String.class, String.class);
      for (int i = 0; i < 2_000; i++) {
        a.put("k" + i, "a" + i);
        b.put("k" + i, "b" + i);
      }
      droppedId = ((OffHeapTable<?, ?>) b).descriptor().id();
      cache.dropTable("b");
      CacheTable<String, String> c = cache.table("b", String.class, String.class);
      assertThat(((OffHeapTable<?, ?>) c).descriptor().id())
          .as("no id is reused in a process")
          .isGreaterThan(droppedId);
      c.put("k1", "new");
    }
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      assertThat(cache.tableNames()).containsExactly("a", "b");
      CacheTable<String, String> b = cache.table("b", String.class, String.class);
      assertThat(b.size()).isEqualTo(1);
      assertThat(b.get("k1")).isEqualTo("new");
      assertThat(b.get("k2")).isNull();
      assertThat(cache.verify()).isEqualTo(2_001);
      cache.dropTable("a");
      cache.dropTable("b");
    }
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      assertThat(cache.tableNames()).isEmpty();
      assertThat(cache.verify()).isZero();
    }
  }
}
