package dev.cairn.jcache;

import javax.cache.configuration.CompleteConfiguration;
import javax.cache.configuration.MutableConfiguration;

/**
 * A JCache configuration with Cairn's own settings for the cache's table: its share of the cache
 * manager's byte budget, and whether its entries are pinned (never evicted). The budget itself, the
 * directory and the durability are the cache manager's (see {@link CairnCachingProvider}).
 *
 * {@snippet class=dev.cairn.jcache.JCacheExamplesTest region=configuration}
 *
 * <p>Thread-safety: as {@link MutableConfiguration}, not thread-safe; a cache keeps its own copy.
 */
public class CairnConfiguration<K, V> extends MutableConfiguration<K, V> {
  private static final long serialVersionUID = 1L;

  private double minShare;
  private double maxShare = 1;
  private boolean pinned;

  public CairnConfiguration() {}

  /** A copy of {@code configuration}, with Cairn's settings if it has them. */
  public CairnConfiguration(CompleteConfiguration<K, V> configuration) {
    super(configuration);
    if (configuration instanceof CairnConfiguration<K, V> c) {
      this.minShare = c.minShare;
      this.maxShare = c.maxShare;
      this.pinned = c.pinned;
    }
  }

  public double getMinShare() {
    return minShare;
  }

  /**
   * The share of the budget eviction leaves to this cache at least, from 0 to 1.
   *
   * @throws IllegalArgumentException if not in [0, 1]
   */
  public CairnConfiguration<K, V> setMinShare(double share) {
    this.minShare = checkShare("minShare", share);
    return this;
  }

  public double getMaxShare() {
    return maxShare;
  }

  /**
   * The share of the budget this cache may hold at most, from 0 to 1.
   *
   * @throws IllegalArgumentException if not in [0, 1]
   */
  public CairnConfiguration<K, V> setMaxShare(double share) {
    this.maxShare = checkShare("maxShare", share);
    return this;
  }

  public boolean isPinned() {
    return pinned;
  }

  /** Whether the cache's entries are never evicted (they still expire). */
  public CairnConfiguration<K, V> setPinned(boolean pinned) {
    this.pinned = pinned;
    return this;
  }

  private static double checkShare(String name, double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1]: " + share);
    }
    return share;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CairnConfiguration<?, ?> c
        && super.equals(o)
        && c.minShare == minShare
        && c.maxShare == maxShare
        && c.pinned == pinned;
  }

  @Override
  public int hashCode() {
    return super.hashCode() * 31 + Boolean.hashCode(pinned) + Double.hashCode(minShare + maxShare);
  }
}
