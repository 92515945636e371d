package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.memory.NativeSegment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Power loss and process crashes at random points of a persistent pile's life, on {@link
 * SimulatedDisk}: unsynced writes dropped, pages kept old, taken new or torn at 512 bytes. The
 * crash lands wherever the chosen disk operation falls: a log write or force, a checkpoint's
 * segment, metadata or superblock write, or recovery itself. Checks the durability invariants:
 * every acknowledged write present (I1), each write all or nothing (I2), the state a prefix of the
 * acknowledged order (I3), allocator invariants after recovery (I5), recovery after a crash during
 * recovery (I6), a clean close replays nothing (I7), a torn superblock falls back (I8).
 */
class PileCrashTest {

  private static final Path DIR = Path.of("/pile");
  private static final int CYCLES = Integer.getInteger("cairn.crash.cycles", 40);

  static PileOptions options(Durability durability) {
    return PileOptions.builder()
        .segmentBytes(64 << 10)
        .stripes(2)
        .durability(durability)
        .logFileBytes(1 << 20)
        .logFileCount(2)
        .build();
  }

  /**
   * One write the workload is making: what the state is if it took effect. A transaction ('T')
   * carries the whole state after it instead.
   */
  private record InFlight(char kind, long pointer, byte[] value, Map<Long, byte[]> after) {
    InFlight(char kind, long pointer, byte[] value) {
      this(kind, pointer, value, null);
    }
  }

  @Test
  void syncWritesSurvivePowerLossAnywhere() throws IOException {
    long seed = PileTestSupport.seed("syncWritesSurvivePowerLossAnywhere");
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      runSyncCycle(seed + cycle, true);
    }
  }

  @Test
  void syncWritesSurviveProcessCrashAnywhere() throws IOException {
    long seed = PileTestSupport.seed("syncWritesSurviveProcessCrashAnywhere");
    for (int cycle = 0; cycle < CYCLES / 2; cycle++) {
      runSyncCycle(seed + cycle, false);
    }
  }

  /**
   * Opens a pile, runs random writes until the armed crash hits, then recovers (possibly crashing
   * once more during recovery) and checks the state against the acknowledged writes. Repeats the
   * crash a few times on the same disk, so later recoveries start from a state that was itself
   * recovered.
   */
  private void runSyncCycle(long seed, boolean powerLoss) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    SimulatedDisk disk = new SimulatedDisk();
    Map<Long, byte[]> model = new HashMap<>();
    for (int round = 0; round < 3; round++) {
      OffHeapPile pile = openRecovering(disk, Durability.SYNC, random, powerLoss, seed);
      assertState(pile, model, null, "seed " + seed + " round " + round + " (after recovery)");
      InFlight inFlight = runUntilCrash(pile, disk, model, random, powerLoss);
      abandon(pile);
      if (powerLoss) {
        disk.reboot();
      }
      OffHeapPile recovered = openRecovering(disk, Durability.SYNC, random, powerLoss, seed);
      assertState(recovered, model, inFlight, "seed " + seed + " round " + round);
      adoptInFlight(recovered, model, inFlight);
      recovered.close();
    }
    OffHeapPile clean = PersistentStore.open(disk, DIR, options(Durability.SYNC));
    assertThat(clean.store().recoveryInfo().lastCloseClean()).isTrue();
    assertThat(clean.store().recoveryInfo().recordsReplayed()).isZero(); // I7
    assertState(clean, model, null, "seed " + seed + " after a clean close");
    clean.close();
  }

  /**
   * Opens the pile; with some probability arms a crash inside the open itself first, so that
   * recovery is interrupted and must run again (I6).
   */
  private OffHeapPile openRecovering(
      SimulatedDisk disk,
      Durability durability,
      SplittableRandom random,
      boolean powerLoss,
      long seed)
      throws IOException {
    if (random.nextInt(4) == 0) {
      long at = disk.operationCount() + 1 + random.nextInt(40);
      if (powerLoss) {
        disk.crashAtOperation(at, random.nextLong());
      } else {
        disk.killAtOperation(at, random.nextLong());
      }
      try {
        OffHeapPile pile = PersistentStore.open(disk, DIR, options(durability));
        try {
          // recovery's own checkpoint may run in the background: finish it under the armed
          // crash too, so a crash in it is a crash of this process, as it would be for real
          pile.checkpoint();
        } catch (RuntimeException crashed) {
          abandon(pile);
          throw crashed;
        }
        disk.disarmCrash();
        if (disk.operationCount() < at) {
          return pile; // recovery finished before the crash point
        }
        // a background thread (the log's flusher) reached it: the process crashed after all
        abandon(pile);
        if (powerLoss) {
          disk.reboot();
        }
      } catch (IOException | RuntimeException crashed) {
        disk.disarmCrash();
        if (powerLoss) {
          disk.reboot();
        }
      }
    }
    try {
      return PersistentStore.open(disk, DIR, options(durability));
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("seed " + seed + ": recovery failed", e);
    }
  }

  /** Runs writes until the disk crashes; returns the write that was cut, or null. */
  private InFlight runUntilCrash(
      OffHeapPile pile,
      SimulatedDisk disk,
      Map<Long, byte[]> model,
      SplittableRandom random,
      boolean powerLoss) {
    long at = disk.operationCount() + 1 + random.nextInt(600);
    if (powerLoss) {
      disk.crashAtOperation(at, random.nextLong());
    } else {
      disk.killAtOperation(at, random.nextLong());
    }
    List<Long> live = new ArrayList<>(model.keySet());
    live.sort(null);
    for (int i = 0; i < 100_000; i++) {
      int op = random.nextInt(20);
      InFlight inFlight = null;
      try {
        if (op == 0) {
          pile.checkpoint();
        } else if (op == 1 && !live.isEmpty()) {
          Map<Long, byte[]> after = new HashMap<>(model);
          inFlight = new InFlight('T', 0, null, after);
          runTransaction(pile, after, live, random);
          model.clear();
          model.putAll(after);
          live.clear();
          live.addAll(after.keySet());
          live.sort(null);
        } else if (op < 10 || live.isEmpty()) {
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(400));
          inFlight = new InFlight('P', 0, value);
          long p = pile.put(value);
          model.put(p, value);
          live.add(p);
        } else if (op < 16) {
          long p = live.get(random.nextInt(live.size()));
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(900));
          inFlight = new InFlight('U', p, value);
          pile.update(p, value);
          model.put(p, value);
        } else {
          int index = random.nextInt(live.size());
          long p = live.get(index);
          inFlight = new InFlight('D', p, null);
          pile.delete(p);
          model.remove(p);
          live.set(index, live.getLast());
          live.removeLast();
        }
      } catch (RuntimeException crashed) {
        disk.disarmCrash();
        return inFlight;
      }
    }
    disk.disarmCrash();
    fail("the armed crash never came");
    return null;
  }

  /** A transaction of a few puts, updates and deletes; {@code after} becomes its result. */
  private static void runTransaction(
      Pile pile, Map<Long, byte[]> after, List<Long> live, SplittableRandom random) {
    List<Long> candidates = new ArrayList<>(live);
    try (Transaction tx = pile.beginTransaction()) {
      for (int i = 1 + random.nextInt(5); i > 0; i--) {
        int op = random.nextInt(3);
        if (op == 0 || candidates.isEmpty()) {
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(300));
          after.put(tx.put(value), value);
        } else if (op == 1) {
          long p = candidates.get(random.nextInt(candidates.size()));
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(600));
          tx.update(p, value);
          after.put(p, value);
        } else {
          long p = candidates.remove(random.nextInt(candidates.size()));
          tx.delete(p);
          after.remove(p);
        }
      }
      tx.commit();
    }
  }

  /** Drops a crashed pile's memory; every write it tries fails, as the disk is gone. */
  private static void abandon(OffHeapPile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk crashed under it
    }
  }

  /**
   * The recovered state equals the model, except that the write in flight at the crash may or may
   * not have taken effect, and then wholly.
   */
  private static void assertState(
      Pile pile, Map<Long, byte[]> model, InFlight inFlight, String where) {
    pile.verify(); // I5
    try { // and the files: every page a checkpoint wrote matches its checksum
      ((OffHeapPile) pile).store().verifyPageChecksums();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(where, e);
    }
    Map<Long, byte[]> found = new HashMap<>();
    pile.forEach((pointer, kind, size) -> found.put(pointer, pile.getBytes(pointer)));
    if (inFlight != null && inFlight.kind == 'T') { // all of the transaction, or none (I2)
      assertThat(sameContent(model, found) || sameContent(inFlight.after, found))
          .as("%s: state is neither before nor after the transaction in flight", where)
          .isTrue();
      return;
    }
    Map<Long, byte[]> extra = new HashMap<>(found);
    for (Map.Entry<Long, byte[]> e : model.entrySet()) {
      long p = e.getKey();
      byte[] stored = extra.remove(p);
      boolean inFlightHere = inFlight != null && inFlight.pointer == p;
      if (inFlightHere && inFlight.kind == 'D' && stored == null) {
        continue; // the delete took effect
      }
      if (inFlightHere && inFlight.kind == 'U' && Arrays.equals(stored, inFlight.value)) {
        continue; // the update took effect
      }
      assertThat(stored).as("%s: acknowledged value at %x", where, p).isEqualTo(e.getValue());
    }
    if (!extra.isEmpty()) {
      assertThat(extra).as("%s: values nobody acknowledged", where).hasSize(1);
      assertThat(inFlight).as("%s: an extra value with no put in flight", where).isNotNull();
      assertThat(inFlight.kind).isEqualTo('P');
      assertThat(extra.values().iterator().next()).isEqualTo(inFlight.value);
    }
    assertThat(pile.stats().objectCount()).isEqualTo(found.size());
  }

  /** After recovery: makes the model agree with what the in-flight write left. */
  private static void adoptInFlight(Pile pile, Map<Long, byte[]> model, InFlight inFlight) {
    if (inFlight == null) {
      return;
    }
    switch (inFlight.kind) {
      case 'P' ->
          pile.forEach(
              (pointer, kind, size) -> {
                if (!model.containsKey(pointer)) {
                  model.put(pointer, inFlight.value);
                }
              });
      case 'U' -> model.put(inFlight.pointer, pile.getBytes(inFlight.pointer));
      case 'D' -> {
        try {
          pile.getBytes(inFlight.pointer);
        } catch (StalePointerException deleted) {
          model.remove(inFlight.pointer);
        }
      }
      case 'T' -> {
        if (holds(pile, inFlight.after)) {
          model.clear();
          model.putAll(inFlight.after);
        }
      }
      default -> throw new IllegalStateException();
    }
  }

  // ------------------------------------------------------------------------------------------

  @Test
  void withoutALogACrashReturnsToTheLastCheckpoint() throws IOException {
    long seed = PileTestSupport.seed("withoutALogACrashReturnsToTheLastCheckpoint");
    for (int cycle = 0; cycle < CYCLES / 2; cycle++) {
      SplittableRandom random = new SplittableRandom(seed + cycle);
      SimulatedDisk disk = new SimulatedDisk();
      OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.NONE));
      Map<Long, byte[]> model = new HashMap<>();
      Map<Long, byte[]> checkpointed = new HashMap<>();
      PersistentPileTest.churn(pile, model, random, 500);
      pile.checkpoint();
      checkpointed.putAll(model);
      PersistentPileTest.churn(pile, model, random, random.nextInt(500));
      boolean crashInCheckpoint = random.nextBoolean();
      if (crashInCheckpoint) {
        disk.crashAtOperation(disk.operationCount() + 1 + random.nextInt(30), random.nextLong());
        try {
          pile.checkpoint();
          checkpointed.clear();
          checkpointed.putAll(model);
          disk.powerLoss(random.nextLong());
        } catch (RuntimeException crashed) {
          // power lost in the middle of the checkpoint
        }
      } else {
        disk.powerLoss(random.nextLong());
      }
      disk.disarmCrash();
      abandon(pile);
      disk.reboot();
      OffHeapPile reopened;
      try {
        reopened = PersistentStore.open(disk, DIR, options(Durability.NONE));
      } catch (CorruptFileException interrupted) {
        // the one documented loss of a pile without a log: a crash while a checkpoint wrote
        // its pages in place
        assertThat(crashInCheckpoint)
            .as("cycle %d: refused without a crash in a checkpoint", cycle)
            .isTrue();
        assertThat(interrupted).hasMessageContaining("interrupted");
        continue;
      }
      if (crashInCheckpoint && !holds(reopened, checkpointed)) {
        // the checkpoint cut by the crash had become durable before the crash (it failed
        // afterwards, deleting files of retired segments): then it is the new state
        assertState(reopened, model, null, "NONE cycle " + cycle + " (newer checkpoint)");
      } else {
        assertState(reopened, checkpointed, null, "NONE cycle " + cycle);
      }
      reopened.close();
    }
  }

  @Test
  void periodicModeRecoversAPrefixAfterPowerLoss() throws IOException {
    long seed = PileTestSupport.seed("periodicModeRecoversAPrefixAfterPowerLoss");
    for (int cycle = 0; cycle < CYCLES / 2; cycle++) {
      SplittableRandom random = new SplittableRandom(seed + cycle);
      SimulatedDisk disk = new SimulatedDisk();
      OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.PERIODIC));
      // history[k] = the model after k writes; the recovered state must be one of them
      List<Map<Long, byte[]>> history = new ArrayList<>();
      Map<Long, byte[]> model = new HashMap<>();
      history.add(Map.copyOf(model));
      int durableAtLeast = 0;
      int writes = 50 + random.nextInt(300);
      for (int i = 0; i < writes; i++) {
        PersistentPileTest.churn(pile, model, random, 1);
        history.add(copy(model));
        if (random.nextInt(100) == 0) {
          pile.checkpoint(); // everything so far is durable now
          durableAtLeast = history.size() - 1;
        }
      }
      disk.powerLoss(random.nextLong());
      abandon(pile);
      disk.reboot();
      OffHeapPile reopened = PersistentStore.open(disk, DIR, options(Durability.PERIODIC));
      reopened.verify();
      Map<Long, byte[]> found = new HashMap<>();
      reopened.forEach((pointer, kind, size) -> found.put(pointer, reopened.getBytes(pointer)));
      int match = -1;
      for (int k = history.size() - 1; k >= 0 && match < 0; k--) {
        if (sameContent(history.get(k), found)) {
          match = k;
        }
      }
      assertThat(match)
          .as("cycle %d: recovered state is no prefix of the writes", cycle)
          .isGreaterThanOrEqualTo(durableAtLeast);
      reopened.close();
    }
  }

  private static boolean holds(Pile pile, Map<Long, byte[]> expected) {
    Map<Long, byte[]> found = new HashMap<>();
    pile.forEach((pointer, kind, size) -> found.put(pointer, pile.getBytes(pointer)));
    return sameContent(expected, found);
  }

  private static Map<Long, byte[]> copy(Map<Long, byte[]> model) {
    return new HashMap<>(model);
  }

  private static boolean sameContent(Map<Long, byte[]> expected, Map<Long, byte[]> found) {
    if (expected.size() != found.size()) {
      return false;
    }
    for (Map.Entry<Long, byte[]> e : expected.entrySet()) {
      if (!Arrays.equals(e.getValue(), found.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------

  @Test
  void afterAFailedFsyncNothingMoreIsAcknowledgedAndReopenRecovers() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.SYNC));
    Map<Long, byte[]> model = new HashMap<>();
    PersistentPileTest.churn(pile, model, new SplittableRandom(11), 300);
    disk.failNextForce(null, 5); // the next force of any file fails
    byte[] doomed = PileTestSupport.randomBytes(new SplittableRandom(12), 50);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> pile.put(doomed))
        .isInstanceOf(dev.cairn.durability.DurabilityFailedException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> pile.put("after the failure"))
        .isInstanceOf(dev.cairn.durability.DurabilityFailedException.class)
        .hasMessageContaining("reopen");
    abandon(pile);
    disk.processCrash();
    OffHeapPile reopened = PersistentStore.open(disk, DIR, options(Durability.SYNC));
    // every acknowledged write is there; the failed one may be (its bytes may have reached
    // the disk before the force failed), but nothing after it
    InFlight maybe = new InFlight('P', 0, doomed);
    assertState(reopened, model, maybe, "after a failed fsync");
    reopened.close();
  }

  @Test
  void aFullDiskIsAnExceptionAndTheLastCheckpointSurvives() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.NONE));
    Map<Long, byte[]> model = new HashMap<>();
    PersistentPileTest.churn(pile, model, new SplittableRandom(13), 300);
    pile.checkpoint();
    Map<Long, byte[]> checkpointed = new HashMap<>(model);
    disk.setCapacityBytes(disk.usedBytes()); // nothing more fits
    PersistentPileTest.churn(pile, model, new SplittableRandom(14), 3_000); // new segments
    org.assertj.core.api.Assertions.assertThatThrownBy(pile::checkpoint)
        .isInstanceOf(dev.cairn.durability.DurabilityFailedException.class)
        .hasMessageContaining("No space left");
    abandon(pile);
    disk.processCrash();
    disk.setCapacityBytes(Long.MAX_VALUE);
    OffHeapPile reopened;
    try {
      reopened = PersistentStore.open(disk, DIR, options(Durability.NONE));
    } catch (dev.cairn.durability.CorruptFileException interrupted) {
      // without a log, a checkpoint that failed while writing pages in place loses the pile;
      // with the disk full before any page was written it must not come to that
      throw new AssertionError("the failed checkpoint damaged the pile", interrupted);
    }
    assertState(reopened, checkpointed, null, "after a full disk");
    reopened.close();
  }

  /**
   * A new segment's file is written as zeros plus its dirty pages; a first write of it that failed
   * after taking the dirty marks must not leave the next checkpoint writing zeros over the values.
   * Fails if the failed write does not mark the segment all dirty again.
   */
  @Test
  void aNewSegmentWhoseFileFailedHalfWritten_isWholeAfterTheNextCheckpoint() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.NONE));
    Map<Long, byte[]> model = new HashMap<>();
    PersistentPileTest.churn(pile, model, new SplittableRandom(21), 200);
    pile.checkpoint();
    int before = pile.stats().segmentCount();
    PersistentPileTest.churn(pile, model, new SplittableRandom(22), 3_000); // new segments
    assertThat(pile.stats().segmentCount()).isGreaterThan(before);
    int fresh = -1;
    for (int i = 0; i < Pointers.MAX_SEGMENTS && fresh < 0; i++) {
      NativeSegment segment = pile.segmentTable().segmentAt(i);
      if (segment != null && !segment.hasFile() && segment.dirtyPageCount() > 1) {
        fresh = i;
      }
    }
    assertThat(fresh).as("a segment without a file").isNotNegative();
    // its zeros go in (one write), then the first run of its pages fails
    disk.failWritesOf(PileFiles.segmentFile(DIR, fresh), 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(pile::checkpoint)
        .isInstanceOf(dev.cairn.durability.DurabilityFailedException.class)
        .hasMessageContaining("No space left");
    disk.failWritesOf(null, 0);
    pile.checkpoint(); // before any page was written in place: the pile is intact
    pile.close();
    disk.processCrash(); // only what is durable counts
    OffHeapPile reopened = PersistentStore.open(disk, DIR, options(Durability.NONE));
    assertState(reopened, model, null, "after the retried checkpoint");
    reopened.close();
  }

  /**
   * A checkpoint without a log copies one instant's dirty pages and lets writers go on while it
   * writes them (SegmentWriter.snapshot): the marks writers set meanwhile must reach the next
   * checkpoint. Writers churn while checkpoints run back to back (at least 40 rounds each, and on
   * until four checkpoints have completed beside them: on a quick machine 40 rounds could end
   * before the fourth, which failed the count below once in CI); one last checkpoint after them,
   * then the power goes: the files must hold every write.
   */
  @Test
  void checkpointsWithoutALog_takenWhileWritersRun_loseNoWrite() throws Exception {
    long seed = PileTestSupport.seed("checkpointsWithoutALog_takenWhileWritersRun_loseNoWrite");
    SimulatedDisk disk = new SimulatedDisk();
    OffHeapPile pile = PersistentStore.open(disk, DIR, options(Durability.NONE));
    int writers = 3;
    List<Map<Long, byte[]>> models = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicBoolean writing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.AtomicInteger checkpointsTaken =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread checkpointer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    while (writing.get()) {
                      pile.checkpoint();
                      checkpointsTaken.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                });
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Map<Long, byte[]> model = new HashMap<>();
      models.add(model);
      SplittableRandom random = new SplittableRandom(seed + w);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      // bounded: a checkpointer that stopped shows as too few checkpoints below
                      for (int round = 0;
                          round < 40 || (checkpointsTaken.get() < 4 && round < 4_000);
                          round++) {
                        PersistentPileTest.churn(pile, model, random, 50);
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    writing.set(false);
    checkpointer.join();
    assertThat(failures).isEmpty();
    assertThat(pile.store().checkpointCount())
        .as("checkpoints while the writers ran")
        .isGreaterThan(3);
    pile.checkpoint();
    disk.powerLoss(seed);
    abandon(pile);
    disk.reboot();
    Map<Long, byte[]> all = new HashMap<>();
    models.forEach(all::putAll);
    OffHeapPile reopened = PersistentStore.open(disk, DIR, options(Durability.NONE));
    assertState(reopened, all, null, "after checkpoints taken while writers ran");
    reopened.close();
  }
}
