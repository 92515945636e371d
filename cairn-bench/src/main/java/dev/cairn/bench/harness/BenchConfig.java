package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * What one {@code cairn bench} run does.
 *
 * @param n values to put into each store, then get back
 * @param threads worker threads; the index range is split evenly among them
 * @param valueKind what each value is
 * @param valueSize characters of a string value, bytes of a byte[] value; unused for a Person
 * @param stores the stores to measure, in run order (pile before map), each once
 * @param getOrder in which order the gets visit the values
 * @param churnCycles after the gets, how many times to delete a random half of the values and put
 *     them back (0: none); the RSS growth this causes is reported as a share of the load's
 * @param directory where persistent stores keep their files, each in a subdirectory named by its
 *     label ({@link #storeDirectory}); null for a run in memory only
 * @param durability the persistent pile's durability
 * @param reopen after the load, close the persistent pile, reopen it and read every value back
 * @param dropCaches with {@code reopen}: try to drop the page cache first, so the reads are cold
 * @param commits the {@code --commits} workload instead of the load; null for another workload
 * @param recovery the {@code --recovery} workload instead of the load; null for another workload
 * @param latencyDuringCheckpoint how long each phase of the {@code --latency-during-checkpoint}
 *     workload puts; null for another workload
 * @param logFileBytes each log file of a persistent pile with a log, in bytes; 0 for the pile's
 *     default
 * @param hugePages whether the piles ask for transparent huge pages ({@code PileOptions.hugePages})
 * @param warmupValues values each store of the load workload puts and reads back in a throwaway
 *     store of its own kind before its timed run, so that JIT compilation is not timed (0: none; at
 *     most a tenth of n)
 * @param putRate with {@code --latency-during-checkpoint}: puts a second, all threads together,
 *     each timed from when it was due; 0 for as fast as possible
 * @param checkpointEveryMillis with {@code --latency-during-checkpoint}: a checkpoint starts this
 *     often (back to back when one takes longer); 0 for back to back throughout
 * @param pacing with {@code --rate}: how a thread waits for its next put's due time
 */
public record BenchConfig(
    int n,
    int threads,
    BenchValueKind valueKind,
    int valueSize,
    List<StoreKind> stores,
    GetOrder getOrder,
    int churnCycles,
    Path directory,
    Durability durability,
    boolean reopen,
    boolean dropCaches,
    CommitPlan commits,
    RecoveryPlan recovery,
    Duration latencyDuringCheckpoint,
    long logFileBytes,
    boolean hugePages,
    int warmupValues,
    int putRate,
    int checkpointEveryMillis,
    Pacing pacing) {

  /** The largest n: the pile's pointers are kept in one {@code long[n]}. */
  public static final int MAX_N = Integer.MAX_VALUE - 8;

  /** The largest value: well inside the pile's default 64 MiB segment. */
  public static final int MAX_VALUE_SIZE = 16 << 20;

  public static final int MAX_THREADS = 1024;

  /** The longest {@code --latency-during-checkpoint} phase. */
  public static final Duration MAX_LATENCY_DURATION = Duration.ofHours(1);

  /**
   * A Person's payload, for the check that a run fits the machine: the seed's Person encodes to 49
   * bytes, the bench's to 45 to 60.
   */
  private static final int PERSON_PAYLOAD_BYTES = 64;

  /**
   * @throws IllegalArgumentException naming the rule a setting breaks, and its value
   */
  public BenchConfig {
    if (n < 1 || n > MAX_N) {
      throw new IllegalArgumentException("n must be in [1, " + MAX_N + "]: n=" + n);
    }
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads must be in [1, " + MAX_THREADS + "]: threads=" + threads);
    }
    if (threads > n) {
      throw new IllegalArgumentException(
          "threads must not exceed n: threads=" + threads + " n=" + n);
    }
    if (valueSize < 1 || valueSize > MAX_VALUE_SIZE) {
      throw new IllegalArgumentException(
          "size must be in [1, " + MAX_VALUE_SIZE + "]: size=" + valueSize);
    }
    if (stores == null || stores.isEmpty()) {
      throw new IllegalArgumentException(
          "stores must name at least one of: pile, mapped, map, rocksdb");
    }
    if (putRate < 0) {
      throw new IllegalArgumentException("rate must not be negative: rate=" + putRate);
    }
    if (putRate > 0 && latencyDuringCheckpoint == null) {
      throw new IllegalArgumentException("--rate applies to --latency-during-checkpoint");
    }
    if (putRate > 0 && putRate < threads) {
      throw new IllegalArgumentException(
          "rate must give each thread a put a second at least: rate="
              + putRate
              + " threads="
              + threads);
    }
    if (pacing == null) {
      pacing = Pacing.PARK;
    }
    if (pacing != Pacing.PARK && putRate == 0) {
      throw new IllegalArgumentException("--pace applies to --rate");
    }
    if (checkpointEveryMillis < 0) {
      throw new IllegalArgumentException(
          "checkpoint interval must not be negative: checkpointEveryMs=" + checkpointEveryMillis);
    }
    if (checkpointEveryMillis > 0 && latencyDuringCheckpoint == null) {
      throw new IllegalArgumentException(
          "--checkpoint-every applies to --latency-during-checkpoint");
    }
    if (warmupValues < 0) {
      throw new IllegalArgumentException("warmup must not be negative: warmup=" + warmupValues);
    }
    // a tenth of n at most: the warm-up must not rival the run (with sync durability each put
    // of a persistent warm-up waits for an fsync), nor leave the map's heap far larger
    warmupValues = Math.min(warmupValues, n / 10);
    if (churnCycles < 0 || churnCycles > 1000) {
      throw new IllegalArgumentException("churn must be in [0, 1000]: churn=" + churnCycles);
    }
    if (valueKind == null || getOrder == null || durability == null) {
      throw new IllegalArgumentException("kind, get order and durability must be set");
    }
    if (latencyDuringCheckpoint != null
        && (latencyDuringCheckpoint.toSeconds() < 1
            || latencyDuringCheckpoint.compareTo(MAX_LATENCY_DURATION) > 0)) {
      throw new IllegalArgumentException(
          "seconds must be in [1, "
              + MAX_LATENCY_DURATION.toSeconds()
              + "]: seconds="
              + latencyDuringCheckpoint.toSeconds());
    }
    if (logFileBytes != 0 && (logFileBytes < (1L << 20) || logFileBytes % (1L << 20) != 0)) {
      throw new IllegalArgumentException(
          "log file size must be a whole number of MiB, at least 1: bytes=" + logFileBytes);
    }
    if (logFileBytes != 0 && (directory == null || durability == Durability.NONE)) {
      throw new IllegalArgumentException(
          "--log-file-mib needs --dir and durability periodic or sync: only then is there a log");
    }
    // an EnumSet drops repeats and restores run order, whatever order the user wrote
    stores = List.copyOf(EnumSet.copyOf(stores));
    int workloads =
        (commits != null ? 1 : 0)
            + (recovery != null ? 1 : 0)
            + (latencyDuringCheckpoint != null ? 1 : 0);
    if (workloads > 1) {
      throw new IllegalArgumentException(
          "give one of --commits, --recovery and --latency-during-checkpoint");
    }
    checkWorkload(stores, directory, durability, reopen, commits, churnCycles);
    if (commits == null && stores.contains(StoreKind.ROCKSDB) && !valueKind.sized()) {
      throw new IllegalArgumentException(
          "rocksdb stores bytes and strings, not --kind "
              + valueKind.label()
              + ": it would need a serializer the pile does not use");
    }
    if (recovery != null || latencyDuringCheckpoint != null) {
      checkPileWorkload(
          recovery != null ? "--recovery" : "--latency-during-checkpoint",
          stores,
          directory,
          reopen,
          churnCycles);
    }
    if (recovery != null && durability != Durability.PERIODIC) {
      throw new IllegalArgumentException(
          "--recovery fills the log with durability periodic (sync would take an fsync per put,"
              + " none keeps no log): durability="
              + durability.name().toLowerCase(Locale.ROOT));
    }
  }

  /** A run of the load workload or {@code --commits}: no warm-up, default log, no huge pages. */
  public BenchConfig(
      int n,
      int threads,
      BenchValueKind valueKind,
      int valueSize,
      List<StoreKind> stores,
      GetOrder getOrder,
      int churnCycles,
      Path directory,
      Durability durability,
      boolean reopen,
      boolean dropCaches,
      CommitPlan commits) {
    this(
        n,
        threads,
        valueKind,
        valueSize,
        stores,
        getOrder,
        churnCycles,
        directory,
        durability,
        reopen,
        dropCaches,
        commits,
        null,
        null,
        0,
        false,
        0,
        0,
        0,
        Pacing.PARK);
  }

  /** A run in memory only: the load workload, no persistent store. */
  public BenchConfig(
      int n,
      int threads,
      BenchValueKind valueKind,
      int valueSize,
      List<StoreKind> stores,
      GetOrder getOrder,
      int churnCycles) {
    this(
        n,
        threads,
        valueKind,
        valueSize,
        stores,
        getOrder,
        churnCycles,
        null,
        Durability.NONE,
        false,
        false,
        null,
        null,
        null,
        0,
        false,
        0,
        0,
        0,
        Pacing.PARK);
  }

  /** Sets on {@code builder} what the run chose: the log file size, huge pages. */
  public dev.cairn.pile.PileOptions.Builder tune(dev.cairn.pile.PileOptions.Builder builder) {
    builder.hugePages(hugePages);
    return logFileBytes == 0 ? builder : builder.logFileBytes(logFileBytes);
  }

  /** What the run measures. */
  public Workload workload() {
    if (commits != null) {
      return Workload.COMMITS;
    }
    if (recovery != null) {
      return Workload.RECOVERY;
    }
    return latencyDuringCheckpoint != null ? Workload.LATENCY_DURING_CHECKPOINT : Workload.LOAD;
  }

  /** The bytes a value's payload takes, about: its size, or a Person's typical encoding. */
  public int payloadBytesPerValue() {
    return valueKind.sized() ? valueSize : PERSON_PAYLOAD_BYTES;
  }

  /**
   * Whether {@code store} is a persistent pile: {@link StoreKind#MAPPED} always; {@link
   * StoreKind#PILE} when there is a directory and no mapped pile to compare it with.
   */
  public boolean persistentPile(StoreKind store) {
    return switch (store) {
      case MAPPED -> true;
      case PILE -> directory != null && !stores.contains(StoreKind.MAPPED);
      case MAP, ROCKSDB, CACHE -> false;
    };
  }

  /** Where {@code store} keeps its files: a subdirectory of {@link #directory()} named by it. */
  public Path storeDirectory(StoreKind store) {
    if (directory == null) {
      throw new IllegalStateException("no --dir: " + store.label() + " keeps no files");
    }
    return directory.resolve(store.label());
  }

  private static void checkWorkload(
      List<StoreKind> stores,
      Path directory,
      Durability durability,
      boolean reopen,
      CommitPlan commits,
      int churnCycles) {
    if (directory == null) {
      for (StoreKind needsFiles : List.of(StoreKind.MAPPED, StoreKind.ROCKSDB)) {
        if (stores.contains(needsFiles)) {
          throw new IllegalArgumentException(needsFiles.label() + " needs --dir");
        }
      }
      if (reopen) {
        throw new IllegalArgumentException("--reopen needs --dir: only a persistent pile reopens");
      }
      if (commits != null) {
        throw new IllegalArgumentException("--commits needs --dir: commits go to files");
      }
    }
    if (reopen && !stores.contains(StoreKind.PILE) && !stores.contains(StoreKind.MAPPED)) {
      throw new IllegalArgumentException("--reopen needs a pile among --stores (pile or mapped)");
    }
    if (commits == null) {
      if (stores.contains(StoreKind.CACHE)) {
        throw new IllegalArgumentException(
            "the cache store runs --commits only; for the cache's own workload: --workload cache");
      }
      return;
    }
    for (StoreKind store : stores) {
      if (!store.commits()) {
        throw new IllegalArgumentException(
            "--commits runs pile, rocksdb and cache only, not " + store.label());
      }
    }
    if (durability != Durability.SYNC) {
      throw new IllegalArgumentException(
          "--commits needs durability sync (a commit returns once durable): durability="
              + durability.name().toLowerCase(Locale.ROOT));
    }
    if (reopen || churnCycles > 0) {
      throw new IllegalArgumentException(
          "--reopen and --churn apply to the load, not to --commits");
    }
  }

  /** The rules of the workloads that crash or checkpoint one persistent pile. */
  private static void checkPileWorkload(
      String option, List<StoreKind> stores, Path directory, boolean reopen, int churnCycles) {
    if (directory == null) {
      throw new IllegalArgumentException(option + " needs --dir: it measures a persistent pile");
    }
    for (StoreKind store : stores) {
      if (store != StoreKind.PILE) {
        throw new IllegalArgumentException(
            option + " measures the pile only, not " + store.label());
      }
    }
    if (reopen || churnCycles > 0) {
      throw new IllegalArgumentException(
          "--reopen and --churn apply to the load, not to " + option);
    }
  }
}
