package dev.cairn.bench.harness;

import java.util.Locale;

/**
 * How a paced thread of {@code --latency-during-checkpoint --rate} waits for its next put's due
 * time.
 *
 * <p>{@link #PARK} sleeps ({@code LockSupport.parkNanos}): the thread gives its core away, and the
 * OS's wake-up is charged to the put, since a put is timed from when it was due. On this project's
 * 2-core VM such a wake-up is more than 1 ms late about once in a thousand (a thread of the bench
 * that only sleeps 1 ms at a time shows it: {@code hiccupP999Us}), so that is the floor of PARK's
 * p99.9. {@link #SPIN} busy-waits ({@code Thread.onSpinWait}), as a thread with work queued would:
 * no wake-up to wait for, but a core per thread, so use fewer threads than cores, or the pile's own
 * threads (the log's flusher, the checkpoint) wait for a core instead. Either way a put is still
 * timed from when it was due, so queueing, preemption and the pile's own stalls all count.
 */
public enum Pacing {
  PARK,
  SPIN;

  /** The name on the command line and in the JSON. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
