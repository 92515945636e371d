package dev.cairn.jcache;

import java.util.concurrent.atomic.LongAdder;
import javax.cache.management.CacheStatisticsMXBean;

/**
 * One JCache cache's counters, as JSR-107 defines them: a get is a hit or a miss (a read-through
 * get that loads is a miss), a conditional write that finds its key counts a hit, one that does not
 * a miss; each average divides its total time by its own count. Counted only while statistics are
 * enabled.
 *
 * <p>Thread-safety: safe from any thread; figures are a moment's sums, not a snapshot.
 */
final class JCacheStatistics implements CacheStatisticsMXBean {
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder puts = new LongAdder();
  private final LongAdder removals = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder getNanos = new LongAdder();
  private final LongAdder putNanos = new LongAdder();
  private final LongAdder removeNanos = new LongAdder();
  private volatile boolean enabled;

  void enabled(boolean on) {
    enabled = on;
  }

  boolean isEnabled() {
    return enabled;
  }

  void hits(int n) {
    if (enabled && n > 0) {
      hits.add(n);
    }
  }

  void misses(int n) {
    if (enabled && n > 0) {
      misses.add(n);
    }
  }

  /** A lookup that found its key (a hit) or did not (a miss). */
  void lookup(boolean found) {
    if (found) {
      hits(1);
    } else {
      misses(1);
    }
  }

  void puts(int n) {
    if (enabled && n > 0) {
      puts.add(n);
    }
  }

  void removals(int n) {
    if (enabled && n > 0) {
      removals.add(n);
    }
  }

  void eviction() {
    if (enabled) {
      evictions.increment();
    }
  }

  void getTime(long startNanos) {
    if (enabled && startNanos != 0) { // 0: statistics were off when the call began
      getNanos.add(System.nanoTime() - startNanos);
    }
  }

  void putTime(long startNanos) {
    if (enabled && startNanos != 0) { // 0: statistics were off when the call began
      putNanos.add(System.nanoTime() - startNanos);
    }
  }

  void removeTime(long startNanos) {
    if (enabled && startNanos != 0) { // 0: statistics were off when the call began
      removeNanos.add(System.nanoTime() - startNanos);
    }
  }

  @Override
  public void clear() {
    hits.reset();
    misses.reset();
    puts.reset();
    removals.reset();
    evictions.reset();
    getNanos.reset();
    putNanos.reset();
    removeNanos.reset();
  }

  @Override
  public long getCacheHits() {
    return hits.sum();
  }

  @Override
  public float getCacheHitPercentage() {
    long gets = getCacheGets();
    return gets == 0 ? 0 : getCacheHits() * 100f / gets;
  }

  @Override
  public long getCacheMisses() {
    return misses.sum();
  }

  @Override
  public float getCacheMissPercentage() {
    long gets = getCacheGets();
    return gets == 0 ? 0 : getCacheMisses() * 100f / gets;
  }

  @Override
  public long getCacheGets() {
    return hits.sum() + misses.sum();
  }

  @Override
  public long getCachePuts() {
    return puts.sum();
  }

  @Override
  public long getCacheRemovals() {
    return removals.sum();
  }

  @Override
  public long getCacheEvictions() {
    return evictions.sum();
  }

  @Override
  public float getAverageGetTime() {
    return average(getNanos.sum(), getCacheGets());
  }

  @Override
  public float getAveragePutTime() {
    return average(putNanos.sum(), getCachePuts());
  }

  @Override
  public float getAverageRemoveTime() {
    return average(removeNanos.sum(), getCacheRemovals());
  }

  private static float average(long nanos, long count) {
    return count == 0 ? 0 : nanos / 1000f / count;
  }
}
