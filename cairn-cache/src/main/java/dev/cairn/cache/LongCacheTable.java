package dev.cairn.cache;

import java.time.Duration;
import java.util.function.LongFunction;

/**
 * A table of {@code long} keys, with no boxing on its paths: the same table as {@link
 * CacheTable}{@code <Long, V>} of the same name ({@link #boxed}), through primitive keys.
 *
 * {@snippet class=dev.cairn.cache.CacheExamplesTest region=long-table}
 *
 * <p>Thread-safety: every method may be called from any thread.
 *
 * @param <V> the value type
 */
public interface LongCacheTable<V> {

  String name();

  /** See {@link CacheTable#get(Object)}. */
  V get(long key);

  /** See {@link CacheTable#get(Object, Duration)}. */
  V get(long key, Duration maxAge);

  /** See {@link CacheTable#getInto(Object, byte[])}: a get with no boxing and no garbage. */
  int getInto(long key, byte[] into);

  /** See {@link CacheTable#put(Object, Object)}. */
  PutResult put(long key, V value);

  /** See {@link CacheTable#put(Object, Object, EntryOptions)}. */
  PutResult put(long key, V value, EntryOptions options);

  /** See {@link CacheTable#putIfAbsent}. */
  V putIfAbsent(long key, V value);

  /** See {@link CacheTable#replace(Object, Object)}. */
  boolean replace(long key, V value);

  /** See {@link CacheTable#remove(Object)}. */
  boolean remove(long key);

  /** See {@link CacheTable#containsKey}. */
  boolean containsKey(long key);

  /** See {@link CacheTable#touch}. */
  boolean touch(long key);

  /** See {@link CacheTable#computeIfAbsent}. */
  V computeIfAbsent(long key, LongFunction<? extends V> loader);

  long size();

  void clear();

  TableStats stats();

  /**
   * The same table with boxed keys: getAll, conditional replace and remove, compute and merge,
   * iteration.
   */
  CacheTable<Long, V> boxed();
}
