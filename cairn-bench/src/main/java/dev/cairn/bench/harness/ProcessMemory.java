package dev.cairn.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Readings of the process's memory: resident set size, and live heap after a full GC. */
public final class ProcessMemory {
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final String RSS_FIELD = "VmRSS:";

  private ProcessMemory() {}

  /**
   * The resident set size in bytes, from {@code VmRSS} in {@code /proc/self/status}: native and
   * heap memory alike, which is what a pile and a map both cost the machine. -1 where there is no
   * {@code /proc} (not Linux): the bench then reports no RSS figure.
   */
  public static long residentBytes() {
    try {
      for (String line : Files.readAllLines(STATUS)) {
        if (line.startsWith(RSS_FIELD)) {
          // "VmRSS:	  123456 kB"
          String kib = line.substring(RSS_FIELD.length()).trim().split("\\s+")[0];
          return Long.parseLong(kib) * 1024;
        }
      }
      return -1;
    } catch (IOException | NumberFormatException unreadable) {
      return -1;
    }
  }

  /**
   * The resident set size in bytes once it has stopped moving, for a reading after a {@code
   * System.gc()}; -1 as {@link #residentBytes}. HotSpot's G1 gives the heap that a full collection
   * shrank back to the OS on a background thread, some time after the collection, mostly within 200
   * ms but at times later: a reading taken at once may still count the young space that the run
   * before it touched, about 100 MB after a 10M-entry load of the cache workload. So this reads the
   * RSS every {@value #SETTLE_STEP_MILLIS} ms until {@value #SETTLED_READINGS} readings in a row
   * are within {@value #SETTLED_KIB} KiB of each other, for at most {@value #SETTLE_LIMIT_MILLIS}
   * ms, and returns the last one.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public static long settledResidentBytes() throws InterruptedException {
    long low = residentBytes();
    if (low < 0) {
      return -1;
    }
    long high = low;
    long now = low;
    int steady = 1;
    long deadline = System.nanoTime() + SETTLE_LIMIT_MILLIS * 1_000_000L;
    while (steady < SETTLED_READINGS && System.nanoTime() < deadline) {
      Thread.sleep(SETTLE_STEP_MILLIS);
      now = residentBytes();
      low = Math.min(low, now);
      high = Math.max(high, now);
      if (high - low < SETTLED_KIB * 1024L) {
        steady++;
      } else {
        low = high = now;
        steady = 1;
      }
    }
    return now;
  }

  static final int SETTLE_STEP_MILLIS = 100;
  static final int SETTLED_READINGS = 10;
  static final int SETTLED_KIB = 1024;
  static final int SETTLE_LIMIT_MILLIS = 5000;

  /**
   * Heap bytes in use after a full collection, i.e. live data. {@code System.gc()} is a full,
   * stop-the-world collection on HotSpot's collectors unless -XX:+DisableExplicitGC is set, in
   * which case this figure includes garbage.
   */
  static long liveHeapBytes() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
