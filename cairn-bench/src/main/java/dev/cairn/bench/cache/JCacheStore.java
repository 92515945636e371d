package dev.cairn.bench.cache;

import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.spi.CachingProvider;

/**
 * A store through a JSR-107 provider named by its class (two are on the bench's class path, so
 * neither is the default): one cache of {@code Long} to {@code byte[]} with JCache's default
 * configuration (store-by-value, no statistics), as an application that uses JCache gets it.
 */
final class JCacheStore implements CacheStore {
  private static final String NAME = "bench";

  private final CacheManager manager;
  private final javax.cache.Cache<Long, byte[]> cache;

  JCacheStore(String providerClass) {
    CachingProvider provider = Caching.getCachingProvider(providerClass);
    manager = provider.getCacheManager(provider.getDefaultURI(), provider.getDefaultClassLoader());
    cache =
        manager.createCache(
            NAME, new MutableConfiguration<Long, byte[]>().setTypes(Long.class, byte[].class));
  }

  @Override
  public void put(long key, byte[] value) {
    cache.put(key, value); // store-by-value: the provider copies it
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(cache.get(key), into);
  }

  @Override
  public long size() {
    try {
      return cache.unwrap(dev.cairn.cache.CacheTable.class).size();
    } catch (IllegalArgumentException notCairn) {
      return cache.unwrap(com.github.benmanes.caffeine.cache.Cache.class).estimatedSize();
    }
  }

  @Override
  public void close() {
    manager.close();
  }
}
