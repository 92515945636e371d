package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Power lost at random moments of puts, removes, conditional writes, index growth and checkpoints,
 * several times over one simulated disk. After each recovery: the index and the pile agree ({@link
 * Cache#verify}: no slot names a missing value or another key's, no value is orphaned), every
 * acknowledged write holds, no removed key comes back, and the write cut by the crash is either
 * whole or absent.
 */
class CachePowerLossTest {
  private static final Path DIR = Path.of("/cache");

  static CacheOptions options() {
    return CacheOptions.builder()
        .pile(
            PileOptions.builder()
                .segmentBytes(1 << 20)
                .stripes(2)
                .durability(Durability.SYNC)
                .logFileBytes(1 << 20)
                .logFileCount(2)
                .build())
        .build();
  }

  private static Cache open(SimulatedDisk disk) {
    try {
      return CacheFactory.open(disk, DIR, options());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void afterEveryPowerLoss_indexAndPileAgree_andNothingAcknowledgedIsLost() {
    long seed = Long.getLong("cairn.seed", new Random().nextLong());
    System.out.println("CachePowerLossTest seed=" + seed);
    int disks = Math.max(4, Integer.getInteger("cairn.crash.cycles", 40) / 8);
    int powerLosses = 0;
    for (int d = 0; d < disks; d++) {
      Random random = new Random(seed + d);
      SimulatedDisk disk = new SimulatedDisk();
      Map<String, String> model = new HashMap<>();
      Set<String> removed = new HashSet<>();
      for (int crash = 0; crash < 4; crash++) {
        String label = "seed=" + seed + " disk=" + d + " crash=" + crash;
        Cache cache = open(disk);
        CacheTable<String, String> t = cache.table("t", String.class, String.class);
        check(cache, t, model, removed, label);
        disk.crashAtOperation(
            disk.operationCount() + 20 + random.nextInt(3_000), random.nextLong());
        String inFlightKey = null;
        String inFlightValue = null; // null: a remove
        try {
          for (int op = 0; op < 6_000; op++) {
            String key = "key" + random.nextInt(4_000); // enough to grow the index's shards
            int choice = random.nextInt(10);
            if (choice < 6) {
              String value = key + "=" + random.nextInt(1_000_000) + "-".repeat(random.nextInt(60));
              inFlightKey = key;
              inFlightValue = value;
              t.put(key, value);
              model.put(key, value);
              removed.remove(key);
            } else if (choice < 9) {
              inFlightKey = key;
              inFlightValue = null;
              t.remove(key);
              if (model.remove(key) != null) {
                removed.add(key);
              }
            } else {
              cache.pile().checkpoint();
            }
            inFlightKey = null;
          }
        } catch (RuntimeException crashed) {
          powerLosses++; // the power went
        }
        disk.disarmCrash();
        abandon(cache);
        disk.reboot();
        if (inFlightKey != null) { // cut by the crash: the reopen says which way it went
          try (Cache peek = open(disk)) {
            String now = peek.table("t", String.class, String.class).get(inFlightKey);
            if (inFlightValue != null && inFlightValue.equals(now)) {
              model.put(inFlightKey, inFlightValue);
              removed.remove(inFlightKey);
            } else if (inFlightValue == null && now == null && model.remove(inFlightKey) != null) {
              removed.add(inFlightKey);
            }
          }
        }
      }
      try (Cache cache = open(disk)) {
        check(
            cache,
            cache.table("t", String.class, String.class),
            model,
            removed,
            "seed=" + seed + " disk=" + d + " final");
      }
    }
    System.out.println(
        "CachePowerLossTest: "
            + powerLosses
            + " power losses in the middle of"
            + " writes over "
            + disks
            + " disks");
    assertThat(powerLosses).as("the power went during the writes").isGreaterThan(disks);
  }

  private static void check(
      Cache cache,
      CacheTable<String, String> t,
      Map<String, String> model,
      Set<String> removed,
      String label) {
    assertThat(cache.verify()).as(label + ": entries verified").isEqualTo(model.size());
    for (Map.Entry<String, String> e : model.entrySet()) {
      assertThat(t.get(e.getKey())).as(label + " key " + e.getKey()).isEqualTo(e.getValue());
    }
    for (String key : removed) {
      assertThat(t.get(key)).as(label + " removed key " + key).isNull();
    }
    List<String> keys = new ArrayList<>();
    t.forEach(e -> keys.add(e.getKey()));
    assertThat(keys).as(label).containsExactlyInAnyOrderElementsOf(model.keySet());
  }

  /** Drops a cache whose disk lost power, as the process would have. */
  private static void abandon(Cache cache) {
    try {
      cache.close();
    } catch (RuntimeException expected) {
      // the pile failed with the power: its close may say so
    }
  }
}
