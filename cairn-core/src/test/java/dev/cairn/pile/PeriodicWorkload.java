package dev.cairn.pile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link SyncCommitKillNineTest} and {@link PeriodicLossWindowTest}: writes to a
 * persistent {@link Durability#PERIODIC} pile from several threads until the parent kills it.
 *
 * <p>Arguments: {@code <directory> <seed> <threads> <mode>}. Values are {@link
 * CrashWorkload#valueOf(long) derived from op ids}. The protocol on standard output, one whole line
 * per event ({@link CrashWorkload#emit}):
 *
 * <pre>
 * READY                         the pile is open; writes start now
 * mode sync-tx: each thread alternates a plain put (not reported: PERIODIC, nothing promised)
 *   and a transaction of one put committed with commit(Durability.SYNC):
 *   T &lt;pointer&gt; &lt;opId&gt;          the commit returned: valueOf(opId) must survive at pointer
 * mode put: each thread puts as fast as it can (PERIODIC, the pile's default commit):
 *   P &lt;pointer&gt; &lt;opId&gt; &lt;nanos&gt;  the put returned at System.nanoTime() = nanos
 * </pre>
 *
 * {@code System.nanoTime()} is {@code CLOCK_MONOTONIC} on Linux, one clock for every process of the
 * machine, so the parent can compare it with its own time of the kill.
 */
public final class PeriodicWorkload {

  /** Small log files, so that a run of a second crosses checkpoints and log wrap-around. */
  static PileOptions options() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(4)
        .durability(Durability.PERIODIC) // the default syncIntervalMillis
        .logFileBytes(1 << 20)
        .logFileCount(4)
        .build();
  }

  static byte[] valueOf(long opId) {
    return CrashWorkload.valueOf(opId);
  }

  private PeriodicWorkload() {} // a child JVM's main class: never instantiated

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0]);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[1]));
    int threads = Integer.parseInt(args[2]);
    boolean syncTransactions = args[3].equals("sync-tx");

    CrashWorkload.haltWhenParentGoesAway();
    Pile pile = Pile.open(directory, options()); // never closed: the run ends in SIGKILL
    CrashWorkload.emit("READY");
    AtomicLong opIds = new AtomicLong(random.nextLong() & 0x7FFF_FFFF_0000_0000L);
    for (int t = 0; t < threads; t++) {
      Runnable work =
          syncTransactions ? () -> syncTransactions(pile, opIds) : () -> puts(pile, opIds);
      new Thread(
              () -> {
                try {
                  work.run();
                } catch (Throwable e) {
                  e.printStackTrace(); // the parent reads an early exit as a failure and shows this
                  Runtime.getRuntime().halt(2);
                }
              },
              "periodic-worker-" + t)
          .start();
    }
  }

  private static void syncTransactions(Pile pile, AtomicLong opIds) {
    while (true) {
      pile.put(valueOf(opIds.incrementAndGet()));
      long opId = opIds.incrementAndGet();
      long pointer;
      try (Transaction tx = pile.beginTransaction()) {
        pointer = tx.put(valueOf(opId));
        tx.commit(Durability.SYNC);
      }
      CrashWorkload.emit("T " + Long.toHexString(pointer) + " " + opId);
    }
  }

  private static void puts(Pile pile, AtomicLong opIds) {
    while (true) {
      long opId = opIds.incrementAndGet();
      long pointer = pile.put(valueOf(opId));
      long nanos = System.nanoTime();
      CrashWorkload.emit("P " + Long.toHexString(pointer) + " " + opId + " " + nanos);
    }
  }
}
