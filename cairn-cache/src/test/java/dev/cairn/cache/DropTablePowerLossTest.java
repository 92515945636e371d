package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.SimulatedDisk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Power lost at random moments of puts into two tables, drops of one of them and checkpoints, the
 * checkpoints on a thread of their own so that they meet drops midway (a state newer than its LSN,
 * CacheParticipant's note). After each recovery: index and pile agree ({@link Cache#verify}, no
 * value orphaned), the kept table holds every acknowledged put, an acknowledged drop is not undone,
 * and a drop cut by the crash left the table or none of it, never another table's data.
 */
class DropTablePowerLossTest {
  private static final Path DIR = Path.of("/cache");

  private static Cache open(SimulatedDisk disk) {
    try {
      return CacheFactory.open(disk, DIR, CachePowerLossTest.options());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void afterEveryPowerLoss_anAcknowledgedDropHolds_andNothingIsOrphaned() throws Exception {
    long seed = Long.getLong("cairn.seed", new Random().nextLong());
    System.out.println("DropTablePowerLossTest seed=" + seed);
    int disks = Math.max(3, Integer.getInteger("cairn.crash.cycles", 40) / 10);
    int powerLosses = 0;
    int dropsCut = 0;
    for (int d = 0; d < disks; d++) {
      Random random = new Random(seed + d);
      SimulatedDisk disk = new SimulatedDisk();
      Map<String, String> kept = new HashMap<>();
      Map<String, String> dropping = new HashMap<>(); // the table "d" as acknowledged
      for (int crash = 0; crash < 4; crash++) {
        String label = "seed=" + seed + " disk=" + d + " crash=" + crash;
        Cache cache = open(disk);
        check(cache, kept, dropping, label);
        CacheTable<String, String> keep = cache.table("keep", String.class, String.class);
        CacheTable<String, String> drop = cache.table("d", String.class, String.class);
        AtomicBoolean stop = new AtomicBoolean();
        Thread checkpointer =
            Thread.ofPlatform()
                .start(
                    () -> {
                      while (!stop.get()) {
                        try {
                          cache.pile().checkpoint();
                        } catch (RuntimeException stopped) {
                          return; // the power went, or the cache closed
                        }
                      }
                    });
        disk.crashAtOperation(
            disk.operationCount() + 50 + random.nextInt(4_000), random.nextLong());
        boolean dropInFlight = false;
        String inFlightKey = null;
        String inFlightValue = null;
        String inFlightDKey = null;
        String inFlightDValue = null;
        try {
          for (int op = 0; op < 3_000; op++) {
            int choice = random.nextInt(100);
            String key = "key" + random.nextInt(600);
            String value = key + "=" + random.nextInt(1_000_000);
            if (choice < 45) {
              inFlightKey = key;
              inFlightValue = value;
              keep.put(key, value);
              kept.put(key, value);
              inFlightKey = null;
            } else if (choice < 97) {
              inFlightDKey = key;
              inFlightDValue = value;
              drop.put(key, value);
              dropping.put(key, value);
              inFlightDKey = null;
            } else {
              dropInFlight = true;
              cache.dropTable("d");
              dropping.clear();
              dropInFlight = false;
              drop = cache.table("d", String.class, String.class);
            }
          }
        } catch (RuntimeException crashed) {
          powerLosses++;
        }
        stop.set(true);
        checkpointer.join();
        disk.disarmCrash();
        try {
          cache.close();
        } catch (RuntimeException expected) {
          // the pile failed with the power
        }
        disk.reboot();
        try (Cache peek = open(disk)) {
          if (inFlightKey != null
              && inFlightValue.equals(
                  peek.table("keep", String.class, String.class).get(inFlightKey))) {
            kept.put(inFlightKey, inFlightValue);
          }
          if (dropInFlight) {
            dropsCut++;
            // cut midway: the table is gone, or here with some of its entries removed
            if (!peek.tableNames().contains("d")) {
              dropping.clear();
            } else {
              CacheTable<String, String> t = peek.table("d", String.class, String.class);
              dropping.keySet().removeIf(k -> t.get(k) == null);
            }
          }
          // a put into "d" cut by the crash is whole or absent: the reopen says which
          if (inFlightDKey != null
              && peek.tableNames().contains("d")
              && inFlightDValue.equals(
                  peek.table("d", String.class, String.class).get(inFlightDKey))) {
            dropping.put(inFlightDKey, inFlightDValue);
          }
        }
      }
      try (Cache cache = open(disk)) {
        check(cache, kept, dropping, "seed=" + seed + " disk=" + d + " final");
      }
    }
    System.out.println(
        "DropTablePowerLossTest: "
            + powerLosses
            + " power losses over "
            + disks
            + " disks, "
            + dropsCut
            + " of them in a drop");
    assertThat(powerLosses).as("the power went during the writes").isGreaterThan(disks);
  }

  private static void check(
      Cache cache, Map<String, String> kept, Map<String, String> dropping, String label) {
    boolean hasD = cache.tableNames().contains("d");
    assertThat(hasD || dropping.isEmpty()).as(label + ": an acknowledged put's table").isTrue();
    long d = hasD ? cache.table("d", String.class, String.class).size() : 0;
    assertThat(d).as(label + ": d's entries").isEqualTo(dropping.size());
    assertThat(cache.verify()).as(label + ": entries verified").isEqualTo(kept.size() + d);
    CacheTable<String, String> keep = cache.table("keep", String.class, String.class);
    for (Map.Entry<String, String> e : kept.entrySet()) {
      assertThat(keep.get(e.getKey())).as(label + " key " + e.getKey()).isEqualTo(e.getValue());
    }
    if (hasD) {
      CacheTable<String, String> t = cache.table("d", String.class, String.class);
      for (Map.Entry<String, String> e : dropping.entrySet()) {
        assertThat(t.get(e.getKey())).as(label + " d key " + e.getKey()).isEqualTo(e.getValue());
      }
    }
  }
}
