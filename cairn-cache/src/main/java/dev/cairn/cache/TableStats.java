package dev.cairn.cache;

/**
 * One table's counters at one moment, since the cache was opened (counts) or as they stand (sizes).
 *
 * @param name the table
 * @param hits reads that returned a value
 * @param misses reads that found none (absent or expired); a read through a loader is a miss
 * @param puts entries written (inserts and replacements)
 * @param removals entries removed by a call
 * @param evictions entries evicted for the budget
 * @param expirations entries found or swept expired
 * @param loads values made by a loader
 * @param loadNanos time spent in loaders
 * @param entries live entries now (expired ones not yet swept included)
 * @param entryBytes the pile's bytes of those entries (headers, keys and values)
 * @param indexBytes the bytes of the table's index
 */
public record TableStats(
    String name,
    long hits,
    long misses,
    long puts,
    long removals,
    long evictions,
    long expirations,
    long loads,
    long loadNanos,
    long entries,
    long entryBytes,
    long indexBytes) {

  /** Hits over reads; 1.0 when nothing was read. */
  public double hitRatio() {
    long reads = hits + misses;
    return reads == 0 ? 1.0 : (double) hits / reads;
  }
}
