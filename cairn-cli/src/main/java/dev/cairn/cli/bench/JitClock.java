package dev.cairn.cli.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JIT compilers' total compiling time so far, so that a bench can tell when its warm-up has
 * compiled what the timed run will use, and report what compiling was left inside the timed run.
 * On two cores a compile takes a core for milliseconds, and the timed threads wait behind it.
 */
final class JitClock {
  /** A warm-up round whose JIT compiled for less than this ends the warm-up. */
  static final double QUIET_MILLIS = 10;

  private JitClock() {}

  /** Milliseconds all compiler threads have compiled since the JVM started; NaN if unknown. */
  static double millis() {
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
}
