package dev.cairn.cache;

import java.util.List;

/**
 * A cache's figures at one moment.
 *
 * @param budgetBytes the byte budget ({@link Long#MAX_VALUE} for none)
 * @param usedBytes the bytes counted against it: every table's entries and index, and index regions
 *     retired but not yet freed
 * @param tables each table's counters, in creation order
 */
public record CacheStats(long budgetBytes, long usedBytes, List<TableStats> tables) {
  public CacheStats {
    tables = List.copyOf(tables);
  }

  /** The sum of a counter over all tables. */
  public long evictions() {
    return tables.stream().mapToLong(TableStats::evictions).sum();
  }

  public long expirations() {
    return tables.stream().mapToLong(TableStats::expirations).sum();
  }

  public long entries() {
    return tables.stream().mapToLong(TableStats::entries).sum();
  }
}
