package dev.cairn.bench.cache;

import dev.cairn.bench.harness.BenchDirectory;
import dev.cairn.bench.harness.ChildArguments;
import dev.cairn.bench.harness.GcPauseMonitor;
import dev.cairn.bench.harness.GcPauses;
import dev.cairn.bench.harness.JitClock;
import dev.cairn.bench.harness.PageCache;
import dev.cairn.bench.harness.ProcessMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One store's run of the cache workload, in a JVM of its own (started by {@link CacheBench}), so
 * that no store inherits another's heap, JIT state or native memory. Prints each figure as a line
 * {@code RESULT name value}; the parent reads them.
 *
 * <p>Without a budget: a warm-up (rounds of the keys of {@code warmup} loaded into a throwaway
 * store of the same kind until the JIT is quiet, persistent ones in {@code warmupDir}, deleted
 * after; see {@link #warmUp}), then the load of n keys (loadPerSec; loadJitMs, the JIT's compiling
 * during it; and bytesPerEntry: growth of the process's RSS across it, each end after a System.gc()
 * and once the RSS has settled), a short unmeasured mix to warm the JIT, then the uniform and the
 * Zipfian 90/10 mixes (mixed*OpsPerSec; get latency percentiles over every get of both), and the
 * longest GC pause of all that, but for the bench's own System.gc() between the load and the mixes
 * (a full collection made to measure the RSS, not a pause of the store's). With {@code reopen}: the
 * store is closed (closeMs), the page cache dropped if allowed, and the store reopened and timed to
 * its first hit (reopenFirstHitMs). With a budget: only the bounded workload, after an unmeasured
 * phase as long that fills the cache (boundedOpsPerSec, hitRatio).
 *
 * <p>Arguments: {@code name=value} pairs, see {@link CacheBench#childArguments}.
 */
public final class CacheBenchChild {
  /** At most this many warm-up rounds, however busy the JIT stays. */
  private static final int WARM_UP_ROUNDS = 12;

  /** No new warm-up round starts after this long. */
  private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(30);

  /**
   * The log files of a persistent warm-up store: small, so that each round crosses checkpoints and
   * wraps of the log as the timed load does. With the pile's default (a 1 GiB log, a checkpoint
   * each 256 MiB of it), a round of 1M keys wrote about 251 MB of log and reached no checkpoint,
   * and the JIT compiled for 4.2-5.3 s of the timed 10M-key load (loadJitMs, 2026-11-29): the
   * checkpoints' code, and the writers' code again as the first waits for log space and the first
   * checkpoints took branches it had compiled as never taken.
   */
  private static final long WARM_UP_LOG_FILE_BYTES = 16L << 20;

  private CacheBenchChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> arguments = ChildArguments.parse(args);
    CacheStoreKind kind = CacheStoreKind.of(arguments.get("store"));
    long n = Long.parseLong(arguments.get("n"));
    int threads = Integer.parseInt(arguments.get("threads"));
    int valueBytes = Integer.parseInt(arguments.get("size"));
    double seconds = Double.parseDouble(arguments.get("seconds"));
    double theta = Double.parseDouble(arguments.get("theta"));
    long budget = Long.parseLong(arguments.get("budget"));
    String dir = arguments.get("dir");
    boolean reopen = Boolean.parseBoolean(arguments.get("reopen"));
    long seed = Long.parseLong(arguments.get("seed"));
    KeyOrder keys = KeyOrder.of(arguments.get("keys"));
    StoreSpec spec =
        new StoreSpec(
            n,
            valueBytes,
            budget,
            dir.isEmpty() ? null : Path.of(dir),
            ChildArguments.durability(arguments.get("durability")),
            Boolean.parseBoolean(arguments.get("huge")));

    // the monitor before the warm-up: each collection's notification is parsed (JMX's
    // CompositeData) on a thread of the JVM's, code that was first run, and compiled, inside the
    // timed load of every store that makes garbage; its windows count only what they span
    try (GcPauseMonitor gc = new GcPauseMonitor()) {
      ZipfKeys zipf = new ZipfKeys(n, theta); // before the baseline: its cost is not the store's
      if (!spec.bounded()) {
        long warmup = Long.parseLong(arguments.get("warmup"));
        String warmupDir = arguments.get("warmupDir");
        Path warmupPath = warmupDir.isEmpty() ? null : Path.of(warmupDir);
        warmUp(kind, spec, warmup, warmupPath, threads, keys, seed);
      }
      System.gc();
      long rssBefore = ProcessMemory.settledResidentBytes();
      GcPauseMonitor.Window window = gc.begin();
      GcPauses closed = new GcPauses(0, 0, 0); // the pauses of the windows closed so far
      CacheStore store = kind.open(spec);
      CachePhases phases = new CachePhases(store, n, threads, valueBytes, seed, keys);
      if (spec.bounded()) {
        phases.bounded(seconds, zipf); // fills the cache, warms the JIT
        PhaseStats bounded = phases.bounded(seconds, zipf);
        result("boundedOpsPerSec", bounded.operations / seconds);
        result("hitRatio", bounded.hits / (double) bounded.gets);
        result("entriesHeld", (double) store.size());
        latencies(bounded);
      } else {
        double jitBefore = JitClock.millis();
        long start = System.nanoTime();
        PhaseStats load = phases.load();
        result("loadPerSec", load.operations / ((System.nanoTime() - start) / 1e9));
        double jitMillis = JitClock.millis() - jitBefore; // compiling the warm-up left
        if (!Double.isNaN(jitMillis)) { // NaN: a JVM that does not time its JIT
          result("loadJitMs", jitMillis);
        }
        closed = gc.end(window);
        System.gc(); // the bench's, for the RSS: outside the windows of the store's pauses
        result("bytesPerEntry", (ProcessMemory.settledResidentBytes() - rssBefore) / (double) n);
        window = gc.begin();
        phases.mixed(Math.min(2, seconds / 5), null); // the JIT's turn, unmeasured
        PhaseStats uniform = phases.mixed(seconds, null);
        result("mixedUniformOpsPerSec", uniform.operations / seconds);
        PhaseStats skewed = phases.mixed(seconds, zipf);
        result("mixedZipfOpsPerSec", skewed.operations / seconds);
        latencies(uniform.add(skewed));
      }
      GcPauses pauses = closed.plus(gc.end(window));
      result("gcMaxPauseMs", pauses.maxMillis());
      result("gcTotalPauseMs", pauses.totalMillis());
      long closeStart = System.nanoTime();
      store.close();
      result("closeMs", (System.nanoTime() - closeStart) / 1e6);
      if (reopen) {
        reopen(kind, spec, n, keys, valueBytes, seed, Boolean.parseBoolean(arguments.get("drop")));
      }
    }
    System.out.flush();
  }

  /**
   * Loads {@code count} of the run's keys into a throwaway store of {@code kind} and closes it, in
   * rounds, each into a new store, until {@link JitClock#QUIET_ROUNDS} rounds in a row compiled for
   * less than {@link JitClock#QUIET_MILLIS} each, or {@link #WARM_UP_ROUNDS} rounds, or {@link
   * #WARM_UP_LIMIT}; reports the rounds as warmUpRounds. Why: the timed load starts cold otherwise,
   * and the JIT's compilation of the put path (on 2 cores it competes with the puts) and the first
   * use of the store's classes land in its rate; a store whose put runs through more code pays more
   * of it. With two rounds, the JIT still compiled for 470-660 ms of Cairn's 10M-key load (about 4
   * s) and 760-1,800 ms of its JCache provider's (loadJitMs, 2026-11-29). Why new stores: a new
   * store takes some branches once (its first segments), and in the first store they run before the
   * code is profiled, so C2 compiles them as never taken and the next store runs them deoptimized
   * (the pile workload's warm-up, BenchRunner, met this). A persistent store warms up in {@code
   * directory} (null for a volatile one), deleted before and after each round. The garbage a heap
   * store leaves is collected before the load's baseline is read.
   */
  private static void warmUp(
      CacheStoreKind kind,
      StoreSpec spec,
      long count,
      Path directory,
      int threads,
      KeyOrder keys,
      long seed)
      throws InterruptedException, IOException {
    if (count == 0) {
      return;
    }
    StoreSpec warm =
        new StoreSpec(
            count,
            spec.valueBytes(),
            0,
            directory,
            spec.durability(),
            spec.hugePages(),
            WARM_UP_LOG_FILE_BYTES);
    JitClock.Settling settling = new JitClock.Settling();
    long start = System.nanoTime();
    int rounds = 0;
    boolean settled = false;
    while (!settled
        && rounds < WARM_UP_ROUNDS
        && System.nanoTime() - start < WARM_UP_LIMIT.toNanos()) {
      if (warm.directory() != null && Files.exists(warm.directory())) {
        BenchDirectory.deleteTree(warm.directory());
      }
      double jitBefore = JitClock.millis();
      try (CacheStore store = kind.open(warm)) {
        new CachePhases(store, count, threads, spec.valueBytes(), seed, keys).load();
      }
      if (warm.directory() != null) {
        BenchDirectory.deleteTree(warm.directory());
      }
      settled = settling.settledAfter(JitClock.millis() - jitBefore);
      rounds++;
    }
    result("warmUpRounds", rounds);
  }

  /** Reopens a closed persistent store, times its first hit, then reads a sample of keys. */
  private static void reopen(
      CacheStoreKind kind,
      StoreSpec spec,
      long n,
      KeyOrder keys,
      int valueBytes,
      long seed,
      boolean drop)
      throws InterruptedException {
    result("coldCache", drop && PageCache.drop() ? 1 : 0);
    SplittableRandom random = new SplittableRandom(seed);
    long key = keys.key(random.nextLong(n));
    byte[] read = new byte[valueBytes];
    long start = System.nanoTime();
    try (CacheStore store = kind.open(spec)) {
      long opened = System.nanoTime();
      int length = store.get(key, read);
      long hit = System.nanoTime();
      Values.check(read, length, key, valueBytes);
      result("reopenOpenMs", (opened - start) / 1e6);
      result("reopenFirstHitMs", (hit - start) / 1e6);
      for (int i = 0; i < 100_000; i++) {
        long k = keys.key(random.nextLong(n));
        Values.check(read, store.get(k, read), k, valueBytes);
      }
    }
  }

  private static void latencies(PhaseStats stats) {
    result("getP50Micros", stats.getNanos.getValueAtPercentile(50) / 1e3);
    result("getP99Micros", stats.getNanos.getValueAtPercentile(99) / 1e3);
    result("getP999Micros", stats.getNanos.getValueAtPercentile(99.9) / 1e3);
    result("getP9999Micros", stats.getNanos.getValueAtPercentile(99.99) / 1e3);
    result("getMaxMicros", stats.getNanos.getMaxValue() / 1e3);
  }

  static void result(String name, double value) {
    System.out.println("RESULT " + name + " " + value);
  }
}
