package dev.cairn.durability.log;

import static dev.cairn.durability.log.DurabilityTestSupport.DIR;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.LogClosedException;
import dev.cairn.durability.LogFullException;
import dev.cairn.durability.file.SimulatedDisk;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Every thread waiting in {@link WriteAheadLog#syncTo} is released by whoever makes its record
 * durable, or by the failure or close that means it never will be, never by its own backstop
 * ({@link WriteAheadLog#lateWakeups}). Many committers (more threads than cores) on a simulated
 * disk that loses power at a random operation, fails a force, or has its log closed under them, in
 * both modes that have waiters, with a checkpointer freeing files for the writers to recycle, and
 * in half the trials a thread interrupting committers at random (an interrupt inside a committer's
 * own force closes its file handles, and it falls back on the flusher). A release missed in a race
 * between a releaser that pushes waiters back and a failure that drains them shows here as a late
 * wake-up, 100 ms later, where it once hung a committer of SlotTableTest's power losses for good.
 *
 * <p>Runs for {@code -Dcairn.wakeup.seconds} (default 3); a failure names the trial's seed.
 */
class WalWakeupStressTest {

  @Test
  void everyWaiterIsReleased_neverWokenByItsBackstop() throws Exception {
    long seed = DurabilityTestSupport.seed("WalWakeupStressTest");
    SplittableRandom master = new SplittableRandom(seed);
    long deadline =
        System.nanoTime()
            + TimeUnit.SECONDS.toNanos(Long.getLong("cairn.wakeup.seconds", 3L).longValue());
    int trials = 0;
    long waits = 0;
    List<String> late = new ArrayList<>();
    while (trials < 20 || System.nanoTime() < deadline) {
      long trialSeed = master.nextLong();
      Trial trial = new Trial(trialSeed);
      trial.run();
      waits += trial.syncs;
      if (trial.lateWakeups > 0) {
        late.add(trial.describe());
      }
      trials++;
    }
    System.out.printf(
        "[wakeup] %d trials, %d syncs; late wake-ups in %d trials%n", trials, waits, late.size());
    assertThat(late).as("trials in which a waiter woke by its backstop (seed %d)", seed).isEmpty();
  }

  /** {@link WriteAheadLog#awaitDurable}'s future, waited for through interrupts. */
  private static void awaitDurable(WriteAheadLog log, long end)
      throws ExecutionException, TimeoutException {
    var durable = log.awaitDurable(end);
    for (; ; ) {
      try {
        durable.get(30, TimeUnit.SECONDS);
        return;
      } catch (InterruptedException e) {
        // the trial's interrupter: wait on
      }
    }
  }

  private static final class Trial {
    final long seed;
    final SplittableRandom random;
    final LogSync mode;
    final int ending; // 0: power loss at an operation; 1: a failed force; 2: close
    final boolean interrupts; // a thread interrupts random committers, some inside their force
    long syncs;
    long lateWakeups;

    Trial(long seed) {
      this.seed = seed;
      this.random = new SplittableRandom(seed);
      this.mode = random.nextBoolean() ? LogSync.ON_COMMIT : LogSync.PERIODIC;
      this.ending = random.nextInt(3);
      this.interrupts = random.nextBoolean();
    }

    String describe() {
      return "trial seed "
          + seed
          + " mode "
          + mode
          + " ending "
          + ending
          + (interrupts ? " interrupts" : "")
          + ": "
          + lateWakeups;
    }

    void run() throws Exception {
      SimulatedDisk disk = new SimulatedDisk();
      disk.createDirectories(DIR);
      LogOptions options =
          LogOptions.builder()
              .fileBytes((random.nextBoolean() ? 4 : 64) * 4096L)
              .fileCount(2 + random.nextInt(3))
              .bufferBytes(8192)
              .mode(mode)
              .period(1, TimeUnit.MILLISECONDS)
              .writeDelay(random.nextInt(2), TimeUnit.MILLISECONDS)
              .build();
      WriteAheadLog log = WriteAheadLog.open(disk, DIR, options, 0, (a, b, c, d) -> {});
      if (ending == 0) {
        disk.crashAtOperation(disk.operationCount() + 1 + random.nextInt(400), random.nextLong());
      } else if (ending == 1) {
        disk.failNextForce(null, random.nextLong());
      }
      int writers = 3 + random.nextInt(6);
      Thread[] threads = new Thread[writers];
      long[] counts = new long[writers];
      Throwable[] errors = new Throwable[writers];
      for (int w = 0; w < writers; w++) {
        SplittableRandom own = random.split();
        int writer = w;
        threads[w] =
            Thread.ofPlatform()
                .start(
                    () -> {
                      int fullRetries = 0;
                      try {
                        for (int i = 0; i < 400; i++) {
                          Thread.interrupted(); // as an application that handled it would
                          byte[] payload =
                              DurabilityTestSupport.payload(writer, i, own.nextInt(300));
                          long end;
                          try {
                            end = log.append(16 + writer, payload);
                          } catch (LogFullException full) {
                            if (++fullRetries > 10_000) {
                              throw full; // the checkpointer cannot free a file: the disk is down
                            }
                            LockSupport.parkNanos(100_000);
                            i--;
                            continue;
                          }
                          int action = own.nextInt(4);
                          if (action == 0) {
                            awaitDurable(log, end);
                          } else if (action == 1) {
                            log.commit(end);
                          } else {
                            log.syncTo(end);
                          }
                          counts[writer]++;
                        }
                      } catch (DurabilityFailedException
                          | LogClosedException
                          | LogFullException e) {
                        // the trial's ending
                      } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof DurabilityFailedException)) {
                          errors[writer] = e;
                        }
                      } catch (Throwable e) {
                        errors[writer] = e;
                      }
                    });
      }
      // a checkpointer, as the pile's: frees the log's files, so that writers recycle them
      Thread checkpointer =
          Thread.ofPlatform()
              .daemon(true) // a trial that fails leaves it behind
              .start(
                  () -> {
                    try {
                      while (!Thread.currentThread().isInterrupted()) {
                        log.truncateBefore(log.durableLsn());
                        Thread.sleep(0, 200_000);
                      }
                    } catch (RuntimeException | InterruptedException e) {
                      // the trial's ending
                    }
                  });
      Thread interrupter = null;
      if (interrupts) {
        SplittableRandom own = random.split();
        interrupter =
            Thread.ofPlatform()
                .daemon(true)
                .start(
                    () -> {
                      while (!Thread.currentThread().isInterrupted()) {
                        threads[own.nextInt(threads.length)].interrupt();
                        LockSupport.parkNanos(50_000 + own.nextInt(300_000));
                      }
                    });
      }
      if (ending == 2) {
        Thread.sleep(random.nextInt(3));
        log.close();
      }
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(60));
        if (t.isAlive()) {
          throw new TimeoutException("a committer hung: " + describe());
        }
      }
      checkpointer.interrupt();
      checkpointer.join();
      if (interrupter != null) {
        interrupter.interrupt();
        interrupter.join();
      }
      for (Throwable e : errors) {
        if (e != null) {
          throw new AssertionError(describe(), e);
        }
      }
      try {
        log.close();
      } catch (DurabilityFailedException e) {
        // the disk is down
      }
      for (long c : counts) {
        syncs += c;
      }
      lateWakeups = log.lateWakeups();
    }
  }
}
