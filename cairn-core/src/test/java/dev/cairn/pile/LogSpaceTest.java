package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions against the size of the write-ahead log: a transaction that outgrows the log fails
 * fast, its rollback and recovery never need log space they cannot have, a pile always reopens with
 * the options it was created with, and a read-only open of a crashed pile shows what recovery will
 * produce. Small logs (2 files of 1 MiB) make "larger than the log" a matter of some ten thousand
 * puts.
 */
class LogSpaceTest {

  private static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  static PileOptions options() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(2)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(2)
        .build();
  }

  private static byte[] value(int i) {
    byte[] bytes = new byte[VALUE_BYTES];
    Arrays.fill(bytes, (byte) i);
    bytes[0] = (byte) (i >>> 8);
    bytes[1] = (byte) (i >>> 16);
    return bytes;
  }

  /** Committed values the tests check after every step. */
  private static Map<Long, byte[]> putCommitted(Pile pile, int count) {
    Map<Long, byte[]> model = new HashMap<>();
    for (int i = 0; i < count; i++) {
      byte[] value = value(i);
      model.put(pile.put(value), value);
    }
    return model;
  }

  /**
   * Puts into {@code tx} until the transaction is refused as too large; returns its pointers.
   * Bounded: a log of 2 MiB holds far fewer puts than the bound.
   */
  private static List<Long> fillUntilTooLarge(Transaction tx) {
    List<Long> pointers = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      try {
        pointers.add(tx.put(value(i)));
      } catch (TransactionTooLargeException expected) {
        return pointers;
      }
    }
    return fail("a transaction of 200,000 puts fitted a log of 2 MiB");
  }

  private static void assertHolds(Pile pile, Map<Long, byte[]> model, List<Long> gone) {
    for (Map.Entry<Long, byte[]> entry : model.entrySet()) {
      assertThat(pile.getBytes(entry.getKey())).isEqualTo(entry.getValue());
    }
    for (long pointer : gone) {
      assertThatThrownBy(() -> pile.get(pointer)).isInstanceOf(PointerException.class);
    }
    assertThat(pile.stats().objectCount()).isEqualTo(model.size());
    PileTestSupport.assertConsistent(pile, 1 << 20);
  }

  @Test
  void aTransactionLargerThanTheLog_failsFastNamingTheLogsCapacity() throws IOException {
    try (Pile pile = Pile.open(dir, options())) {
      Transaction tx = pile.beginTransaction();
      // a blocked put would wait a minute and then throw a plain PileFullException
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 200_000; i++) {
                  tx.put(value(i));
                }
              })
          .isInstanceOf(TransactionTooLargeException.class)
          .hasMessageContaining("2 files of 1,048,576 bytes")
          .hasMessageContaining("logFileBytes")
          .hasMessageContaining("smaller transactions");
      tx.rollback();
    }
  }

  @Test
  void aTransactionThatFailedFast_rollsBackAndThePileKeepsWorking() throws IOException {
    Map<Long, byte[]> model;
    List<Long> rolledBack;
    try (Pile pile = Pile.open(dir, options())) {
      model = putCommitted(pile, 500);
      PileStats before = pile.stats();
      Transaction tx = pile.beginTransaction();
      rolledBack = fillUntilTooLarge(tx);
      assertThat(rolledBack).hasSizeGreaterThan(1_000);
      tx.rollback();
      assertThat(pile.stats().objectCount()).isEqualTo(before.objectCount());
      assertHolds(pile, model, rolledBack);
      // the log is usable again: a second transaction commits, plain writes go on
      try (Transaction next = pile.beginTransaction()) {
        for (int i = 0; i < 1_000; i++) {
          byte[] value = value(10_000 + i);
          model.put(next.put(value), value);
        }
        next.commit();
      }
      model.putAll(putCommitted(pile, 2_000));
      assertHolds(pile, model, rolledBack);
    }
    try (Pile pile = Pile.open(dir, options())) {
      assertHolds(pile, model, rolledBack);
    }
  }

  @Test
  void aTransactionThatFailedFast_canStillCommitWhatItHas() throws IOException {
    try (Pile pile = Pile.open(dir, options())) {
      Map<Long, byte[]> model = putCommitted(pile, 100);
      Transaction tx = pile.beginTransaction();
      List<Long> pointers = fillUntilTooLarge(tx);
      tx.commit();
      for (int i = 0; i < pointers.size(); i++) {
        model.put(pointers.get(i), value(i));
      }
      assertHolds(pile, model, List.of());
    }
  }

  /**
   * A crash with a transaction as large as the log allows still open: recovery undoes it with the
   * log the transaction left, and the pile reopens with its own options.
   */
  @Test
  void aCrashWithAHugeUnfinishedTransaction_reopensWithTheSameOptionsWithoutIt()
      throws IOException {
    Map<Long, byte[]> model;
    List<Long> unfinished;
    OffHeapPile crashed = PersistentStore.open(RealFileLayer.INSTANCE, dir, options());
    model = putCommitted(crashed, 500);
    Transaction tx = crashed.beginTransaction();
    unfinished = fillNearlyFull(crashed, tx);
    crashed.store().abandon(); // the log forced, as after a SYNC write; no checkpoint
    try (Pile pile = Pile.open(dir, options())) {
      assertThat(((OffHeapPile) pile).store().unfinishedTransactions()).isEqualTo(1);
      assertHolds(pile, model, unfinished);
    }
    try (Pile pile = Pile.open(dir, options())) {
      assertHolds(pile, model, unfinished);
    }
  }

  /**
   * Puts into {@code tx} until it is refused as too large or the log is nearly full (what an
   * earlier build allowed: it let a transaction fill the log).
   */
  private static List<Long> fillNearlyFull(OffHeapPile pile, Transaction tx) {
    List<Long> pointers = new ArrayList<>();
    for (int i = 0; pile.store().log().remainingBytes() > 16 << 10; i++) {
      try {
        pointers.add(tx.put(value(i)));
      } catch (TransactionTooLargeException enough) {
        break;
      }
    }
    return pointers;
  }

  /**
   * A log already full of an unfinished transaction, as earlier builds left it (they kept no room
   * for its rollback): recovery cannot log the undo, and still reopens the pile with its own
   * options.
   */
  @Test
  void aLogAlreadyFullOfAnUnfinishedTransaction_reopensWithTheSameOptions() throws IOException {
    OffHeapPile crashed = PersistentStore.open(RealFileLayer.INSTANCE, dir, options());
    Map<Long, byte[]> model = putCommitted(crashed, 500);
    crashed.store().keepNoUndoSpaceForTests();
    Transaction tx = crashed.beginTransaction();
    List<Long> unfinished = fillNearlyFull(crashed, tx);
    assertThat(crashed.store().log().remainingBytes()).isLessThanOrEqualTo(16 << 10);
    crashed.store().abandon();
    try (Pile pile = Pile.open(dir, options())) {
      assertHolds(pile, model, unfinished);
      model.putAll(putCommitted(pile, 1_000)); // and the log takes writes again
    }
    try (Pile pile = Pile.open(dir, options())) {
      assertHolds(pile, model, unfinished);
    }
  }

  /**
   * The same, with power lost at every disk operation of the recovery, then a second recovery: each
   * leaves the committed values and none of the transaction's.
   */
  @Test
  void recoveryOfAFullLog_survivesPowerLossAtEveryStep() throws IOException {
    Path pileDir = Path.of("/pile");
    long seed = PileTestSupport.seed("recoveryOfAFullLog_survivesPowerLossAtEveryStep");
    int steps = 0;
    for (int step = 1; ; step++) {
      SimulatedDisk disk = new SimulatedDisk();
      OffHeapPile crashed = PersistentStore.open(disk, pileDir, options());
      Map<Long, byte[]> model = putCommitted(crashed, 300);
      crashed.store().keepNoUndoSpaceForTests();
      Transaction tx = crashed.beginTransaction();
      List<Long> unfinished = fillNearlyFull(crashed, tx);
      crashed.store().abandon();
      disk.powerLoss(seed + step);
      disk.reboot();
      long start = disk.operationCount();
      disk.crashAtOperation(start + step, seed + step);
      boolean recovered = false;
      try {
        OffHeapPile pile = PersistentStore.open(disk, pileDir, options());
        try {
          pile.checkpoint(); // a background checkpoint of the recovery under the same crash
        } finally {
          pile.store().abandon();
        }
        recovered = disk.operationCount() < start + step;
      } catch (IOException | RuntimeException crashedInRecovery) {
        // the power went out in the middle of the recovery
      }
      disk.disarmCrash();
      if (!recovered) {
        disk.reboot();
      }
      try (OffHeapPile pile = PersistentStore.open(disk, pileDir, options())) {
        assertHolds(pile, model, unfinished);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + " power lost at recovery step " + step, e);
      }
      steps = step;
      if (recovered) {
        break; // the crash point lay past the end of the recovery: every step was tried
      }
    }
    assertThat(steps).isGreaterThan(5);
  }

  /**
   * Read-only open (inspect, verify) of a crashed pile with an unfinished transaction: the same
   * values, counters and entries as the read-write recovery of the same files then produces.
   */
  @Test
  void aReadOnlyOpenOfACrashedPile_showsWhatRecoveryWillProduce() throws IOException {
    OffHeapPile crashed = PersistentStore.open(RealFileLayer.INSTANCE, dir, options());
    Map<Long, byte[]> model = putCommitted(crashed, 300);
    long updated = model.keySet().iterator().next();
    Transaction committed = crashed.beginTransaction();
    model.put(committed.put(value(7_000)), value(7_000));
    committed.commit();
    Transaction open = crashed.beginTransaction();
    List<Long> unfinished = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      unfinished.add(open.put(value(9_000 + i)));
    }
    open.update(updated, new byte[3 * VALUE_BYTES]);
    crashed.store().abandon();

    PileDirectory.Inspection inspection = PileDirectory.inspect(dir);
    assertThat(inspection.lastCloseClean()).isFalse();
    assertThat(inspection.unfinishedTransactions()).isEqualTo(1);
    assertThat(inspection.logRecordsSinceCheckpoint()).isPositive();
    PileStats readOnlyStats;
    Map<Long, byte[]> readOnlyEntries;
    try (Pile readOnly = PileDirectory.openReadOnly(dir, options())) {
      readOnlyStats = readOnly.stats();
      readOnlyEntries = entries(readOnly);
      readOnly.verify();
    }
    assertThat(inspection.stats()).isEqualTo(readOnlyStats);
    try (Pile pile = Pile.open(dir, options())) {
      assertThat(pile.stats()).isEqualTo(readOnlyStats);
      assertThat(entries(pile)).containsOnlyKeys(readOnlyEntries.keySet());
      entries(pile)
          .forEach(
              (pointer, bytes) ->
                  assertThat(bytes)
                      .as("pointer " + pointer)
                      .isEqualTo(readOnlyEntries.get(pointer)));
      assertHolds(pile, model, unfinished);
    }
    assertThat(readOnlyEntries).hasSize(model.size());
  }

  private static Map<Long, byte[]> entries(Pile pile) {
    Map<Long, byte[]> entries = new TreeMap<>();
    pile.forEach((pointer, kind, size) -> entries.put(pointer, pile.getBytes(pointer)));
    return entries;
  }

  /** A clean close after a rollback: inspect says clean, and has nothing to replay or undo. */
  @Test
  void inspect_afterACleanClose_saysCleanWithNothingToRecover() throws IOException {
    try (Pile pile = Pile.open(dir, options())) {
      putCommitted(pile, 100);
      Transaction tx = pile.beginTransaction();
      fillUntilTooLarge(tx);
      // left open: the close rolls it back
    }
    PileDirectory.Inspection inspection = PileDirectory.inspect(dir);
    assertThat(inspection.lastCloseClean()).isTrue();
    assertThat(inspection.unfinishedTransactions()).isZero();
    assertThat(inspection.logRecordsSinceCheckpoint()).isZero();
    assertThat(inspection.stats().objectCount()).isEqualTo(100);
  }
}
