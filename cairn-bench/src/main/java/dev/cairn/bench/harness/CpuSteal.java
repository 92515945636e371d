package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The share of CPU time a hypervisor took from this machine over a window, from the {@code steal}
 * column of Linux's {@code /proc/stat}: time a virtual CPU wanted to run and the host ran something
 * else. Why the bench reports it: on the VM of docs/BENCHMARKS.md the host pauses both virtual CPUs
 * for about 20 ms in every 100 ms once a core's worth of work meets a stream of forces, which shows
 * up here and in every latency percentile, the pile's or not.
 *
 * {@snippet :
 * CpuSteal.Reading before = CpuSteal.read();
 * runPhase();
 * double percent = CpuSteal.percentSince(before); // NaN off Linux
 * }
 */
final class CpuSteal {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  /** Cumulative ticks of all CPUs: every state, and steal alone; null where unreadable. */
  record Reading(long totalTicks, long stealTicks) {}

  private CpuSteal() {}

  /** The counters now, or null if {@code /proc/stat} cannot be read or parsed. */
  static Reading read() {
    try {
      String first = Files.readAllLines(PROC_STAT).getFirst();
      return parse(first);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The aggregate line {@code cpu user nice system idle iowait irq softirq steal ...}; the first
   * eight fields make the total (guest time is already counted in user). Null if malformed.
   */
  static Reading parse(String line) {
    String[] fields = line.trim().split("\\s+");
    if (fields.length < 9 || !fields[0].equals("cpu")) {
      return null;
    }
    long total = 0;
    for (int i = 1; i <= 8; i++) {
      total += Long.parseLong(fields[i]);
    }
    return new Reading(total, Long.parseLong(fields[8]));
  }

  /** Percent of all CPU time stolen since {@code before}; NaN if either reading is missing. */
  static double percentSince(Reading before) {
    return percentBetween(before, read());
  }

  static double percentBetween(Reading before, Reading after) {
    if (before == null || after == null || after.totalTicks() <= before.totalTicks()) {
      return Double.NaN;
    }
    return 100.0
        * (after.stealTicks() - before.stealTicks())
        / (after.totalTicks() - before.totalTicks());
  }
}
