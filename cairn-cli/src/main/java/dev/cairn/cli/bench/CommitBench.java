package dev.cairn.cli.bench;

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
 * The {@code --commits} workload: T threads each commit values of {@code --size} bytes, one put
 * per durable commit, for a fixed time or count, against each store in turn (the pile, then
 * RocksDB); and, first, the machine's raw fsync latency ({@link FsyncProbe}), which bounds them.
 *
 * <p>Implementation notes
 *
 * <p><b>What is timed.</b> A commit's latency runs from the call to its return, as the caller
 * waits for it; every commit is recorded, in nanoseconds, in its thread's own {@link Histogram}
 * (no shared counter to contend on), and the histograms are added after the run. The rate is all
 * commits over the time from the threads' common release to the last one's finish.
 *
 * <p><b>Values</b> are byte[]s from a {@link ValueSource} of kind bytes, the same for every store
 * (a string value would cost the pile an encoding that RocksDB, given bytes, would not pay).
 *
 * <p><b>Warm-up.</b> Before its timed run, each store commits the same way into a throwaway
 * store of its own kind ({@code DIR/<store>-warmup}, deleted afterwards) for {@link
 * #warmUpPlan}: two seconds, or at most {@value #WARM_UP_MAX_COUNT} commits of a run by count.
 * Without it the pile's first second ran interpreted and compiling (JFR: nearly two thirds of the commits that waited
 * more than 2 ms fell in that second), a cost RocksDB's native code does not pay, and the put
 * load's runs warm up the same way ({@code --warmup}). {@code --warmup 0} turns it off.
 *
 * <p><b>No progress bar</b>: a run lasts seconds, and a commit's latency is what is measured; a
 * bar's redraws would be one more thread competing for two cores.
 */
final class CommitBench {
  /** Longer commits are recorded as this: a commit stalled a minute has failed anyway. */
  private static final long MAX_RECORDED_NANOS = TimeUnit.MINUTES.toNanos(1);

  private static final Duration FSYNC_PROBE_TIME = Duration.ofSeconds(1);

  static final Duration WARM_UP_TIME = Duration.ofSeconds(2);
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
          if (warmUp != null) {
            warmUp(kind, warmUp);
          }
          try (CommitStore store = open(kind, config.storeDirectory(kind))) {
            results.add(measure(kind, store, config.commits()));
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

  /** The warm-up of a run (see the class comment), or null if {@code --warmup 0}. */
  static CommitPlan warmUpPlan(BenchConfig config) {
    CommitPlan plan = config.commits();
    if (config.warmupValues() == 0) {
      return null;
    }
    if (plan.byCount()) {
      return CommitPlan.forCount(Math.min(plan.count(), WARM_UP_MAX_COUNT));
    }
    return new CommitPlan(
        plan.duration().compareTo(WARM_UP_TIME) < 0 ? plan.duration() : WARM_UP_TIME, 0);
  }

  private void warmUp(StoreKind kind, CommitPlan plan)
      throws IOException, StoreUnavailableException, InterruptedException {
    Path directory = config.directory().resolve(BenchDirectory.warmUpDirectoryName(kind));
    try (CommitStore store = open(kind, directory)) {
      measure(kind, store, plan);
    }
    BenchDirectory.deleteTree(directory);
  }

  private CommitStore open(StoreKind kind, Path directory)
      throws IOException, StoreUnavailableException {
    return switch (kind) {
      case PILE -> PileCommitStore.open(directory);
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
                          commitLoop(store, thread, plan.byCount() ? share : -1, deadline[0],
                              latencies[thread], failed);
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
    if (stored >= 0 && stored != total) {
      throw new StoreFailedException(
          kind.label() + " lost commits: it holds " + stored + " values after " + total
              + " acknowledged commits");
    }
    double seconds = Math.max(1, lastFinish - startNanos) / 1e9;
    return new StoreResult(kind)
        .put(Metric.COMMITS, total)
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
