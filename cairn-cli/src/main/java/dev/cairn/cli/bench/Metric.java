package dev.cairn.cli.bench;

/**
 * A figure the bench reports for a store. The report (table, JSON, ratios) is derived from this
 * list, so a new figure (say {@code reopenFirstGetMs} or {@code commitsPerSec}) is one constant
 * here plus the line that measures it.
 *
 * <p>The first five are the spec's fixed JSON keys and must keep their names; so are {@code
 * reopenFirstGetMs}, {@code readAllSecs} and {@code commitsPerSec}.
 */
public enum Metric {
  PUTS_PER_SEC("putsPerSec", "puts/s", 0, true),
  GETS_PER_SEC("getsPerSec", "gets/s", 0, true),
  /** Growth of the process's resident set (VmRSS) while the store was loaded, divided by n. */
  BYTES_PER_VALUE("bytesPerValue", "bytes/value (RSS growth)", 1, false),
  /** Longest single stop-the-world GC pause during the store's puts and gets. */
  GC_MAX_PAUSE_MS("gcMaxPauseMs", "GC max pause ms", 1, false),
  /** Sum of GC pause times during the store's puts and gets. */
  GC_TOTAL_MS("gcTotalMs", "GC total pause ms", 1, false),
  /** Number of GC pauses during the store's puts and gets. */
  GC_PAUSES("gcPauses", "GC pauses", 0, false),
  /** Growth of the live heap (measured after a full GC) from before to after the load, by n. */
  HEAP_BYTES_PER_VALUE("heapBytesPerValue", "bytes/value (live heap)", 1, false),
  /** The pile's own account: {@code PileStats.capacityBytes() / n}, what it took from the OS. */
  CAPACITY_BYTES_PER_VALUE("capacityBytesPerValue", "bytes/value (pile capacity)", 1, false),
  /** The pile's own account: {@code PileStats.allocatedBytes() / n}, headers included. */
  ALLOCATED_BYTES_PER_VALUE("allocatedBytesPerValue", "bytes/value (pile allocated)", 1, false),
  /**
   * With {@code --churn}: RSS growth over all churn cycles (delete a random half, put it back),
   * as a percentage of the RSS growth of the initial load.
   */
  CHURN_RSS_GROWTH_PCT("churnRssGrowthPct", "RSS growth after churn %", 1, false),
  /**
   * A persistent pile: the time its close took, which writes a checkpoint of everything not yet
   * in its files (with durability none, the whole load).
   */
  CLOSE_SECS("closeSecs", "close s (final checkpoint)", 2, false),
  /** With {@code --reopen}: from just before {@code Pile.open} to the first get's value. */
  REOPEN_FIRST_GET_MS("reopenFirstGetMs", "reopen to first get ms", 1, false),
  /** With {@code --reopen}: time to get every value back after the reopen, in index order. */
  READ_ALL_SECS("readAllSecs", "read all after reopen s", 2, false),
  /** With {@code --reopen}: bytes of the segment files, by {@link #READ_ALL_SECS}, in MB/s. */
  READ_ALL_MBPS("readAllMBps", "read all after reopen MB/s", 1, true),
  /** With {@code --commits}: durable single-put commits, all threads together. */
  COMMITS("commits", "commits", 0, true),
  COMMITS_PER_SEC("commitsPerSec", "commits/s", 0, true),
  /** With {@code --commits}: a commit's latency, from the call to its return, median. */
  COMMIT_P50_US("commitP50Us", "commit p50 us", 1, false),
  COMMIT_P99_US("commitP99Us", "commit p99 us", 1, false),
  COMMIT_P999_US("commitP999Us", "commit p99.9 us", 1, false),
  COMMIT_MAX_US("commitMaxUs", "commit max us", 1, false);

  private final String key;
  private final String label;
  private final int decimals;
  private final boolean higherIsBetter;

  Metric(String key, String label, int decimals, boolean higherIsBetter) {
    this.key = key;
    this.label = label;
    this.decimals = decimals;
    this.higherIsBetter = higherIsBetter;
  }

  /** The JSON key. */
  public String key() {
    return key;
  }

  /** The table's row label. */
  public String label() {
    return label;
  }

  /** Decimal places worth showing: the figures are not more precise than that. */
  public int decimals() {
    return decimals;
  }

  /** Whether a larger pile/map ratio is a better result for the pile. */
  public boolean higherIsBetter() {
    return higherIsBetter;
  }
}
