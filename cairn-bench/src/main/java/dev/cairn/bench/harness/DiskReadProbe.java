package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The disk's sequential read rate, as {@code dd if=FILE of=/dev/null bs=1M} reports it: the
 * yardstick for how fast a reopened pile reads its segment files back. Run after {@link
 * PageCache#drop}, or it measures memory.
 *
 * <p>{@link #readMBps(List)} reads every file of a set, one dd each, and divides dd's bytes by dd's
 * seconds over all of them: the rate over the same bytes the pile reads back, rather than over one
 * file (a 64 MiB sample read in 30 ms varies more from run to run).
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
    double[] bytesAndSeconds = read(file);
    return bytesAndSeconds == null
        ? OptionalDouble.empty()
        : rate(bytesAndSeconds[0], bytesAndSeconds[1]);
  }

  /**
   * Reads each of {@code files} with dd, in order, and returns their bytes over dd's summed time in
   * MB/s; empty if there are none or any dd fails.
   */
  static OptionalDouble readMBps(List<Path> files) throws InterruptedException {
    double bytes = 0;
    double seconds = 0;
    for (Path file : files) {
      double[] one = read(file);
      if (one == null) {
        return OptionalDouble.empty();
      }
      bytes += one[0];
      seconds += one[1];
    }
    return rate(bytes, seconds);
  }

  /** dd's byte count and seconds for {@code file}, or null. */
  private static double[] read(Path file) throws InterruptedException {
    ProcessBuilder dd =
        new ProcessBuilder("dd", "if=" + file, "of=/dev/null", "bs=1M").redirectErrorStream(true);
    dd.environment().put("LC_ALL", "C"); // a locale could print "0,0531 s"
    try {
      Process process = dd.start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        return null;
      }
      return bytesAndSeconds(output);
    } catch (IOException noDd) {
      return null;
    }
  }

  static OptionalDouble parse(String ddOutput) {
    double[] bytesAndSeconds = bytesAndSeconds(ddOutput);
    return bytesAndSeconds == null
        ? OptionalDouble.empty()
        : rate(bytesAndSeconds[0], bytesAndSeconds[1]);
  }

  private static double[] bytesAndSeconds(String ddOutput) {
    Matcher summary = SUMMARY.matcher(ddOutput);
    if (!summary.find()) {
      return null;
    }
    return new double[] {
      Double.parseDouble(summary.group(1)), Double.parseDouble(summary.group(2))
    };
  }

  private static OptionalDouble rate(double bytes, double seconds) {
    return seconds > 0 ? OptionalDouble.of(bytes / seconds / 1e6) : OptionalDouble.empty();
  }
}
