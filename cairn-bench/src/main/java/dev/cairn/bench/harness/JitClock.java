package dev.cairn.bench.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JIT compilers' total compiling time so far, so that a bench can tell when its warm-up has
 * compiled what the timed run will use, and report what compiling was left inside the timed run. On
 * two cores a compile takes a core for milliseconds, and the timed threads wait behind it.
 */
public final class JitClock {
  /** A warm-up round whose JIT compiled for less than this was quiet. */
  static final double QUIET_MILLIS = 10;

  /**
   * Quiet rounds in a row that end a warm-up. Why more than one: a single quiet round came by
   * chance before the code that runs once a second was hot, and the checkpoint bench's measured
   * phases after a warm-up ended that way compiled for 95-129 ms (three runs of twelve), against
   * 0-41 ms after longer warm-ups.
   */
  static final int QUIET_ROUNDS = 2;

  private JitClock() {}

  /** Milliseconds all compiler threads have compiled since the JVM started; NaN if unknown. */
  public static double millis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return Double.NaN;
    }
    return jit.getTotalCompilationTime();
  }

  /** Whether a round that compiled for {@code millis} was quiet; an unknown time (NaN) is. */
  static boolean quiet(double millis) {
    return !(millis >= QUIET_MILLIS);
  }

  /** Follows a warm-up's rounds and says when it may end. */
  public static final class Settling {
    private int quietInARow;

    /**
     * Records a round that compiled for {@code millis}; true once {@link #QUIET_ROUNDS} rounds in a
     * row were quiet, or at once if the time is unknown (NaN: no JIT to wait for).
     */
    public boolean settledAfter(double millis) {
      if (Double.isNaN(millis)) {
        return true;
      }
      quietInARow = quiet(millis) ? quietInARow + 1 : 0;
      return quietInARow >= QUIET_ROUNDS;
    }
  }
}
