package dev.cairn.bench.harness;

import dev.cairn.durability.log.LogLayout;
import dev.cairn.pile.Pile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@code cairn bench --recovery}: opens a new pile with the {@link RecoveryPlan}'s
 * log, puts values with T threads until about the plan's bytes of log are written since the last
 * checkpoint, waits until the log flusher has handed them all to the OS, prints one {@code FILLED}
 * line ({@link Filled}) and then waits to be killed. It never closes the pile: a close would
 * checkpoint and empty the log. If its parent dies instead, its stdin reaches end of file and it
 * halts, still without closing.
 *
 * <p>The log's size is not visible through the Pile API, so the filler estimates it: each put into
 * fresh space logs one record of {@link #PUT_PAYLOAD_OVERHEAD_BYTES} plus the value's stored bytes,
 * framed by {@link LogLayout#frameBytes}. The parent reports the exact bytes replayed, as a
 * read-only inspection counts them, not this estimate.
 *
 * <p>Arguments: {@code DIRECTORY KIND SIZE THREADS LOG_BYTES}.
 */
public final class RecoveryFiller {
  /** The first word of the line the filler prints when the log is full and handed to the OS. */
  static final String FILLED = "FILLED";

  /**
   * A put's log payload beyond the value's bytes, for a put into fresh space: 16 bytes of record
   * prefix, about 22 of changed counters (a field mask and five LEB128 values, docs/FORMAT.md
   * {@code ChangedState}), 16 of range header and 8 of block header.
   */
  static final int PUT_PAYLOAD_OVERHEAD_BYTES = 62;

  /**
   * How long to wait after the last put: durability periodic hands the log to the OS within about a
   * millisecond and forces it every 10, so after this every record is in the page cache, which
   * outlives a killed process.
   */
  private static final long FLUSH_WAIT_MILLIS = 200;

  private static final int ARGUMENTS = 5;

  /** Launched through {@link #command} only. */
  private RecoveryFiller() {}

  /**
   * What the filler did, as its {@code FILLED} line says it: {@code FILLED <estimatedLogBytes>
   * <puts> <index> <pointer>}.
   *
   * @param estimatedLogBytes the log it wrote, by its estimate
   * @param puts the puts it made, all acknowledged, and all in the log handed to the OS
   * @param index the value index of one of the last puts
   * @param pointer that put's pointer, which the recovered pile must resolve to that value
   */
  record Filled(long estimatedLogBytes, long puts, int index, long pointer) {
    String line() {
      return String.join(
          " ",
          FILLED,
          Long.toString(estimatedLogBytes),
          Long.toString(puts),
          Integer.toString(index),
          Long.toString(pointer));
    }

    /** The line's figures, or null if it is not a {@code FILLED} line. */
    static Filled parse(String line) {
      String[] words = line.strip().split(" ");
      if (words.length != 5 || !words[0].equals(FILLED)) {
        return null;
      }
      try {
        return new Filled(
            Long.parseLong(words[1]),
            Long.parseLong(words[2]),
            Integer.parseInt(words[3]),
            Long.parseLong(words[4]));
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  /** The command that runs a filler in a JVM of its own ({@link ChildJvm}). */
  static List<String> command(
      Path directory, BenchValueKind kind, int size, int threads, RecoveryPlan plan) {
    return ChildJvm.command(
        RecoveryFiller.class,
        List.of(
            directory.toString(),
            kind.label(),
            Integer.toString(size),
            Integer.toString(threads),
            Long.toString(plan.logBytes())));
  }

  public static void main(String[] args) {
    try {
      if (args.length != ARGUMENTS) {
        throw new IllegalArgumentException(
            "usage: RecoveryFiller DIRECTORY KIND SIZE THREADS LOG_BYTES; got " + List.of(args));
      }
      Path directory = Path.of(args[0]);
      BenchValueKind kind = BenchValueKind.valueOf(args[1].toUpperCase(Locale.ROOT));
      int size = Integer.parseInt(args[2]);
      int threads = Integer.parseInt(args[3]);
      RecoveryPlan plan = new RecoveryPlan(Long.parseLong(args[4]));
      // never closed: a close would checkpoint, and the point is the log a crash leaves
      Pile pile = Pile.open(directory, plan.pileOptions(kind));
      Filled filled = fill(pile, new ValueSource(kind, size, BenchRunner.SEED), threads, plan);
      Thread.sleep(FLUSH_WAIT_MILLIS);
      System.out.println(filled.line());
      System.out.flush();
      // wait for the SIGKILL; end of file on stdin means the parent is gone
      while (System.in.read() >= 0) {
        // the parent writes nothing; read until it closes
      }
      Runtime.getRuntime().halt(0);
    } catch (Throwable e) {
      e.printStackTrace();
      System.err.flush();
      Runtime.getRuntime().halt(1); // no close, no shutdown hooks: a crash, as planned
    }
  }

  /** Puts values with {@code threads} threads until the estimated log reaches the plan's bytes. */
  private static Filled fill(Pile pile, ValueSource values, int threads, RecoveryPlan plan)
      throws InterruptedException {
    AtomicLong logged = new AtomicLong();
    AtomicInteger nextIndex = new AtomicInteger();
    int[] lastIndex = new int[threads];
    long[] lastPointer = new long[threads];
    Throwable[] failures = new Throwable[threads];
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      workers.add(
          Thread.ofPlatform()
              .name("recovery-filler-" + t)
              .start(
                  () -> {
                    try {
                      while (logged.get() < plan.logBytes()) {
                        int index = nextIndex.getAndIncrement();
                        long pointer = pile.put(values.value(index));
                        logged.addAndGet(
                            LogLayout.frameBytes(
                                PUT_PAYLOAD_OVERHEAD_BYTES + (long) pile.sizeOf(pointer)));
                        lastIndex[thread] = index;
                        lastPointer[thread] = pointer;
                      }
                    } catch (Throwable e) {
                      failures[thread] = e;
                    }
                  }));
    }
    for (Thread worker : workers) {
      worker.join();
    }
    for (Throwable failure : failures) {
      if (failure != null) {
        throw new IllegalStateException("a filler thread failed: " + failure, failure);
      }
    }
    int latest = 0; // the thread whose last put came last (a thread may have made none)
    for (int t = 1; t < threads; t++) {
      if (lastPointer[t] != Pile.NULL && lastIndex[t] > lastIndex[latest]) {
        latest = t;
      }
    }
    return new Filled(logged.get(), nextIndex.get(), lastIndex[latest], lastPointer[latest]);
  }
}
