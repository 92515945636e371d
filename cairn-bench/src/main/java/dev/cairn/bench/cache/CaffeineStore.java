package dev.cairn.bench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Caffeine, the usual on-heap cache: unbounded, or bounded by weight, each entry weighing its data
 * (8-byte key and value bytes). Its own per-entry overhead on the heap is outside that weight, as
 * it is for every Caffeine user who weighs entries by their data.
 */
final class CaffeineStore implements CacheStore {
  private final Cache<Long, byte[]> cache;

  CaffeineStore(StoreSpec spec) {
    Caffeine<Object, Object> builder = Caffeine.newBuilder();
    if (spec.bounded()) {
      builder
          .maximumWeight(spec.budgetBytes())
          .weigher((Long k, byte[] v) -> Long.BYTES + v.length);
    }
    cache = builder.build();
  }

  @Override
  public void put(long key, byte[] value) {
    cache.put(key, value.clone());
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(cache.getIfPresent(key), into);
  }

  @Override
  public long size() {
    return cache.estimatedSize();
  }

  @Override
  public void close() {
    cache.invalidateAll();
  }
}
