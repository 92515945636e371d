package dev.cairn.bench.cache;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.MemoryUnit;

/**
 * Ehcache 3 with only its off-heap tier (no heap tier in front), so that every value lives off the
 * heap as in Cairn. Ehcache needs a size for the tier: the budget when bounded, else room for every
 * entry with its overhead (four times the data, and 256 MiB more), which it takes as it fills.
 */
final class EhcacheStore implements CacheStore {
  private static final long UNBOUNDED_SLACK_BYTES = 256L << 20;

  private final CacheManager manager;
  private final Cache<Long, byte[]> cache;

  /** The size of the off-heap tier for {@code spec}. */
  static long tierBytes(StoreSpec spec) {
    return spec.bounded()
        ? spec.budgetBytes()
        : spec.entries() * spec.dataBytesPerEntry() * 4 + UNBOUNDED_SLACK_BYTES;
  }

  EhcacheStore(StoreSpec spec) {
    long bytes = tierBytes(spec);
    manager = CacheManagerBuilder.newCacheManagerBuilder().build(true);
    cache =
        manager.createCache(
            "bench",
            CacheConfigurationBuilder.newCacheConfigurationBuilder(
                Long.class,
                byte[].class,
                ResourcePoolsBuilder.newResourcePoolsBuilder()
                    .offheap(Math.max(1, bytes >> 20), MemoryUnit.MB)));
  }

  @Override
  public void put(long key, byte[] value) {
    cache.put(key, value);
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(cache.get(key), into);
  }

  @Override
  public long size() {
    long n = 0;
    for (var ignored : cache) {
      n++;
    }
    return n;
  }

  @Override
  public void close() {
    manager.close();
  }
}
