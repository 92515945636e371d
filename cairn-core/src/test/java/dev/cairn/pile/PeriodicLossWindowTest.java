package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.log.LogOptions;
import dev.cairn.durability.log.LogSync;
import dev.cairn.durability.log.WriteAheadLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, item 11: how much a {@link Durability#PERIODIC} pile loses at kill -9, and why.
 *
 * <p>What survives kill -9 is what the log's flusher handed to the operating system. It does so
 * within the log's write delay (1 ms) of a record's append, unless it is slow to be scheduled; it
 * used not to when it was waiting for the next periodic force, and then a record waited for that
 * force, up to a whole sync interval. The first test checks that wake-up without timing anything
 * that could fail on a slow machine; the second measures the real window, only under {@code
 * -Dcairn.soak=true}:
 *
 * <pre>
 * ./mvnw -B -q -o -pl cairn-core test -Dtest=PeriodicLossWindowTest -Dcairn.soak=true
 * </pre>
 */
class PeriodicLossWindowTest {

  @TempDir Path temp;

  /**
   * A record appended while the flusher waits for the next periodic force reaches the OS soon, not
   * at that force. The period here is an hour, so before the fix the record waited an hour; the ten
   * seconds allowed are only a bound on a stalled machine.
   */
  @Test
  void aRecordAppendedWhileTheFlusherWaitsForTheNextForce_isWrittenWithoutWaitingForIt()
      throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    LogOptions options =
        LogOptions.builder()
            .fileBytes(64 << 10)
            .fileCount(2)
            .bufferBytes(64 << 10)
            .mode(LogSync.PERIODIC)
            .period(1, TimeUnit.HOURS)
            .writeDelay(1, TimeUnit.MILLISECONDS)
            .build();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, Path.of("/wal"), options, 0, (lsn, end, type, payload) -> {})) {
      long first = log.append(16, new byte[10]);
      assertThat(awaitWritten(log, first)).as("the first record, to an idle flusher").isTrue();
      Thread.sleep(50); // the flusher parks until the next force is due, an hour from now
      long second = log.append(16, new byte[10]);
      assertThat(awaitWritten(log, second))
          .as("a record appended while the flusher waits for the periodic force")
          .isTrue();
      assertThat(log.durableLsn()).as("and no force was made for it").isLessThan(second);
    }
  }

  private static boolean awaitWritten(WriteAheadLog log, long lsn) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (log.writtenLsn() < lsn) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1);
    }
    return true;
  }

  /**
   * Measures the loss window at kill -9: a child JVM puts as fast as it can into a PERIODIC pile
   * with the default sync interval and prints each acknowledgement with its time; after the kill
   * and a reopen, the oldest acknowledged put that is missing gives the window (its age at the
   * kill). Prints the figures; asserts only that the pile recovered whole.
   */
  @Test
  void lossWindowAtKillNine_ofAPeriodicPile_isMeasured() throws Exception {
    assumeTrue(Boolean.getBoolean("cairn.soak"), "a measurement: runs with -Dcairn.soak=true");
    int cycles = Integer.getInteger("cairn.losswindow.cycles", 40);
    SplittableRandom random = new SplittableRandom(0x4C4F5353L);
    List<Double> windows = new ArrayList<>(); // ms, one per cycle that lost something
    List<Double> behindLast = new ArrayList<>(); // ms: oldest lost to the last acknowledgement
    long acknowledgedInAll = 0;
    long lostInAll = 0;
    for (int cycle = 1; cycle <= cycles; cycle++) {
      String label = "cycle " + cycle;
      Path pile = Files.createDirectories(temp.resolve("pile-" + cycle));
      ConcurrentHashMap<Long, long[]> acknowledged = new ConcurrentHashMap<>(); // ptr -> op, t
      KilledChild child =
          new KilledChild(
              PeriodicWorkload.class,
              List.of(pile.toString(), Long.toString(random.nextLong()), "2", "put"),
              temp.resolve("child-" + cycle + ".stderr"),
              line -> {
                String[] f = line.split(" ");
                acknowledged.put(
                    Long.parseUnsignedLong(f[1], 16),
                    new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
              });
      child.awaitReady(label);
      long killNanos = child.killAfter(300 + random.nextInt(700), label);
      long oldestLost = Long.MAX_VALUE;
      long lastAcknowledged = 0;
      int lost = 0;
      try (Pile reopened = Pile.open(pile, PeriodicWorkload.options())) {
        reopened.verify();
        for (var e : acknowledged.entrySet()) {
          long opId = e.getValue()[0];
          long at = e.getValue()[1];
          lastAcknowledged = Math.max(lastAcknowledged, at);
          boolean there;
          try {
            there = Arrays.equals(reopened.getBytes(e.getKey()), PeriodicWorkload.valueOf(opId));
          } catch (PointerException gone) {
            there = false;
          }
          if (!there) {
            lost++;
            oldestLost = Math.min(oldestLost, at);
          }
        }
      }
      acknowledgedInAll += acknowledged.size();
      lostInAll += lost;
      if (lost > 0) {
        windows.add((killNanos - oldestLost) / 1e6);
        behindLast.add((lastAcknowledged - oldestLost) / 1e6);
      }
      System.out.printf(
          "[loss-window] %s: %d puts acknowledged, %d lost, oldest lost %s before"
              + " the kill (last acknowledgement %.2f ms before it)%n",
          label,
          acknowledged.size(),
          lost,
          lost == 0 ? "-" : String.format("%.2f ms", (killNanos - oldestLost) / 1e6),
          (killNanos - lastAcknowledged) / 1e6);
      deleteRecursively(pile);
    }
    Collections.sort(windows);
    Collections.sort(behindLast);
    // the second figure leaves out a stall of the whole child (no acknowledgement either)
    System.out.printf(
        "[loss-window] %d cycles, %d puts acknowledged, %d lost; cycles with a loss:"
            + " %d; window (age of the oldest lost put at the kill): median %.2f ms, max %.2f ms;"
            + " oldest lost put before the last acknowledged one: median %.2f ms, max %.2f ms%n",
        cycles,
        acknowledgedInAll,
        lostInAll,
        windows.size(),
        windows.isEmpty() ? 0.0 : windows.get(windows.size() / 2),
        windows.isEmpty() ? 0.0 : windows.getLast(),
        behindLast.isEmpty() ? 0.0 : behindLast.get(behindLast.size() / 2),
        behindLast.isEmpty() ? 0.0 : behindLast.getLast());
    assertThat(acknowledgedInAll).as("the children acknowledged puts at all").isPositive();
  }

  private static void deleteRecursively(Path directory) throws java.io.IOException {
    try (var paths = Files.walk(directory)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
