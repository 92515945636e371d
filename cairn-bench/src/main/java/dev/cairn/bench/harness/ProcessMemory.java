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
   * Heap bytes in use after a full collection, i.e. live data. {@code System.gc()} is a full,
   * stop-the-world collection on HotSpot's collectors unless -XX:+DisableExplicitGC is set, in
   * which case this figure includes garbage.
   */
  static long liveHeapBytes() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
