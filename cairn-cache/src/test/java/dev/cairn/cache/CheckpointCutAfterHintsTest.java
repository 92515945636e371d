package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint cut short by a power loss or a kill -9 must leave a cache that reopens, whatever
 * changed since the checkpoint before. Each test writes one entry, checkpoints, makes one kind of
 * change, then cuts the next checkpoint at each of its first disk operations (several page-tearing
 * seeds each) and reopens: the entry must be there and {@link Cache#verify} must pass.
 *
 * <p>The changes the cache does not log (the hints of CACHE.md: policy bits, time-to-idle, and the
 * reopen's walk that marks every slot uncounted) are written in place into the index's regions, and
 * reported to the pile as written, so the next checkpoint writes their pages. The pile's replay
 * trusts a page that differs from its last checksum only if a record after the checkpoint rewrites
 * it (Regions RG1-RG2): a page changed by hints alone is taken for damage, and the open fails with
 * CorruptValueException. Found by {@link
 * CacheModelPropertyTest#afterAPowerLoss_everyAcknowledgedWriteHolds}.
 */
class CheckpointCutAfterHintsTest {
  private static final Path DIR = Path.of("/cache");
  private static final String VALUE = "v".repeat(100);

  private final ManualClock clock = new ManualClock();

  /** What happens between the checkpoint that completes and the one that is cut. */
  private interface Change {
    /** Makes the change; returns the cache to checkpoint (a reopen makes a new one). */
    Cache apply(SimulatedDisk disk, Cache cache);
  }

  /** A logged write: the checkpoint's cut is replayed over. */
  @Test
  void aCutCheckpoint_afterALoggedWrite_reopens() {
    cutEveryCheckpoint(
        0,
        TableOptions.defaults(),
        (disk, cache) -> {
          table(cache, TableOptions.defaults()).put("other", VALUE);
          return cache;
        });
  }

  /** The reopen's walk sets every slot's policy bits uncounted, in place, unlogged. */
  @Test
  void aCutCheckpoint_afterAReopen_reopens() {
    cutEveryCheckpoint(
        0,
        TableOptions.defaults(),
        (disk, cache) -> {
          cache.close();
          return open(disk, 0);
        });
  }

  /**
   * Values share pages with index regions of shards the reopen has not viewed: the reads after the
   * recovery (and verify) must find those pages taken as they are, not failed as damaged.
   */
  @Test
  void aCutCheckpoint_afterAReopen_withValuesBesideOtherShardsRegions_reopens() {
    cutEveryCheckpoint(
        1 << 20,
        TableOptions.defaults(),
        (disk, cache) -> {
          CacheTable<String, String> t = table(cache, TableOptions.defaults());
          for (int i = 0; i < 12; i++) {
            t.put("key" + i, "w".repeat(700 + 100 * i));
          }
          cache.close();
          Cache again = open(disk, 1 << 20);
          for (int i = 0; i < 12; i++) { // every shard viewed: its slots' policy bits reset
            table(again, TableOptions.defaults()).get("key" + i);
          }
          return again;
        });
  }

  /** A hit under a budget sets the slot's referenced bit, in place, unlogged. */
  @Test
  void aCutCheckpoint_afterAHitUnderABudget_reopens() {
    cutEveryCheckpoint(
        1 << 20,
        TableOptions.defaults(),
        (disk, cache) -> {
          table(cache, TableOptions.defaults()).get("k");
          return cache;
        });
  }

  /** A read in a table with expire-after-access moves the slot's expiry, in place, unlogged. */
  @Test
  void aCutCheckpoint_afterAnIdleRefresh_reopens() {
    TableOptions idle = TableOptions.builder().expireAfterAccess(Duration.ofMinutes(10)).build();
    cutEveryCheckpoint(
        0,
        idle,
        (disk, cache) -> {
          clock.advance(Duration.ofSeconds(5));
          table(cache, idle).get("k");
          return cache;
        });
  }

  /**
   * For each of the first disk operations of the cut checkpoint, by a power loss and by a process
   * crash, with a few seeds: the cache reopens with its entry, and verifies.
   */
  private void cutEveryCheckpoint(long budget, TableOptions options, Change change) {
    List<String> failures = new ArrayList<>();
    int cuts = 0;
    for (int operation = 1; operation <= 12; operation++) {
      for (long seed = 0; seed < 4; seed++) {
        for (boolean powerLoss : new boolean[] {true, false}) {
          SimulatedDisk disk = new SimulatedDisk();
          Cache cache = open(disk, budget);
          table(cache, options).put("k", VALUE);
          cache.pile().checkpoint();
          cache = change.apply(disk, cache);
          long at = disk.operationCount() + operation;
          if (powerLoss) {
            disk.crashAtOperation(at, seed);
          } else {
            disk.killAtOperation(at, seed);
          }
          boolean cut = false;
          try {
            cache.pile().checkpoint();
          } catch (RuntimeException crashed) {
            cut = true;
          }
          disk.disarmCrash();
          abandon(cache);
          disk.reboot();
          if (!cut) {
            continue; // the checkpoint had fewer operations
          }
          cuts++;
          String label =
              (powerLoss ? "power loss" : "kill") + " at operation " + operation + " seed " + seed;
          try (Cache again = open(disk, budget)) {
            // every value first, shard by shard: one may share a page with a later shard's region
            List<String> keys = new ArrayList<>();
            table(again, options).forEach(e -> keys.add(e.getKey()));
            assertThat(keys).as(label).contains("k");
            assertThat(table(again, options).get("k")).as(label).isEqualTo(VALUE);
            assertThat(again.verify()).as(label).isPositive();
            again.pile().checkpoint(); // completes: the evidence of the cut is gone after it
          } catch (RuntimeException e) {
            failures.add(label + ": " + e);
            continue;
          }
          // the pages trusted after the cut were recorded anew, not left to a stale checksum
          try (Cache third = open(disk, budget)) {
            assertThat(table(third, options).get("k")).as(label + ", then").isEqualTo(VALUE);
            assertThat(third.verify()).as(label + ", then").isPositive();
          } catch (RuntimeException e) {
            failures.add(label + ": " + e);
          }
        }
      }
    }
    assertThat(cuts).as("checkpoints cut").isGreaterThan(10);
    assertThat(failures).as("reopens that failed, of " + cuts + " cut checkpoints").isEmpty();
  }

  private static CacheTable<String, String> table(Cache cache, TableOptions options) {
    return cache.table("t", String.class, String.class, options);
  }

  private Cache open(SimulatedDisk disk, long budget) {
    CacheOptions.Builder b =
        CacheOptions.builder()
            .clock(clock)
            .pile(
                PileOptions.builder()
                    .segmentBytes(1 << 20)
                    .stripes(2)
                    .durability(Durability.SYNC)
                    .logFileBytes(1 << 20)
                    .logFileCount(2)
                    .build());
    if (budget > 0) {
      b.budgetBytes(budget);
    }
    try {
      return CacheFactory.open(disk, DIR, b.build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Drops a cache whose disk lost power or whose process died, as the process would. */
  private static void abandon(Cache cache) {
    try {
      cache.close();
    } catch (RuntimeException expected) {
      // its pile failed with the crash: its close may say so
    }
  }
}
