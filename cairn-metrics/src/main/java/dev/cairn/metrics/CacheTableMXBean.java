package dev.cairn.metrics;

/**
 * One cache table's figures as JMX shows them ({@code dev.cairn:type=CacheTable,cache=CACHE,
 * name=TABLE}): {@link dev.cairn.cache.TableStats}, read at each request, beside the cache's
 * budget.
 */
public interface CacheTableMXBean {
  long getHits();

  long getMisses();

  double getHitRatio();

  long getPuts();

  long getRemovals();

  long getEvictions();

  long getExpirations();

  long getLoads();

  long getLoadNanos();

  long getEntries();

  long getEntryBytes();

  long getIndexBytes();

  long getCacheBudgetBytes();

  long getCacheUsedBytes();
}
