package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The {@code --commits} workload: T threads each commit values of {@code --size} bytes, one put per
 * durable commit, for a fixed time or count, against each store in turn (the pile, then RocksDB);
 * and, first, the machine's raw fsync latency ({@link FsyncProbe}), which bounds them.
 *
 * <p>Implementation notes
 *
 * <p><b>What is timed.</b> A commit's latency runs from the call to its return, as the caller waits
 * for it; every commit is recorded, in nanoseconds, in its thread's own {@link Histogram} (no
 * shared counter to contend on), and the histograms are added after the run. The rate is all
 * commits over the time from the threads' common release to the last one's finish.
 *
 * <p><b>Values</b> are byte[]s from a {@link ValueSource} of kind bytes, the same for every store
 * (a string value would cost the pile an encoding that RocksDB, given bytes, would not pay).
 *
 * <p><b>Warm-up.</b> Before its timed run, each store commits the same way, untimed, in rounds of
 * {@link #WARM_UP_ROUND} (no longer than the run), until {@link JitClock#QUIET_ROUNDS} rounds in a
 * row pass in which the JIT compiled for less than {@link JitClock#QUIET_MILLIS}, or {@link
 * #WARM_UP_LIMIT} has passed (at most {@link #WARM_UP_RUNS} times the run's length). The first
 * round commits into a throwaway store of the store's kind ({@code DIR/<store>-warmup}), every
 * later one into a second throwaway store ({@code DIR/<store>-warmup-2}), both deleted afterwards.
 * Why rounds, and why two stores: with one fixed round of two seconds, the timed run began by
 * deoptimizing the pile's whole commit path (JFR {@code jdk.Deoptimization}: {@code unstable_if}
 * traps in the branches a new store takes once, its first segments, its log's first file, which the
 * first store had taken before the code was profiled) and recompiling it, and again when the log's
 * ring first wrapped, 3 s in: C2 took a fifth of a core through the timed run ({@code
 * -XX:+PrintCompilation}). A second store takes those branches again with the code compiled, and
 * running it until the JIT is quiet lets its ring wrap. The run reports the warm-up's length
 * ({@code warmupSecs}) and what the JIT still compiled in the timed run ({@code commitJitMs}). A
 * run by count warms up with one round of at most {@value #WARM_UP_MAX_COUNT} commits; {@code
 * --warmup 0} turns it off.
 *
 * <p><b>No progress bar</b>: a run lasts seconds, and a commit's latency is what is measured; a
 * bar's redraws would be one more thread competing for two cores.
 */
final class CommitBench {
  /** Longer commits are recorded as this: a commit stalled a minute has failed anyway. */
  private static final long MAX_RECORDED_NANOS = TimeUnit.MINUTES.toNanos(1);

  private static final Duration FSYNC_PROBE_TIME = Duration.ofSeconds(1);

  /** One warm-up round of a run by time (no longer than the run). */
  static final Duration WARM_UP_ROUND = Duration.ofSeconds(2);

  /** The longest a store's warm-up runs (and no longer than {@link #WARM_UP_RUNS} runs). */
  static final Duration WARM_UP_LIMIT = Duration.ofSeconds(30);

  /** The longest a warm-up runs, in run lengths: a one-second test run stops at six seconds. */
  static final int WARM_UP_RUNS = 6;

  static final long WARM_UP_MAX_COUNT = 10_000;

  private final BenchConfig config;
  private final Consumer<String> notices;
  private final ValueSource values;

  CommitBench(BenchConfig config, Consumer<String> notices) {
    if (config.commits() == null) {
      throw new IllegalArgumentException("not a --commits run");
    }
    this.config = config;
    this.notices = notices;
    this.values = new ValueSource(BenchValueKind.BYTES, config.valueSize(), BenchRunner.SEED);
  }

  /**
   * @throws StoreFailedException if a store failed a commit, lost one, or its files could not be
   *     written
   */
  BenchReport run() throws InterruptedException {
    MachineFigures machine = new MachineFigures();
    List<StoreResult> results = new ArrayList<>();
    try {
      machine.fsyncMicros(FsyncProbe.medianMicros(config.directory(), FSYNC_PROBE_TIME));
      CommitPlan warmUp = warmUpPlan(config);
      for (StoreKind kind : config.stores()) {
        try {
          double warmUpSeconds = warmUp == null ? 0 : warmUp(kind, warmUp);
          try (CommitStore store = open(kind, config.storeDirectory(kind))) {
            double jitBefore = JitClock.millis();
            StoreResult result = measure(kind, store, config.commits());
            results.add(
                result
                    .put(Metric.WARMUP_SECS, warmUpSeconds)
                    .put(Metric.COMMIT_JIT_MS, JitClock.millis() - jitBefore));
          }
        } catch (StoreUnavailableException e) {
          notices.accept(kind.label() + " skipped: " + e.getMessage());
          machine.skip(kind, e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new StoreFailedException(
          "cannot write in " + config.directory() + ": " + e.getMessage(), e);
    }
    return new BenchReport(config, results, machine);
  }

  /** One round of the warm-up of a run (see the class comment), or null if {@code --warmup 0}. */
  static CommitPlan warmUpPlan(BenchConfig config) {
    CommitPlan plan = config.commits();
    if (config.warmupValues() == 0) {
      return null;
    }
    if (plan.byCount()) {
      return CommitPlan.forCount(Math.min(plan.count(), WARM_UP_MAX_COUNT));
    }
    return new CommitPlan(
        plan.duration().compareTo(WARM_UP_ROUND) < 0 ? plan.duration() : WARM_UP_ROUND, 0);
  }

  /** Warms {@code kind} up in rounds of {@code round} (see the class comment); returns seconds. */
  private double warmUp(StoreKind kind, CommitPlan round)
      throws IOException, StoreUnavailableException, InterruptedException {
    long start = System.nanoTime();
    Path first = config.directory().resolve(BenchDirectory.warmUpDirectoryName(kind));
    try (CommitStore store = open(kind, first)) {
      measure(kind, store, round);
    }
    BenchDirectory.deleteTree(first);
    if (round.byCount()) {
      return (System.nanoTime() - start) / 1e9;
    }
    Duration run = config.commits().duration();
    long limit = Math.min(WARM_UP_LIMIT.toNanos(), run.multipliedBy(WARM_UP_RUNS).toNanos());
    Path second = config.directory().resolve(BenchDirectory.secondWarmUpDirectoryName(kind));
    try (CommitStore store = open(kind, second)) {
      JitClock.Settling settling = new JitClock.Settling();
      boolean quiet = false;
      while (!quiet && System.nanoTime() - start < limit) {
        double jitBefore = JitClock.millis();
        measure(kind, store, round);
        quiet = settling.settledAfter(JitClock.millis() - jitBefore);
      }
    }
    BenchDirectory.deleteTree(second);
    return (System.nanoTime() - start) / 1e9;
  }

  private CommitStore open(StoreKind kind, Path directory)
      throws IOException, StoreUnavailableException {
    return switch (kind) {
      case PILE -> PileCommitStore.open(directory);
      case CACHE -> CacheCommitStore.open(directory);
      case ROCKSDB -> {
        try {
          yield RocksDbCommitStore.open(directory);
        } catch (LinkageError missingJar) {
          // rocksdbjni left off the class or module path: the class itself cannot load
          throw new StoreUnavailableException(
              "the rocksdbjni library is not on the class path (" + missingJar + ")", missingJar);
        }
      }
      case MAPPED, MAP -> throw new IllegalStateException(kind.label() + " does not commit");
    };
  }

  private StoreResult measure(StoreKind kind, CommitStore store, CommitPlan plan)
      throws InterruptedException {
    int threads = config.threads();
    long storedBefore = store.valueCount(); // a warm-up store commits in several rounds
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    Histogram[] latencies = new Histogram[threads];
    long[] commits = new long[threads];
    long[] finishNanos = new long[threads];
    Throwable[] failures = new Throwable[threads];
    AtomicBoolean failed = new AtomicBoolean();
    long[] deadline = new long[1];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      long share = plan.count() * (t + 1) / threads - plan.count() * t / threads;
      latencies[t] = new Histogram(MAX_RECORDED_NANOS, 3);
      workers[t] =
          Thread.ofPlatform()
              .name("bench-" + kind.label() + "-commit-" + t)
              .unstarted(
                  () -> {
                    ready.countDown();
                    try {
                      start.await();
                      commits[thread] =
                          commitLoop(
                              store,
                              thread,
                              plan.byCount() ? share : -1,
                              deadline[0],
                              latencies[thread],
                              failed);
                    } catch (Throwable e) {
                      failures[thread] = e;
                      failed.set(true);
                    }
                    finishNanos[thread] = System.nanoTime();
                  });
      workers[t].start();
    }
    ready.await();
    long startNanos = System.nanoTime();
    deadline[0] = startNanos + plan.duration().toNanos(); // published by start's countDown
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    for (Throwable failure : failures) {
      if (failure != null) {
        throw new StoreFailedException(
            kind.label() + " failed a commit: " + failure.getMessage(), failure);
      }
    }

    Histogram all = new Histogram(MAX_RECORDED_NANOS, 3);
    long total = 0;
    long lastFinish = startNanos;
    for (int t = 0; t < threads; t++) {
      all.add(latencies[t]);
      total += commits[t];
      lastFinish = Math.max(lastFinish, finishNanos[t]);
    }
    long stored = store.valueCount();
    if (stored >= 0 && storedBefore >= 0 && stored - storedBefore != total) {
      throw new StoreFailedException(
          kind.label()
              + " lost commits: it holds "
              + stored
              + " values, "
              + storedBefore
              + " from before the run and "
              + total
              + " acknowledged in it");
    }
    double seconds = Math.max(1, lastFinish - startNanos) / 1e9;
    return new StoreResult(kind)
        .put(Metric.COMMITS, (double) total)
        .put(Metric.COMMITS_PER_SEC, total / seconds)
        .put(Metric.COMMIT_P50_US, all.getValueAtPercentile(50) / 1e3)
        .put(Metric.COMMIT_P99_US, all.getValueAtPercentile(99) / 1e3)
        .put(Metric.COMMIT_P999_US, all.getValueAtPercentile(99.9) / 1e3)
        .put(Metric.COMMIT_MAX_US, all.getMaxValue() / 1e3);
  }

  /**
   * One thread's commits: {@code count} of them, or (count -1) until {@code deadlineNanos}, or
   * until another thread failed. Returns how many it made.
   */
  private long commitLoop(
      CommitStore store,
      int thread,
      long count,
      long deadlineNanos,
      Histogram latencies,
      AtomicBoolean failed) {
    long sequence = 0;
    while ((count >= 0 ? sequence < count : System.nanoTime() < deadlineNanos) && !failed.get()) {
      // stride the pool by thread, so that threads commit different values
      byte[] value = (byte[]) values.value((int) (sequence + 7919L * thread));
      long begin = System.nanoTime();
      store.commit(thread, sequence, value);
      latencies.recordValue(Math.min(System.nanoTime() - begin, MAX_RECORDED_NANOS));
      sequence++;
    }
    return sequence;
  }
}
