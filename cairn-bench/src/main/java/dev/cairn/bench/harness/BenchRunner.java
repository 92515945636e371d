package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a bench: for each store in turn, load n values with T threads, read them all back, and
 * measure throughput, memory and GC pauses; for a persistent pile, also its close and, with {@code
 * --reopen}, its restart ({@link ReopenBench}). The other workloads are handed on: {@code
 * --commits} to {@link CommitBench}, {@code --recovery} to {@link RecoveryBench}, {@code
 * --latency-during-checkpoint} to {@link CheckpointLatencyBench}.
 *
 * <p>Implementation notes
 *
 * <p><b>Order.</b> The pile runs first, then is closed, then the map runs. The pile's figures are
 * then taken on a small, clean heap, and its GC pauses are its own: had the map run first, its
 * gigabytes of heap would have been garbage (or still live) during the pile's run. The map loses
 * nothing by going second: the pile's native memory is returned to the OS on close, and a full GC
 * precedes every measurement. A mapped pile runs between them, after the volatile one it is
 * compared with.
 *
 * <p><b>One store's phase</b>, in this order:
 *
 * <ol>
 *   <li>the warm-up ({@code --warmup}): put and read back that many values in a throwaway store of
 *       the same kind (a persistent one in a sibling directory, deleted after), close it, and do it
 *       again in a second one ({@link #warmUp} says why twice). Why: the timed loops start cold
 *       otherwise, and JIT compilation of the put path (on 2 cores it competes with the puts) lands
 *       in the first store's put rate;
 *   <li>open the store (for the pile, its {@code long[n]} of pointers, the caller's index);
 *   <li>full GC, then read the live heap;
 *   <li>read RSS; start the GC window; timed puts; read RSS (the load's growth);
 *   <li>timed gets; end the GC window (so GC figures cover puts and gets, not our explicit GCs);
 *   <li>check the gets' checksum; full GC, then read the live heap again; the store's own account,
 *       then the RSS growth per value, or why it is unreliable ({@link MemoryGrowth});
 *   <li>a persistent pile: timed close (its final checkpoint), then the reopen, if asked.
 * </ol>
 */
public final class BenchRunner {
  /** Fixed, so that every run stores the same values. */
  static final long SEED = 0x5EED_CA1F_2025L;

  private final BenchConfig config;
  private final Progress.Factory progress;
  private final Consumer<String> notices;
  private final ValueSource values;
  private final ParallelLoop loop;

  public BenchRunner(BenchConfig config, Progress.Factory progress) {
    this(config, progress, notice -> {});
  }

  /**
   * @param notices told, one line each, what the run could not do as asked and went on without (a
   *     store that cannot load, a page cache that cannot be dropped)
   */
  public BenchRunner(BenchConfig config, Progress.Factory progress, Consumer<String> notices) {
    this.config = config;
    this.progress = progress;
    this.notices = notices;
    this.values = new ValueSource(config.valueKind(), config.valueSize(), SEED);
    this.loop = new ParallelLoop(config.threads(), values);
  }

  /**
   * Runs the configured workload: the commit, recovery or checkpoint-latency bench, else the load
   * on each configured store in turn (a store that is unavailable is skipped, with a notice).
   *
   * @throws StoreFailedException if a store returned wrong values, ran out of memory, or could not
   *     write its files
   */
  public BenchReport run() throws InterruptedException {
    switch (config.workload()) {
      case COMMITS -> {
        return new CommitBench(config, notices).run();
      }
      case RECOVERY -> {
        return new RecoveryBench(config, notices).run();
      }
      case LATENCY_DURING_CHECKPOINT -> {
        return new CheckpointLatencyBench(config, notices).run();
      }
      case LOAD -> {}
    }
    long expectedChecksum = values.expectedChecksum(config.n());
    List<StoreResult> results = new ArrayList<>();
    MachineFigures machine = new MachineFigures();
    try (GcPauseMonitor gc = new GcPauseMonitor()) {
      for (StoreKind store : config.stores()) {
        try {
          results.add(measure(store, gc, expectedChecksum, machine));
        } catch (StoreUnavailableException e) {
          notices.accept(store.label() + " skipped: " + e.getMessage());
          machine.skip(store, e.getMessage());
        }
      }
    }
    return new BenchReport(config, results, machine);
  }

  private StoreResult measure(
      StoreKind kind, GcPauseMonitor gc, long expectedChecksum, MachineFigures machine)
      throws InterruptedException, StoreUnavailableException {
    int n = config.n();
    StoreResult result = new StoreResult(kind);
    String name = kind.label();
    if (config.warmupValues() > 0) {
      warmUp(kind);
    }
    long openStart = System.nanoTime();
    try (BenchStore store = open(kind)) {
      if (store instanceof PileStore pile && pile.directory() != null) {
        // with --fresh (or a new --dir) this is the creation of a pile: its log files included
        result.put(Metric.OPEN_MS, (System.nanoTime() - openStart) / 1e6);
      }
      long heapBefore = ProcessMemory.liveHeapBytes();
      long rssBefore = ProcessMemory.residentBytes();
      GcPauseMonitor.Window window = gc.begin();
      ParallelLoop.Outcome puts =
          timed(
              name + " put",
              n,
              GetOrder.SEQUENTIAL,
              (i, buffer) -> {
                store.put(i, values.value(i));
                return 0;
              });
      long rssAfter = ProcessMemory.residentBytes();
      ParallelLoop.Outcome gets = timed(name + " get", n, config.getOrder(), store::get);
      GcPauses pauses = gc.end(window);

      if (gets.checksum() != expectedChecksum) {
        throw new StoreFailedException(
            name
                + " returned wrong values: get checksum="
                + gets.checksum()
                + " expected="
                + expectedChecksum);
      }
      long heapAfter = ProcessMemory.liveHeapBytes();

      result
          .put(Metric.PUTS_PER_SEC, puts.perSecond(n))
          .put(Metric.GETS_PER_SEC, gets.perSecond(n))
          .put(Metric.GC_MAX_PAUSE_MS, pauses.maxMillis())
          .put(Metric.GC_TOTAL_MS, pauses.totalMillis())
          .put(Metric.GC_PAUSES, (double) pauses.count());
      MemoryGrowth.liveHeap(result, heapAfter - heapBefore, n);
      store.reportAccounting(result, n);
      boolean rssMeasured = rssBefore >= 0 && rssAfter >= 0;
      if (rssMeasured) {
        MemoryGrowth.rss(result, rssAfter - rssBefore, n); // after the store's own account
      }
      if (config.churnCycles() > 0 && rssMeasured) {
        churn(store, name);
        long rssChurned = ProcessMemory.residentBytes();
        if (result.get(Metric.BYTES_PER_VALUE).isPresent()) {
          result.put(
              Metric.CHURN_RSS_GROWTH_PCT,
              100.0 * (rssChurned - rssAfter) / (rssAfter - rssBefore));
        } else {
          result.unreliable(
              Metric.CHURN_RSS_GROWTH_PCT,
              "a percentage of the load's RSS growth, which is unreliable");
        }
      }
      if (store instanceof PileStore pile && pile.directory() != null) {
        long closeStart = System.nanoTime();
        pile.close(); // the final checkpoint: with durability none, it writes every value
        result.put(Metric.CLOSE_SECS, (System.nanoTime() - closeStart) / 1e9);
        if (config.reopen()) {
          new ReopenBench(config, values, loop, progress, notices).measure(pile, result, machine);
        }
      }
      if (store instanceof RocksDbStore rocks) {
        long closeStart = System.nanoTime();
        rocks.close(); // flushes its memtable: a reopen then replays no log
        result.put(Metric.CLOSE_SECS, (System.nanoTime() - closeStart) / 1e9);
        if (config.reopen()) {
          reopenRocksDb(rocks, result);
        }
      }
    } catch (OutOfMemoryError e) {
      throw new StoreFailedException(
          name
              + " ran out of memory at n="
              + n
              + " ("
              + e.getMessage()
              + "): give the JVM more heap (JAVA_OPTS=-Xmx...), lower --n, or leave the map out"
              + " with --stores pile",
          e);
    }
    return result;
  }

  /**
   * Puts and reads back the warm-up's values in a throwaway store of {@code kind}, then again in a
   * second one. Why twice: a new store takes some branches once (its first segments; a persistent
   * pile's first write, which marks its superblock in use), and in the first store they run before
   * the code is profiled, so C2 compiles them as never taken; the timed store then trapped on them
   * and ran its first puts deoptimized while C2 recompiled (JFR {@code jdk.Deoptimization}: {@code
   * unstable_if} in {@code PersistentStore.admit} and {@code OffHeapPile.admit} at the timed
   * store's first put). The second store takes them with the code compiled.
   */
  private void warmUp(StoreKind kind) throws InterruptedException, StoreUnavailableException {
    for (int round = 1; round <= 2; round++) {
      warmUpIn(kind, kind.label() + " warm-up " + round);
    }
  }

  private void warmUpIn(StoreKind kind, String name)
      throws InterruptedException, StoreUnavailableException {
    int count = config.warmupValues();
    Path directory = null;
    BenchStore store;
    try {
      if (config.persistentPile(kind) || kind == StoreKind.ROCKSDB) {
        directory =
            config.storeDirectory(kind).resolveSibling(BenchDirectory.warmUpDirectoryName(kind));
        if (Files.exists(directory)) {
          BenchDirectory.deleteTree(directory); // left by a run that was killed
        }
        store =
            kind == StoreKind.ROCKSDB
                ? RocksDbStore.open(directory, config)
                : PileStore.open(directory, config);
      } else if (kind == StoreKind.MAP) {
        store = MapStore.of(config.valueKind(), count);
      } else {
        store = PileStore.offHeap(config.valueKind(), count, config.hugePages());
      }
    } catch (IOException e) {
      throw new StoreFailedException(
          name + " could not open its files in " + directory + ": " + e, e);
    }
    try (store) {
      timed(
          name + " put",
          count,
          GetOrder.SEQUENTIAL,
          (i, buffer) -> {
            store.put(i, values.value(i));
            return 0;
          });
      timed(name + " get", count, config.getOrder(), store::get);
    }
    if (directory != null) {
      try {
        BenchDirectory.deleteTree(directory);
      } catch (IOException e) {
        throw new StoreFailedException(
            "cannot delete the warm-up pile in " + directory + ": " + e, e);
      }
    }
  }

  /**
   * {@code --reopen} for RocksDB, what the pile's {@link ReopenBench} measures first: from a cold
   * cache if it can be dropped, the first get after reopening in this JVM, then a restart in a new
   * one.
   */
  private void reopenRocksDb(RocksDbStore closed, StoreResult result)
      throws InterruptedException, StoreUnavailableException {
    boolean cold = config.dropCaches() && PageCache.drop();
    byte[] buffer = values.newBuffer();
    long openStart = System.nanoTime();
    try (RocksDbStore reopened = RocksDbStore.open(closed.directory(), config)) {
      long checksum = reopened.get(0, buffer);
      result.put(Metric.REOPEN_FIRST_GET_MS, (System.nanoTime() - openStart) / 1e6);
      if (checksum != values.expectedChecksum(1)) {
        throw new StoreFailedException("rocksdb returned a wrong value for index 0 after reopen");
      }
    } catch (IOException e) {
      throw new StoreFailedException("rocksdb could not be reopened: " + e.getMessage(), e);
    }
    if (cold) {
      PageCache.drop();
    }
    ReopenBench.restartInANewJvm(
        FirstGetProbe.rocksDbCommand(closed.directory(), config), result, "rocksdb");
  }

  private BenchStore open(StoreKind kind) throws StoreUnavailableException {
    try {
      return kind.open(config);
    } catch (IOException e) {
      throw new StoreFailedException(
          kind.label() + " could not open its files in " + config.storeDirectory(kind) + ": " + e,
          e);
    }
  }

  /** Deletes a random half of the values and puts them back, {@code churnCycles} times. */
  private void churn(BenchStore store, String name) throws InterruptedException {
    int n = config.n();
    for (int cycle = 0; cycle < config.churnCycles(); cycle++) {
      long salt = SEED + cycle;
      timed(
          name + " churn delete " + (cycle + 1),
          n,
          GetOrder.RANDOM,
          (i, buffer) -> {
            if (inChurnHalf(i, salt)) {
              store.delete(i);
            }
            return 0;
          });
      timed(
          name + " churn refill " + (cycle + 1),
          n,
          GetOrder.RANDOM,
          (i, buffer) -> {
            if (inChurnHalf(i, salt)) {
              store.put(i, values.value(i));
            }
            return 0;
          });
    }
  }

  private static boolean inChurnHalf(int index, long salt) {
    long h = (index + salt) * 0x9E3779B97F4A7C15L;
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return (h >>> 63) == 0;
  }

  private ParallelLoop.Outcome timed(
      String task, int n, GetOrder order, ParallelLoop.IndexOperation operation)
      throws InterruptedException {
    try (Progress bar = progress.start(task, n)) {
      return loop.run("bench-" + task.replace(' ', '-'), n, order, operation, bar);
    }
  }
}
