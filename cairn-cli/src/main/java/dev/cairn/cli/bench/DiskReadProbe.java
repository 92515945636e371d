package dev.cairn.cli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The disk's sequential read rate, as {@code dd if=FILE of=/dev/null bs=1M} reports it: the
 * yardstick for how fast a reopened pile reads its segment files back. Run after {@link
 * PageCache#drop}, or it measures memory.
 */
final class DiskReadProbe {
  /** dd's summary line: "67108864 bytes (67 MB, 64 MiB) copied, 0.0531 s, 1.3 GB/s". */
  private static final Pattern SUMMARY =
      Pattern.compile("^(\\d+) bytes .*copied, ([0-9.]+) s", Pattern.MULTILINE);

  private static final long TIMEOUT_SECONDS = 600;

  private DiskReadProbe() {}

  /**
   * Reads {@code file} with dd and returns its rate in MB/s (10^6 bytes, as dd counts), computed
   * from dd's own byte count and time; empty if dd is missing or says something unexpected.
   */
  static OptionalDouble readMBps(Path file) throws InterruptedException {
    ProcessBuilder dd =
        new ProcessBuilder("dd", "if=" + file, "of=/dev/null", "bs=1M").redirectErrorStream(true);
    dd.environment().put("LC_ALL", "C"); // a locale could print "0,0531 s"
    try {
      Process process = dd.start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        return OptionalDouble.empty();
      }
      return parse(output);
    } catch (IOException noDd) {
      return OptionalDouble.empty();
    }
  }

  static OptionalDouble parse(String ddOutput) {
    Matcher summary = SUMMARY.matcher(ddOutput);
    if (!summary.find()) {
      return OptionalDouble.empty();
    }
    double bytes = Double.parseDouble(summary.group(1));
    double seconds = Double.parseDouble(summary.group(2));
    return seconds > 0 ? OptionalDouble.of(bytes / seconds / 1e6) : OptionalDouble.empty();
  }
}
