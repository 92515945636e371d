package dev.cairn.bench.cache;

import dev.cairn.bench.harness.BenchDirectory;
import dev.cairn.pile.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A run of {@code cairn bench --workload cache}.
 *
 * @param n keys, 0 to n - 1
 * @param threads threads of every phase
 * @param valueBytes the length of every value (at least 16: key and version)
 * @param seconds each measured phase's length
 * @param zipfTheta the exponent of the Zipfian phases
 * @param keys the n keys: 0..n-1, or as many scattered over the longs
 * @param warmupKeys keys each store's JVM loads into a throwaway store of the same kind before its
 *     timed load, in rounds until the JIT is quiet (at most a tenth of n; 0 for none), so that JIT
 *     compilation is not timed
 * @param budgetFraction 0, or the bounded workload with a budget of this fraction of the data's
 *     bytes (n x (8 + valueBytes))
 * @param stores the stores, in the order they run
 * @param directory where Cairn's cache is persistent (in {@code DIR/cache}), or null for volatile
 * @param durability the persistent cache's durability
 * @param reopen whether to reopen the persistent cache and restart it in new JVMs
 * @param dropCaches whether to drop the page cache before each reopen or restart, when allowed
 * @param writeBeforeKillSeconds with {@code reopen}: how long a new JVM overwrites random keys
 *     before SIGKILL, so that the restart after it has that much log to replay
 * @param hugePages whether Cairn's cache asks for transparent huge pages (its default options do)
 * @param seed the random sources' seed, printed in the report
 * @param rounds how many times every store runs, in alternating order (the stores as given, then
 *     reversed), each figure reported as its median over the rounds; 1 for a single run
 */
public record CacheBenchConfig(
    long n,
    int threads,
    int valueBytes,
    double seconds,
    double zipfTheta,
    KeyOrder keys,
    long warmupKeys,
    double budgetFraction,
    List<CacheStoreKind> stores,
    Path directory,
    Durability durability,
    boolean reopen,
    boolean dropCaches,
    double writeBeforeKillSeconds,
    boolean hugePages,
    long seed,
    int rounds) {

  /** How long the writer runs before SIGKILL when --write-before-kill is not given. */
  public static final double DEFAULT_WRITE_BEFORE_KILL_SECONDS = 1;

  /** The most rounds a run takes: each is a JVM per store, minutes apiece at the default n. */
  public static final int MAX_ROUNDS = 100;

  /** The stores run when --stores is not given. */
  public static final List<CacheStoreKind> DEFAULT_STORES =
      List.of(
          CacheStoreKind.CAIRN,
          CacheStoreKind.CHM,
          CacheStoreKind.CAFFEINE,
          CacheStoreKind.CHRONICLE,
          CacheStoreKind.EHCACHE);

  /**
   * Checks the combination.
   *
   * @throws IllegalArgumentException naming the rule broken
   */
  public CacheBenchConfig {
    Objects.requireNonNull(stores, "stores");
    Objects.requireNonNull(durability, "durability");
    Objects.requireNonNull(keys, "keys");
    if (n < 2) {
      throw new IllegalArgumentException("--n must be at least 2 for --workload cache: " + n);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("--threads must be at least 1: " + threads);
    }
    if (valueBytes < Values.MIN_BYTES) {
      throw new IllegalArgumentException(
          "--size must be at least " + Values.MIN_BYTES + " for --workload cache: " + valueBytes);
    }
    if (!(seconds > 0)) {
      throw new IllegalArgumentException("--seconds must be positive: " + seconds);
    }
    if (warmupKeys < 0) {
      throw new IllegalArgumentException("--warmup must not be negative: " + warmupKeys);
    }
    warmupKeys = Math.min(warmupKeys, n / 10);
    if (budgetFraction < 0 || budgetFraction >= 1) {
      throw new IllegalArgumentException(
          "--budget-fraction must be above 0 and below 1: " + budgetFraction);
    }
    if (stores.isEmpty()) {
      throw new IllegalArgumentException("--stores names no store");
    }
    if (reopen && directory == null) {
      throw new IllegalArgumentException("--reopen needs --dir");
    }
    if (!(writeBeforeKillSeconds > 0)) {
      throw new IllegalArgumentException(
          "--write-before-kill must be positive: " + writeBeforeKillSeconds);
    }
    if (reopen && budgetFraction > 0) {
      throw new IllegalArgumentException("--reopen runs without --budget-fraction");
    }
    if (rounds < 1 || rounds > MAX_ROUNDS) {
      throw new IllegalArgumentException(
          "--rounds must be from 1 to " + MAX_ROUNDS + ": " + rounds);
    }
    stores = List.copyOf(stores);
  }

  /**
   * The stores in the order round {@code round} (from 0) runs them: as given in even rounds,
   * reversed in odd ones, so that no store always runs first, on a machine still settling, or last.
   */
  public List<CacheStoreKind> storesInRound(int round) {
    return round % 2 == 0 ? stores : stores.reversed();
  }

  /** Whether this is the bounded workload. */
  public boolean bounded() {
    return budgetFraction > 0;
  }

  /** The budget each store is bounded by, or 0. */
  public long budgetBytes() {
    return (long) (budgetFraction * n * (Long.BYTES + valueBytes));
  }

  /**
   * Where Cairn's throwaway warm-up cache lives, beside the measured one (deleted after each
   * warm-up), or null.
   */
  public Path warmupDirectory() {
    return directory == null ? null : directory.resolve(BenchDirectory.CACHE_WARMUP_DIRECTORY);
  }

  /** Where Cairn's persistent cache lives, or null. */
  public Path cacheDirectory() {
    return directory == null ? null : directory.resolve(BenchDirectory.CACHE_DIRECTORY);
  }
}
