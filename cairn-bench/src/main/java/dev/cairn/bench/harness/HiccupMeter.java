package dev.cairn.bench.harness;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * How late a thread that only sleeps wakes up, over a window: the stalls of the platform (GC
 * pauses, safepoints, the scheduler, a host pausing the VM) that any thread of this JVM meets, the
 * pile's or not. The idea is jHiccup's: a latency percentile means little until set beside what an
 * idle thread sees in the same run. Why the checkpoint-latency bench carries one: on the VM of
 * docs/BENCHMARKS.md the puts' tail while checkpoints ran was the host pausing the whole machine
 * ({@code docs/probes/sleep_jitter.c} saw the same stalls from another process).
 *
 * {@snippet :
 * HiccupMeter meter = HiccupMeter.start();
 * runPhase();
 * Histogram hiccups = meter.stop(); // nanoseconds late, one sample per sleep
 * }
 */
final class HiccupMeter {
  /** How long each sleep is asked to last. */
  static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private static final long MAX_RECORDED_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Histogram lateness = new Histogram(MAX_RECORDED_NANOS, 3);
  private final Thread thread;
  private volatile boolean stopped;

  private HiccupMeter() {
    thread = Thread.ofPlatform().name("bench-hiccup-meter").daemon().unstarted(this::sleepLoop);
  }

  /** Starts measuring on a thread of its own. */
  static HiccupMeter start() {
    HiccupMeter meter = new HiccupMeter();
    meter.thread.start();
    return meter;
  }

  /** Stops measuring and returns how late each sleep ended, in nanoseconds. */
  Histogram stop() throws InterruptedException {
    stopped = true;
    LockSupport.unpark(thread);
    thread.join();
    return lateness; // join: the loop's writes are visible here
  }

  private void sleepLoop() {
    while (!stopped) {
      long before = System.nanoTime();
      LockSupport.parkNanos(SLEEP_NANOS);
      if (stopped) {
        return; // woken early by stop(): not a sample
      }
      long late = System.nanoTime() - before - SLEEP_NANOS;
      lateness.recordValue(Math.min(Math.max(0, late), MAX_RECORDED_NANOS));
    }
  }
}
