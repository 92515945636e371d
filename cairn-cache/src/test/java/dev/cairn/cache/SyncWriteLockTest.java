package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.index.SlotLayout;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A SYNC write waits for its force holding no lock of the cache's (OffHeapTable T6): while a put
 * waits for a force that does not come, a put and a remove of other keys that share its key lock
 * stripe are applied, and every write is durable once the forces resume.
 */
class SyncWriteLockTest {
  private static final Path DIR = Path.of("/cache");

  @Test
  void aWriteWaitingForItsForce_holdsNoKeyLock() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (Cache cache = openSync(disk)) {
      LongCacheTable<String> table = cache.longTable("t", String.class);
      @SuppressWarnings("unchecked")
      OffHeapTable<Long, String> inner = (OffHeapTable<Long, String>) table.boxed();
      long first = 1;
      long second = first + 1;
      while (lockOf(inner, second) != lockOf(inner, first)) {
        second++;
      }
      long third = second + 1;
      while (lockOf(inner, third) != lockOf(inner, first)) {
        third++;
      }
      // each key's shard gets its region now (a first insert into a shard grows it: a write of
      // its own, which the insert's wait covers)
      table.put(first, "earlier");
      table.put(second, "earlier");
      table.put(third, "to remove");
      table.remove(first);
      table.remove(second);
      long key = second;
      long gone = third;
      // threads of their own: the common pool may have one thread on a small machine
      ExecutorService threads = Executors.newFixedThreadPool(3);
      disk.holdForces();
      CompletableFuture<PutResult> waiting;
      CompletableFuture<PutResult> sharing;
      CompletableFuture<Boolean> removing;
      try {
        waiting =
            CompletableFuture.supplyAsync(() -> table.put(first, "waits for its force"), threads);
        disk.awaitHeldForce(Duration.ofSeconds(30));
        sharing = CompletableFuture.supplyAsync(() -> table.put(key, "shares the lock"), threads);
        removing = CompletableFuture.supplyAsync(() -> table.remove(gone), threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((table.get(second) == null || table.get(third) != null)
            && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertThat(table.get(second)).as("applied while the first put waits").isNotNull();
        assertThat(table.get(third)).as("removed while the first put waits").isNull();
        assertThat(waiting).as("no force has come").isNotDone();
      } finally {
        disk.releaseForces(); // else the close would wait for a force for ever
      }
      assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(PutResult.INSERTED);
      assertThat(sharing.get(30, TimeUnit.SECONDS)).isEqualTo(PutResult.INSERTED);
      assertThat(removing.get(30, TimeUnit.SECONDS)).isTrue();
      threads.shutdown();
      assertThat(table.get(first)).isEqualTo("waits for its force");
      assertThat(table.size()).isEqualTo(2);
    }
  }

  /**
   * The index's growths are logged but not waited for (OffHeapTable T6): a load of new keys from
   * one thread, through the first region of every shard and later doublings (each a write of its
   * own), costs the disk about one force per put, not one more per growth.
   */
  @Test
  void theIndexGrowths_costNoForceOfTheirOwn() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (Cache cache = openSync(disk)) {
      LongCacheTable<String> table = cache.longTable("t", String.class);
      long regionBytes = table.stats().indexBytes();
      long before = disk.forceCount(DIR);
      int puts = 300;
      for (long key = 0; key < puts; key++) {
        // scattered keys: sequential ones would share blocks, and put into some 75 shards
        table.put(key * 0x9E3779B97F4A7C15L, "v");
      }
      long forces = disk.forceCount(DIR) - before;
      long grown = table.stats().indexBytes() - regionBytes;
      // a first region of 16 slots in each shard put into: some 175 growths
      assertThat(grown).as("index bytes grown").isGreaterThanOrEqualTo(150L * 16 * 16);
      assertThat(forces).as("forces for " + puts + " puts").isBetween((long) puts, puts + 50L);
    }
  }

  private static Cache openSync(SimulatedDisk disk) throws IOException {
    return CacheFactory.open(
        disk,
        DIR,
        CacheOptions.builder()
            .pile(PileOptions.builder().durability(Durability.SYNC).build())
            .build());
  }

  private static Object lockOf(OffHeapTable<Long, String> table, long key) {
    return table.stripeLock(SlotLayout.hash32(table.encodeLong(key, Scratch.get())));
  }
}
