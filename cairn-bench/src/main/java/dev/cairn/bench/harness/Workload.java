package dev.cairn.bench.harness;

/** What a bench run measures; {@link BenchConfig#workload()} says which one a run is. */
public enum Workload {
  /** Puts of n values into each store, then gets of them all (the default). */
  LOAD("load"),
  /** {@code --commits}: durable single-put commits, see {@link CommitBench}. */
  COMMITS("commits"),
  /** {@code --recovery}: the open of a pile killed with a full log, see {@link RecoveryBench}. */
  RECOVERY("recovery"),
  /**
   * {@code --latency-during-checkpoint}: put latency while checkpoints run, see {@link
   * CheckpointLatencyBench}.
   */
  LATENCY_DURING_CHECKPOINT("latencyDuringCheckpoint");

  private final String label;

  Workload(String label) {
    this.label = label;
  }

  /** The name in the JSON report's {@code "workload"}. */
  public String label() {
    return label;
  }
}
