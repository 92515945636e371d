package dev.cairn.pile;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link KillNineTest}: writes to a persistent {@link Durability#SYNC} pile from
 * several threads until the parent kills it with SIGKILL.
 *
 * <p>Arguments: {@code <directory> <seed> <threads>}. The pile is reopened (after a crash, as a
 * rule) and never closed. Each thread puts new values and updates or deletes only the pointers it
 * put itself in this run, so threads need no coordination and earlier runs' values are left alone.
 * Every value is {@link #valueOf(long) derived from an op id}, so the parent can recompute it.
 *
 * <p>Standard output is the protocol, one line per event, written atomically:
 *
 * <pre>
 * READY                   the pile is open; writes start now
 * p &lt;opId&gt;              about to put valueOf(opId)
 * u &lt;pointer&gt; &lt;opId&gt;    about to update pointer to valueOf(opId)
 * d &lt;pointer&gt;            about to delete pointer
 * P &lt;pointer&gt; &lt;opId&gt;    the put returned pointer: valueOf(opId) is durable there
 * U &lt;pointer&gt; &lt;opId&gt;    the update returned: durable
 * D &lt;pointer&gt;            the delete returned: durable
 * </pre>
 *
 * Pointers are unsigned hex, op ids decimal. An intent line (lower case) precedes the call and the
 * acknowledgement (upper case) follows its return, so at a kill each thread has at most one
 * operation in flight and the parent knows which: that one may or may not have happened.
 */
public final class CrashWorkload {

  static final int MAX_VALUE_BYTES = 2000;

  /** Per thread: keeps a run's footprint bounded, since runs accumulate in one directory. */
  private static final int MAX_LIVE_PER_THREAD = 64;

  /**
   * Small segments and a small log, so that a run of a second or so crosses segment growth,
   * checkpoints and log wrap-around.
   */
  static PileOptions options() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(4)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(4)
        .build();
  }

  /**
   * The value an op id writes: 8 to 2000 bytes, the op id (big-endian) first, then bytes from a
   * random generator seeded with the op id.
   */
  static byte[] valueOf(long opId) {
    SplittableRandom random = new SplittableRandom(opId);
    byte[] value = new byte[Long.BYTES + random.nextInt(MAX_VALUE_BYTES - Long.BYTES + 1)];
    random.nextBytes(value);
    ByteBuffer.wrap(value).putLong(0, opId);
    return value;
  }

  /** The op id a value claims to be from; only {@link #valueOf} equality proves it whole. */
  static long claimedOpId(byte[] value) {
    return ByteBuffer.wrap(value).getLong(0);
  }

  // One buffered stream flushed once per line: each line reaches the pipe in a single write of
  // far less than PIPE_BUF bytes, so a kill never leaves half a line for the parent to parse.
  private static final PrintStream OUT =
      new PrintStream(
          new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 512),
          false,
          StandardCharsets.US_ASCII);

  static synchronized void emit(String line) {
    OUT.print(line);
    OUT.print('\n');
    OUT.flush();
  }

  private CrashWorkload() {} // a child JVM's main class: never instantiated

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0]);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[1]));
    int threads = Integer.parseInt(args[2]);

    haltWhenParentGoesAway();
    Pile pile = Pile.open(directory, options()); // never closed: the run ends in SIGKILL
    emit("READY");
    // Op ids of one run share random high bits, so runs on one directory do not reuse them.
    AtomicLong opIds = new AtomicLong(random.nextLong() & 0x7FFF_FFFF_0000_0000L);
    for (int t = 0; t < threads; t++) {
      Worker worker = new Worker(pile, random.split(), opIds);
      new Thread(worker, "crash-worker-" + t).start();
    }
  }

  /**
   * The parent holds this JVM's stdin open; end of file means the parent died before it could kill
   * us, and a workload that writes forever must not outlive it.
   */
  static void haltWhenParentGoesAway() {
    Thread watchdog =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // the parent never writes; just wait for end of file
                }
              } catch (IOException e) {
                // a broken stdin means the parent is gone too
              }
              Runtime.getRuntime().halt(3);
            },
            "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** One writer thread: an endless random mix of put, update and delete. */
  private static final class Worker implements Runnable {
    private final Pile pile;
    private final SplittableRandom random;
    private final AtomicLong opIds;
    private final List<Long> mine = new ArrayList<>();

    Worker(Pile pile, SplittableRandom random, AtomicLong opIds) {
      this.pile = pile;
      this.random = random;
      this.opIds = opIds;
    }

    @Override
    public void run() {
      try {
        while (true) {
          step();
        }
      } catch (Throwable t) {
        // The parent reads an early exit as a failure and shows this stack trace.
        t.printStackTrace();
        Runtime.getRuntime().halt(2);
      }
    }

    private void step() {
      int roll = random.nextInt(10);
      if (mine.isEmpty() || (roll < 5 && mine.size() < MAX_LIVE_PER_THREAD)) {
        put();
      } else if (roll < 8) {
        update(mine.get(random.nextInt(mine.size())));
      } else {
        delete(random.nextInt(mine.size()));
      }
    }

    private void put() {
      long opId = opIds.incrementAndGet();
      emit("p " + opId);
      long pointer = pile.put(valueOf(opId));
      emit("P " + hex(pointer) + " " + opId);
      mine.add(pointer);
    }

    private void update(long pointer) {
      long opId = opIds.incrementAndGet();
      emit("u " + hex(pointer) + " " + opId);
      pile.update(pointer, valueOf(opId));
      emit("U " + hex(pointer) + " " + opId);
    }

    private void delete(int index) {
      long pointer = mine.get(index);
      emit("d " + hex(pointer));
      pile.delete(pointer);
      emit("D " + hex(pointer));
      mine.set(index, mine.getLast());
      mine.removeLast();
    }

    private static String hex(long pointer) {
      return Long.toHexString(pointer);
    }
  }
}
