package dev.cairn.jcache;

import javax.cache.configuration.CompleteConfiguration;
import javax.cache.management.CacheMXBean;

/**
 * A JCache cache's configuration as its {@code CacheConfiguration} MBean shows it.
 *
 * <p>Thread-safety: reads one configuration object that changes only by listener registration.
 */
final class JCacheConfigurationBean implements CacheMXBean {
  private final CairnJCache<?, ?> cache;

  JCacheConfigurationBean(CairnJCache<?, ?> cache) {
    this.cache = cache;
  }

  private CompleteConfiguration<?, ?> configuration() {
    return cache.configuration();
  }

  @Override
  public String getKeyType() {
    return configuration().getKeyType().getName();
  }

  @Override
  public String getValueType() {
    return configuration().getValueType().getName();
  }

  @Override
  public boolean isReadThrough() {
    return configuration().isReadThrough();
  }

  @Override
  public boolean isWriteThrough() {
    return configuration().isWriteThrough();
  }

  @Override
  public boolean isStoreByValue() {
    return configuration().isStoreByValue();
  }

  @Override
  public boolean isStatisticsEnabled() {
    return configuration().isStatisticsEnabled();
  }

  @Override
  public boolean isManagementEnabled() {
    return configuration().isManagementEnabled();
  }
}
