package dev.cairn.bench.jmh;

import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.spi.CachingProvider;

/** A JCache cache of long keys and byte-array values from Cairn's provider, for the benchmarks. */
final class CairnJCaches {
  private CairnJCaches() {}

  /** The manager of Cairn's provider at its default URI: volatile, off the heap. */
  static CacheManager manager() {
    CachingProvider provider = Caching.getCachingProvider("dev.cairn.jcache.CairnCachingProvider");
    return provider.getCacheManager(provider.getDefaultURI(), provider.getDefaultClassLoader());
  }

  /** A cache of JCache's default configuration (store-by-value, eternal, no statistics). */
  static Cache<Long, byte[]> create(CacheManager manager, String name) {
    return manager.createCache(
        name, new MutableConfiguration<Long, byte[]>().setTypes(Long.class, byte[].class));
  }
}
