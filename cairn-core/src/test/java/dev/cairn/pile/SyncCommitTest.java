package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, item 9: {@code commit(Durability.SYNC)} is on stable storage when it returns, whatever
 * the pile's own durability. Counted through {@link SimulatedDisk}'s forces and checked by a power
 * loss right after the commit returns; {@link SyncCommitKillNineTest} checks it with kill -9.
 */
class SyncCommitTest {

  private static final Path DIR = Path.of("/pile");
  private static final Path WAL = DIR.resolve(PileFiles.LOG_DIRECTORY);

  /** A PERIODIC pile whose period never comes in a test: every force is one a commit asked for. */
  private static PileOptions periodicNeverDue() {
    return PileOptions.builder()
        .segmentBytes(64 << 10)
        .stripes(2)
        .durability(Durability.PERIODIC)
        .syncIntervalMillis(3_600_000)
        .logFileBytes(1 << 20)
        .logFileCount(2)
        .build();
  }

  @Test
  void syncCommits_inAPeriodicPile_eachForceTheLog_andSurviveAPowerLossRightAfter()
      throws IOException {
    long seed = PileTestSupport.seed("syncCommits_inAPeriodicPile");
    SplittableRandom random = new SplittableRandom(seed);
    SimulatedDisk disk = new SimulatedDisk();
    Map<Long, byte[]> committed = new LinkedHashMap<>();
    int cycles = 25;
    int commitsPerCycle = 4;
    int forced = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      OffHeapPile pile = PersistentStore.open(disk, DIR, periodicNeverDue());
      for (int i = 0; i < commitsPerCycle; i++) {
        pile.put(PileTestSupport.randomBytes(random, 40)); // PERIODIC: not waited for
        byte[] value = PileTestSupport.randomBytes(random, 1 + random.nextInt(300));
        long forcesBefore = disk.forceCount(WAL);
        long pointer;
        try (Transaction tx = pile.beginTransaction()) {
          pointer = tx.put(value);
          tx.commit(Durability.SYNC);
        }
        if (disk.forceCount(WAL) > forcesBefore) {
          forced++;
        }
        committed.put(pointer, value);
      }
      // the power goes right after the last commit returned: what was not forced is lost
      disk.powerLoss(random.nextLong());
      abandon(pile);
      disk.reboot();
      try (OffHeapPile reopened = PersistentStore.open(disk, DIR, periodicNeverDue())) {
        for (Map.Entry<Long, byte[]> e : committed.entrySet()) {
          assertThat(reopened.getBytes(e.getKey()))
              .as(
                  "seed %d, cycle %d: commit(SYNC) at %x acknowledged before the power loss",
                  seed, cycle, e.getKey())
              .isEqualTo(e.getValue());
        }
        reopened.verify();
      }
    }
    assertThat(forced)
        .as("seed %d: commit(SYNC)s that forced the log", seed)
        .isEqualTo(cycles * commitsPerCycle);
  }

  @Test
  void aDefaultCommit_inAPeriodicPile_stillForcesNothing() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    try (OffHeapPile pile = PersistentStore.open(disk, DIR, periodicNeverDue())) {
      long forcesBefore = disk.forceCount(WAL);
      for (int i = 0; i < 50; i++) {
        try (Transaction tx = pile.beginTransaction()) {
          tx.put("value " + i);
          tx.commit();
        }
      }
      assertThat(disk.forceCount(WAL))
          .as("commit() with the pile's PERIODIC default")
          .isEqualTo(forcesBefore);
    }
  }

  @Test
  void aSyncCommit_inASyncPile_forcesAsBefore() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions sync =
        PileOptions.builder()
            .segmentBytes(64 << 10)
            .stripes(2)
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    try (OffHeapPile pile = PersistentStore.open(disk, DIR, sync)) {
      for (int i = 0; i < 20; i++) {
        long forcesBefore = disk.forceCount(WAL);
        try (Transaction tx = pile.beginTransaction()) {
          tx.put("value " + i);
          tx.commit(Durability.SYNC);
        }
        assertThat(disk.forceCount(WAL)).as("commit %d", i).isGreaterThan(forcesBefore);
      }
    }
  }

  private static void abandon(OffHeapPile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk lost power under it
    }
  }
}
