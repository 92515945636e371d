package dev.cairn.bench.harness;

/**
 * A pair of stores whose figures the reports divide, when both ran: each metric of {@link
 * #subject()} over the same metric of {@link #baseline()}.
 */
public enum Comparison {
  /** The original question: the pile against the heap map. JSON key "ratios", as it always was. */
  PILE_TO_MAP(StoreKind.PILE, StoreKind.MAP, "ratios"),
  /** What persistence costs: a mapped pile against a volatile one, in the same run. */
  MAPPED_TO_PILE(StoreKind.MAPPED, StoreKind.PILE, "mappedToPileRatios"),
  /** Durable commits: the pile against RocksDB. */
  PILE_TO_ROCKSDB(StoreKind.PILE, StoreKind.ROCKSDB, "pileToRocksdbRatios"),
  /** Durable commits: a cache's put (entry and index slot) against the pile's own. */
  CACHE_TO_PILE(StoreKind.CACHE, StoreKind.PILE, "cacheToPileRatios");

  private final StoreKind subject;
  private final StoreKind baseline;
  private final String jsonKey;

  Comparison(StoreKind subject, StoreKind baseline, String jsonKey) {
    this.subject = subject;
    this.baseline = baseline;
    this.jsonKey = jsonKey;
  }

  public StoreKind subject() {
    return subject;
  }

  public StoreKind baseline() {
    return baseline;
  }

  /** The key of this comparison's ratios in the JSON report. */
  public String jsonKey() {
    return jsonKey;
  }

  /** The table's column header, such as "pile/map". */
  public String label() {
    return subject.label() + "/" + baseline.label();
  }
}
