package dev.cairn.bench.harness;

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
  /**
   * Growth of the process's resident set (VmRSS) while the store was loaded, divided by n; marked
   * unreliable (null in the JSON) when the growth is too small to tell from the JVM's own, or
   * smaller than the pile's own account ({@link MemoryGrowth}).
   */
  BYTES_PER_VALUE("bytesPerValue", "bytes/value (RSS growth)", 1, false),
  /**
   * Longest single stop-the-world GC pause during the store's puts and gets (with {@code
   * --latency-during-checkpoint}: during the checkpointing phase).
   */
  GC_MAX_PAUSE_MS("gcMaxPauseMs", "GC max pause ms", 1, false),
  /** Sum of GC pause times during the store's puts and gets. */
  GC_TOTAL_MS("gcTotalMs", "GC total pause ms", 1, false),
  /** Number of GC pauses during the store's puts and gets (or the checkpointing phase). */
  GC_PAUSES("gcPauses", "GC pauses", 0, false),
  /** Growth of the live heap (measured after a full GC) from before to after the load, by n. */
  HEAP_BYTES_PER_VALUE("heapBytesPerValue", "bytes/value (live heap)", 1, false),
  /** The pile's own account: {@code PileStats.capacityBytes() / n}, what it took from the OS. */
  CAPACITY_BYTES_PER_VALUE("capacityBytesPerValue", "bytes/value (pile capacity)", 1, false),
  /** The pile's own account: {@code PileStats.allocatedBytes() / n}, headers included. */
  ALLOCATED_BYTES_PER_VALUE("allocatedBytesPerValue", "bytes/value (pile allocated)", 1, false),
  /**
   * The pile's own account: {@code PileStats.utilizedBytes() / n}, the payload the caller stored: a
   * string's UTF-8, a Person's encoding. What the pile adds is the other figures less this.
   */
  PAYLOAD_BYTES_PER_VALUE("payloadBytesPerValue", "bytes/value (pile payload)", 1, false),
  /**
   * With {@code --churn}: RSS growth over all churn cycles (delete a random half, put it back), as
   * a percentage of the RSS growth of the initial load.
   */
  CHURN_RSS_GROWTH_PCT("churnRssGrowthPct", "RSS growth after churn %", 1, false),
  /**
   * A persistent pile: the time its close took, which writes a checkpoint of everything not yet in
   * its files (with durability none, the whole load).
   */
  CLOSE_SECS("closeSecs", "close s (final checkpoint)", 2, false),
  /**
   * A persistent pile: how long {@code Pile.open} took before the load; for an empty directory (as
   * with {@code --fresh}) the creation of the pile and its log files.
   */
  OPEN_MS("openMs", "open before the load ms", 1, false),
  /** With {@code --reopen}: from just before {@code Pile.open} to the first get's value. */
  REOPEN_FIRST_GET_MS("reopenFirstGetMs", "reopen to first get ms", 1, false),
  /**
   * With {@code --reopen}: a restart as an application sees it, in a new JVM ({@code
   * FirstGetProbe}): from just before the process starts to its first get's value, the JVM's own
   * start included; {@link #RESTART_MAIN_MS} is the part before {@code main}.
   */
  RESTART_FIRST_GET_MS("restartFirstGetMs", "new JVM: start to first get ms", 1, false),
  RESTART_MAIN_MS("restartMainMs", "new JVM: start to main ms", 1, false),
  /** With {@code --reopen}: time to get every value back after the reopen, in index order. */
  READ_ALL_SECS("readAllSecs", "read all after reopen s", 2, false),
  /** With {@code --reopen}: bytes of the segment files, by {@link #READ_ALL_SECS}, in MB/s. */
  READ_ALL_MBPS("readAllMBps", "read all after reopen MB/s", 1, true),
  /**
   * With {@code --reopen} and a dropped cache: {@link #READ_ALL_SECS} again, from a cold cache
   * again, with {@code Pile.prefetch()} called after the first get.
   */
  READ_ALL_PREFETCH_SECS("readAllPrefetchSecs", "read all with prefetch s", 2, false),
  /** Bytes of the segment files by {@link #READ_ALL_PREFETCH_SECS}, in MB/s. */
  READ_ALL_PREFETCH_MBPS("readAllPrefetchMBps", "read all with prefetch MB/s", 1, true),
  /**
   * With {@code --reopen}, a dropped cache and a sized kind: every value read again from a cold
   * cache, by one {@code Pile.scan} after {@code Pile.prefetch()}, checked by checksum.
   */
  SCAN_ALL_SECS("scanAllSecs", "scan all with prefetch s", 2, false),
  /** Bytes of the segment files by {@link #SCAN_ALL_SECS}, in MB/s. */
  SCAN_ALL_MBPS("scanAllMBps", "scan all with prefetch MB/s", 1, true),
  /** With {@code --commits}: durable single-put commits, all threads together. */
  COMMITS("commits", "commits", 0, true),
  COMMITS_PER_SEC("commitsPerSec", "commits/s", 0, true),
  /** With {@code --commits}: a commit's latency, from the call to its return, median. */
  COMMIT_P50_US("commitP50Us", "commit p50 us", 1, false),
  COMMIT_P99_US("commitP99Us", "commit p99 us", 1, false),
  COMMIT_P999_US("commitP999Us", "commit p99.9 us", 1, false),
  COMMIT_MAX_US("commitMaxUs", "commit max us", 1, false),
  /**
   * With {@code --commits}: milliseconds the JIT compilers spent compiling during the timed
   * commits, what the warm-up left (see {@code CommitBench}).
   */
  COMMIT_JIT_MS("commitJitMs", "JIT compiling ms (timed commits)", 0, false),
  /**
   * With {@code --recovery}: bytes of log the crashed pile's recovery replayed (all written since
   * its last checkpoint), as a read-only inspection of the directory counted them.
   */
  RECOVERY_LOG_BYTES("recoveryLogBytes", "recovery: log bytes replayed", 0, false),
  RECOVERY_LOG_RECORDS("recoveryLogRecords", "recovery: log records replayed", 0, false),
  /**
   * With {@code --recovery}: how long {@code Pile.open} of the crashed pile took: replaying the
   * log, then the checkpoint that makes the recovered state durable (which writes every segment the
   * log created).
   */
  RECOVERY_OPEN_SECS("recoveryOpenSecs", "recovery: Pile.open s", 3, false),
  /** {@link #RECOVERY_LOG_BYTES} by {@link #RECOVERY_OPEN_SECS}, in MB/s (10^6 bytes). */
  REPLAY_MBPS("replayMBps", "recovery: log replayed MB/s (open)", 1, true),
  /**
   * With {@code --recovery}: a read-only open of the same crashed pile, from a cold cache too: the
   * log read and replayed into memory, with no checkpoint written. Open less this is about what the
   * checkpoint at the end of recovery costs.
   */
  READ_ONLY_REPLAY_SECS("readOnlyReplaySecs", "recovery: read-only replay s", 3, false),
  READ_ONLY_REPLAY_MBPS("readOnlyReplayMBps", "recovery: read-only replay MB/s", 1, true),
  /**
   * With {@code --latency-during-checkpoint}: a put's latency, call to return, while another thread
   * checkpoints in a loop; {@link #PUTS_PER_SEC} is the same phase's rate.
   */
  PUT_P50_US("putP50Us", "put p50 us (checkpointing)", 2, false),
  PUT_P99_US("putP99Us", "put p99 us (checkpointing)", 2, false),
  PUT_P999_US("putP999Us", "put p99.9 us (checkpointing)", 2, false),
  PUT_MAX_US("putMaxUs", "put max us (checkpointing)", 1, false),
  /**
   * {@link #PUT_P99_US} and {@link #PUT_P999_US} corrected for coordinated omission: with the puts
   * a stalled thread would have made at the baseline's rate added back. See {@link
   * CheckpointLatencyBench}.
   */
  PUT_P99_CORRECTED_US("putP99UsCorrected", "put p99 us (checkpointing, corrected)", 2, false),
  PUT_P999_CORRECTED_US("putP999UsCorrected", "put p99.9 us (checkpointing, corrected)", 2, false),
  /**
   * With {@code --latency-during-checkpoint}: the puts of the checkpointing phase whose time, from
   * when each was due to its return, overlapped a checkpoint of the loop, and their latency. With
   * checkpoints back to back that is nearly every put; with {@code --checkpoint-every}, the puts a
   * checkpoint could have delayed, apart from the others.
   */
  PUTS_DURING_CHECKPOINT("putsDuringCheckpoint", "puts overlapping a checkpoint", 0, false),
  PUT_DURING_CHECKPOINT_P99_US(
      "putDuringCheckpointP99Us", "put p99 us (overlapping a checkpoint)", 2, false),
  PUT_DURING_CHECKPOINT_P999_US(
      "putDuringCheckpointP999Us", "put p99.9 us (overlapping a checkpoint)", 2, false),
  PUT_DURING_CHECKPOINT_MAX_US(
      "putDuringCheckpointMaxUs", "put max us (overlapping a checkpoint)", 1, false),
  /**
   * With {@code --latency-during-checkpoint --rate R}: the puts overlapping a checkpoint timed from
   * the call to its return, without the wait to begin (a paced thread parks between puts and is
   * woken late by the platform at times, which the figures above count against the put). What the
   * pile itself took; the figures above are what a caller issuing puts at R saw. Unpaced, the two
   * are the same.
   */
  PUT_CALL_DURING_CHECKPOINT_P99_US(
      "putCallDuringCheckpointP99Us", "put call p99 us (overlapping a checkpoint)", 2, false),
  PUT_CALL_DURING_CHECKPOINT_P999_US(
      "putCallDuringCheckpointP999Us", "put call p99.9 us (overlapping a checkpoint)", 2, false),
  PUT_CALL_DURING_CHECKPOINT_MAX_US(
      "putCallDuringCheckpointMaxUs", "put call max us (overlapping a checkpoint)", 1, false),
  /** With {@code --latency-during-checkpoint}: checkpoints the loop completed during the puts. */
  CHECKPOINTS("checkpoints", "checkpoints completed", 0, true),
  CHECKPOINT_MEAN_MS("checkpointMeanMs", "checkpoint mean ms", 2, false),
  CHECKPOINT_MAX_MS("checkpointMaxMs", "checkpoint max ms", 2, false),
  /**
   * With {@code --latency-during-checkpoint}, on Linux: the share of all CPU time the hypervisor
   * took during the checkpointing phase ({@code steal} in {@code /proc/stat}; see {@link
   * CpuSteal}). A virtual machine paused by its host pauses every thread, the pile's or not.
   */
  STEAL_PCT("stealPct", "CPU stolen by the host % (checkpointing)", 1, false),
  /**
   * With {@code --latency-during-checkpoint}: how late a thread that only sleeps 1 ms at a time
   * woke during the checkpointing phase ({@link HiccupMeter}), the platform's own stalls to set
   * beside the puts' percentiles.
   */
  HICCUP_P99_US("hiccupP99Us", "sleeper late p99 us (checkpointing)", 2, false),
  HICCUP_P999_US("hiccupP999Us", "sleeper late p99.9 us (checkpointing)", 2, false),
  HICCUP_MAX_US("hiccupMaxUs", "sleeper late max us (checkpointing)", 1, false),
  /**
   * With {@code --latency-during-checkpoint}: milliseconds the JIT compilers spent compiling during
   * the checkpointing phase ({@code CompilationMXBean}, all compiler threads together). A compile
   * takes a core for milliseconds, and on two cores a put can wait behind it.
   */
  JIT_MS("jitMs", "JIT compiling ms (checkpointing)", 0, false),
  /**
   * With {@code --latency-during-checkpoint} or {@code --commits}: how long the warm-up ran before
   * the JIT was quiet (see {@code CheckpointLatencyBench}, {@code CommitBench}).
   */
  WARMUP_SECS("warmupSecs", "warm-up s", 1, false),
  /**
   * With {@code --latency-during-checkpoint}: the same puts into a fresh pile without the
   * checkpoint loop (the pile's own background checkpoints, when its log fills, still run).
   */
  BASELINE_PUTS_PER_SEC("baselinePutsPerSec", "puts/s (baseline)", 0, true),
  BASELINE_P50_US("baselineP50Us", "put p50 us (baseline)", 2, false),
  BASELINE_P99_US("baselineP99Us", "put p99 us (baseline)", 2, false),
  BASELINE_P999_US("baselineP999Us", "put p99.9 us (baseline)", 2, false),
  BASELINE_MAX_US("baselineMaxUs", "put max us (baseline)", 1, false),
  /**
   * {@link #PUT_CALL_DURING_CHECKPOINT_P999_US}'s twin: every put of the baseline, call to return.
   */
  BASELINE_CALL_P999_US("baselineCallP999Us", "put call p99.9 us (baseline)", 2, false),
  BASELINE_CALL_MAX_US("baselineCallMaxUs", "put call max us (baseline)", 1, false),
  BASELINE_P99_CORRECTED_US("baselineP99UsCorrected", "put p99 us (baseline, corrected)", 2, false),
  BASELINE_P999_CORRECTED_US(
      "baselineP999UsCorrected", "put p99.9 us (baseline, corrected)", 2, false),
  BASELINE_GC_PAUSES("baselineGcPauses", "GC pauses (baseline)", 0, false),
  BASELINE_GC_MAX_PAUSE_MS("baselineGcMaxPauseMs", "GC max pause ms (baseline)", 1, false),
  BASELINE_STEAL_PCT("baselineStealPct", "CPU stolen by the host % (baseline)", 1, false),
  BASELINE_HICCUP_P99_US("baselineHiccupP99Us", "sleeper late p99 us (baseline)", 2, false),
  BASELINE_HICCUP_P999_US("baselineHiccupP999Us", "sleeper late p99.9 us (baseline)", 2, false),
  BASELINE_HICCUP_MAX_US("baselineHiccupMaxUs", "sleeper late max us (baseline)", 1, false),
  BASELINE_JIT_MS("baselineJitMs", "JIT compiling ms (baseline)", 0, false);

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
