package dev.cairn.bench.harness;

import dev.cairn.pile.PileDirectory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code --reopen}: how soon a persistent pile serves reads after a restart, and how fast it reads
 * everything back. Runs after the load's store was closed:
 *
 * <ol>
 *   <li>drop the page cache if allowed ({@link PageCache}) and not declined ({@code
 *       --no-drop-caches}), so the reads come from the disk;
 *   <li>if it was dropped, read all the segment files with {@code dd} ({@link DiskReadProbe}),
 *       three times from a cold cache, and report the median: the disk's sequential rate to compare
 *       with ({@code ddReadMBps}); then drop the cache again;
 *   <li>{@code reopenFirstGetMs}: from just before {@code Pile.open} to the first get's value
 *       (index 0, checked);
 *   <li>{@code readAllSecs}: every value got back with T threads, in index order, checked by
 *       checksum; and {@code readAllMBps}, the segment files' bytes over that time;
 *   <li>if the cache was dropped: drop it again, reopen, and read everything the same way with
 *       {@code Pile.prefetch()} started after the first get: {@code readAllPrefetchSecs} and {@code
 *       readAllPrefetchMBps};
 *   <li>for bytes and strings: three scans of the reopened pile from a warm cache (compiling the
 *       scan's code), then three times from a cold cache {@code Pile.prefetch()} and one {@code
 *       Pile.scan} on one thread, checked by the same checksum: {@code scanAllSecs} (the median of
 *       the three) and {@code scanAllMBps}, the bulk read a warm-up or an export would use;
 *   <li>drop the cache again if it was dropped, then a restart as an application sees it: a new JVM
 *       ({@link FirstGetProbe}) opens the pile and gets value 0 by its pointer, timed from just
 *       before the process starts: {@code restartFirstGetMs}, and {@code restartMainMs} for the
 *       JVM's own start up to {@code main}.
 * </ol>
 *
 * <p>Index order, not the load's get order: each thread's share of indices was put by one thread
 * into its stripe's segments in that order, so reading in index order reads the files nearly front
 * to back, the way a warm-up or a scan after a restart would. Random order would measure the disk's
 * random reads instead, one page fault at a time.
 */
final class ReopenBench {
  /**
   * Cold scans and dd passes timed; the median is reported. Why more than one: on this shared VM
   * single cold reads of the same files varied from 0.16 to 0.31 s.
   */
  private static final int TIMED_RUNS = 3;

  /** Scans of the reopened pile from a warm cache before the timed ones, to compile the code. */
  private static final int SCAN_WARM_UP_ROUNDS = 3;

  /** The longest a restart in a new JVM may take before the run fails. */
  private static final Duration RESTART_TIMEOUT = Duration.ofMinutes(2);

  private final BenchConfig config;
  private final ValueSource values;
  private final ParallelLoop loop;
  private final Progress.Factory progress;
  private final Consumer<String> notices;

  ReopenBench(
      BenchConfig config,
      ValueSource values,
      ParallelLoop loop,
      Progress.Factory progress,
      Consumer<String> notices) {
    this.config = config;
    this.values = values;
    this.loop = loop;
    this.progress = progress;
    this.notices = notices;
  }

  /**
   * Reopens the pile {@code closed} wrote, adds the figures to {@code result} and the disk's to
   * {@code machine}.
   *
   * @throws StoreFailedException if the reopened pile returns wrong values or cannot open
   */
  void measure(PileStore closed, StoreResult result, MachineFigures machine)
      throws InterruptedException {
    Path directory = closed.directory();
    String name = result.store().label();
    try {
      List<PileDirectory.PileFile> segmentFiles =
          PileDirectory.files(directory).stream()
              .filter(file -> file.kind() == PileDirectory.PileFile.Kind.SEGMENT)
              .toList(); // in index order
      List<Path> segments = segmentFiles.stream().map(PileDirectory.PileFile::path).toList();
      long segmentBytes = 0;
      for (PileDirectory.PileFile segment : segmentFiles) {
        segmentBytes += segment.bytes();
      }
      boolean cold = config.dropCaches() && PageCache.drop();
      machine.coldCache(cold);
      if (!cold && config.dropCaches()) {
        notices.accept(
            "the page cache could not be dropped (that needs root):"
                + " reads after the reopen come from memory, and dd is skipped");
      }
      if (cold && !segments.isEmpty()) { // dd of a cached file would measure memory
        OptionalDouble dd = ddAllFiles(segments);
        dd.ifPresentOrElse(
            machine::ddReadMBps, () -> notices.accept("dd did not run: no disk read rate"));
        PageCache.drop(); // dd left the segments in the cache
      }

      byte[] buffer = values.newBuffer();
      long openStart = System.nanoTime();
      try (PileStore reopened = PileStore.reopen(closed, config.durability())) {
        checkFirst(reopened, buffer, name);
        long firstGetNanos = System.nanoTime() - openStart;
        double seconds = readAll(reopened, name, "read-all");
        result
            .put(Metric.REOPEN_FIRST_GET_MS, firstGetNanos / 1e6)
            .put(Metric.READ_ALL_SECS, seconds)
            .put(Metric.READ_ALL_MBPS, segmentBytes / seconds / 1e6);
      }
      if (cold && PageCache.drop()) { // the same read, from a cold cache again, with prefetch
        try (PileStore reopened = PileStore.reopen(closed, config.durability())) {
          checkFirst(reopened, buffer, name);
          reopened.prefetch();
          double seconds = readAll(reopened, name, "read-all-prefetch");
          result
              .put(Metric.READ_ALL_PREFETCH_SECS, seconds)
              .put(Metric.READ_ALL_PREFETCH_MBPS, segmentBytes / seconds / 1e6);
        }
      }
      if (cold && config.valueKind().sized()) { // a bulk read: one scan
        double seconds = medianColdScanSecs(closed, buffer, name);
        result
            .put(Metric.SCAN_ALL_SECS, seconds)
            .put(Metric.SCAN_ALL_MBPS, segmentBytes / seconds / 1e6);
      }
      if (cold) {
        PageCache.drop();
      }
      restartInANewJvm(FirstGetProbe.command(directory, config, closed.pointer(0)), result, name);
    } catch (IOException e) {
      throw new StoreFailedException(
          name + " could not be reopened from " + directory + ": " + e.getMessage(), e);
    }
  }

  /**
   * Times a restart in a new JVM ({@link FirstGetProbe}, started by {@code command}) from just
   * before its process starts: to its {@code main}, and to its first get's value.
   *
   * @throws StoreFailedException if the JVM cannot start, fails, or takes over {@link
   *     #RESTART_TIMEOUT}
   */
  static void restartInANewJvm(List<String> command, StoreResult result, String name)
      throws InterruptedException {
    long[] arrived = {-1, -1}; // when the probe's main and first-get lines came
    long start = System.nanoTime();
    Process child;
    try {
      child = new ProcessBuilder(command).redirectError(Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new StoreFailedException(
          "cannot start a JVM to reopen " + name + " in: " + command.getFirst() + ": " + e, e);
    }
    Thread reader =
        Thread.ofPlatform()
            .daemon()
            .name("restart-probe-stdout")
            .start(
                () -> {
                  try (BufferedReader out = child.inputReader()) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                      long now = System.nanoTime();
                      if (line.equals(FirstGetProbe.MAIN)) {
                        arrived[0] = now;
                      } else if (line.equals(FirstGetProbe.FIRST_GET)) {
                        arrived[1] = now;
                      }
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(
                        e); // the probe's output is lost: arrived stays -1
                  }
                });
    if (!child.waitFor(RESTART_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      child.destroyForcibly();
      throw new StoreFailedException(
          name + " did not reopen in a new JVM within " + RESTART_TIMEOUT.toMinutes() + " min");
    }
    reader.join();
    if (child.exitValue() != 0 || arrived[0] < 0 || arrived[1] < 0) {
      throw new StoreFailedException(
          name
              + " failed to reopen in a new JVM (exit code "
              + child.exitValue()
              + "; its error output is above)");
    }
    result
        .put(Metric.RESTART_MAIN_MS, (arrived[0] - start) / 1e6)
        .put(Metric.RESTART_FIRST_GET_MS, (arrived[1] - start) / 1e6);
  }

  /**
   * The median of {@link #TIMED_RUNS} dd passes over all the segment files, each from a cold cache;
   * empty if dd failed.
   */
  private static OptionalDouble ddAllFiles(List<Path> segments) throws InterruptedException {
    double[] rates = new double[TIMED_RUNS];
    for (int run = 0; run < TIMED_RUNS; run++) {
      PageCache.drop();
      OptionalDouble rate = DiskReadProbe.readMBps(segments);
      if (rate.isEmpty()) {
        return rate;
      }
      rates[run] = rate.getAsDouble();
    }
    return OptionalDouble.of(median(rates));
  }

  /**
   * Seconds of {@code Pile.prefetch()} plus one checked scan from a cold cache: the median of
   * {@link #TIMED_RUNS}, after {@link #SCAN_WARM_UP_ROUNDS} scans of the same pile from a warm
   * cache. Why warm up on this pile: the gets above ran compiled code (the load compiled them); the
   * scan's code deserves the same, compiled on the same kind of memory it will read.
   */
  private double medianColdScanSecs(PileStore closed, byte[] buffer, String name)
      throws IOException, InterruptedException {
    try (PileStore reopened = PileStore.reopen(closed, config.durability())) {
      for (int round = 0; round < SCAN_WARM_UP_ROUNDS; round++) {
        checkScan(reopened, name);
      }
    }
    double[] seconds = new double[TIMED_RUNS];
    for (int run = 0; run < TIMED_RUNS; run++) {
      PageCache.drop();
      try (PileStore reopened = PileStore.reopen(closed, config.durability())) {
        checkFirst(reopened, buffer, name);
        long start = System.nanoTime();
        reopened.prefetch();
        checkScan(reopened, name);
        seconds[run] = (System.nanoTime() - start) / 1e9;
      }
    }
    return median(seconds);
  }

  private void checkScan(PileStore reopened, String name) {
    long checksum = reopened.scanChecksum();
    if (checksum != values.expectedChecksum(config.n())) {
      throw new StoreFailedException(
          name
              + " scan returned wrong values after reopen:"
              + " checksum="
              + checksum
              + " expected="
              + values.expectedChecksum(config.n()));
    }
  }

  private static double median(double[] samples) {
    double[] sorted = samples.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private void checkFirst(PileStore reopened, byte[] buffer, String name) {
    if (reopened.get(0, buffer) != values.expectedChecksum(1)) {
      throw new StoreFailedException(name + " returned a wrong value for index 0 after reopen");
    }
  }

  /** Gets every value back in index order, checks them, and returns the seconds it took. */
  private double readAll(PileStore reopened, String name, String task) throws InterruptedException {
    int n = config.n();
    ParallelLoop.Outcome all;
    try (Progress bar = progress.start(name + " " + task, n)) {
      all = loop.run("bench-" + name + "-" + task, n, GetOrder.SEQUENTIAL, reopened::get, bar);
    }
    if (all.checksum() != values.expectedChecksum(n)) {
      throw new StoreFailedException(
          name
              + " returned wrong values after reopen: checksum="
              + all.checksum()
              + " expected="
              + values.expectedChecksum(n));
    }
    return all.elapsedNanos() / 1e9;
  }
}
