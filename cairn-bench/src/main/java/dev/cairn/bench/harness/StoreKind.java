package dev.cairn.bench.harness;

import java.io.IOException;
import java.util.Locale;

/**
 * A store the bench can measure. Declaration order is run order: see {@link BenchRunner}.
 *
 * <p>Two workloads exist: the load (puts, then gets, of n values), which every kind runs ({@link
 * #ROCKSDB} with {@code --dir}, for values of bytes or strings), and {@code --commits} (durable
 * single-put commits), which {@link #PILE} and {@link #ROCKSDB} run.
 */
public enum StoreKind {
  /**
   * A {@link dev.cairn.pile.Pile} with default options: in native memory, or persistent in {@code
   * --dir} when no {@link #MAPPED} pile runs beside it (see {@link BenchConfig#persistentPile}).
   */
  PILE,
  /** A persistent pile in {@code --dir}, measured beside a volatile {@link #PILE} in one run. */
  MAPPED,
  /**
   * A {@code ConcurrentHashMap<Long, byte[]>} on the Java heap (of {@code Person} objects for
   * {@code --kind person}): the baseline.
   */
  MAP,
  /**
   * RocksDB through its JNI binding, in {@code --dir}: the baseline for durable commits, and for a
   * restart with {@code --reopen}.
   */
  ROCKSDB,
  /**
   * A persistent Cairn cache in {@code --dir} (a {@code LongCacheTable} of byte[], each put its
   * entry and its index slot in one log record): {@code --commits} only, beside the pile, to show
   * what the index adds to a durable put.
   */
  CACHE;

  /**
   * The kind named {@code label} on the command line.
   *
   * @throws IllegalArgumentException naming the stores there are
   */
  public static StoreKind of(String label) {
    for (StoreKind kind : values()) {
      if (kind.label().equals(label.toLowerCase(Locale.ROOT))) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown store: " + label + " (expected pile, mapped, map, rocksdb or cache)");
  }

  /** The name used on the command line and in the reports. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether it runs the {@code --commits} workload. */
  public boolean commits() {
    return this == PILE || this == ROCKSDB || this == CACHE;
  }

  /**
   * Opens this store for the load workload.
   *
   * @throws StoreUnavailableException if RocksDB's native library does not load here
   */
  BenchStore open(BenchConfig config) throws IOException, StoreUnavailableException {
    return switch (this) {
      case PILE, MAPPED ->
          config.persistentPile(this)
              ? PileStore.open(config.storeDirectory(this), config)
              : PileStore.offHeap(config.valueKind(), config.n(), config.hugePages());
      case MAP -> MapStore.of(config.valueKind(), config.n());
      case ROCKSDB -> RocksDbStore.open(config.storeDirectory(this), config);
      case CACHE -> throw new IllegalStateException("cache runs --commits only (BenchConfig)");
    };
  }
}
