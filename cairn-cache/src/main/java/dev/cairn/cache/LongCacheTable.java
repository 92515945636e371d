package dev.cairn.cache;

import java.time.Duration;
import java.util.concurrent.locks.Lock;
import java.util.function.LongFunction;

/**
 * A table of {@code long} keys, with no boxing on its paths: the same table as {@link
 * CacheTable}{@code <Long, V>} of the same name ({@link #boxed}), through primitive keys.
 *
 * {@snippet class=dev.cairn.cache.CacheExamplesTest region=long-table}
 *
 * <p>Refusals as {@link CacheTable}'s: a null value, options, array or function throws {@link
 * NullPointerException} naming it; once the cache is closed every method but {@link #name}, {@link
 * #stats} and {@link #boxed} throws {@link dev.cairn.pile.PileClosedException}, and once the table
 * is dropped {@link TableDroppedException}; each method throws what its {@link CacheTable}
 * counterpart throws besides.
 *
 * <p>Thread-safety: every method may be called from any thread.
 *
 * @param <V> the value type
 */
public interface LongCacheTable<V> {

  /** The table's name. */
  String name();

  /**
   * See {@link CacheTable#get(Object)}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V get(long key);

  /**
   * See {@link CacheTable#get(Object, Duration)}.
   *
   * @throws IllegalStateException if the table keeps no write times
   * @throws IllegalArgumentException if {@code maxAge} is negative
   * @throws NullPointerException if {@code maxAge} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V get(long key, Duration maxAge);

  /**
   * See {@link CacheTable#getInto(Object, byte[])}: a get with no boxing and no garbage.
   *
   * {@snippet class=dev.cairn.cache.CacheExamplesTest region=get-into}
   *
   * @throws IllegalStateException if the table's values are neither {@code byte[]} nor {@code
   *     String}
   * @throws NullPointerException if {@code into} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  int getInto(long key, byte[] into);

  /**
   * See {@link CacheTable#put(Object, Object)}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link CacheTable#put(Object, Object)} throws it
   * @throws NullPointerException if {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  PutResult put(long key, V value);

  /**
   * See {@link CacheTable#put(Object, Object, EntryOptions)}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link CacheTable#put(Object, Object)} throws it
   * @throws NullPointerException if {@code value} or {@code options} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  PutResult put(long key, V value, EntryOptions options);

  /**
   * See {@link CacheTable#putIfAbsent}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link CacheTable#put(Object, Object)} throws it
   * @throws NullPointerException if {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V putIfAbsent(long key, V value);

  /**
   * See {@link CacheTable#replace(Object, Object)}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link CacheTable#put(Object, Object)} throws it
   * @throws NullPointerException if {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean replace(long key, V value);

  /**
   * See {@link CacheTable#remove(Object)}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean remove(long key);

  /**
   * See {@link CacheTable#containsKey}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean containsKey(long key);

  /**
   * See {@link CacheTable#touch}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean touch(long key);

  /**
   * See {@link CacheTable#computeIfAbsent}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link CacheTable#put(Object, Object)} throws it
   * @throws NullPointerException if {@code loader} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V computeIfAbsent(long key, LongFunction<? extends V> loader);

  /**
   * See {@link CacheTable#keyLock(Object)}: the lock of {@code key}, the same as the boxed key's.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  Lock keyLock(long key);

  /**
   * See {@link CacheTable#size}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  long size();

  /**
   * See {@link CacheTable#clear}.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  void clear();

  /** See {@link CacheTable#stats}: also after the close or the drop, and never throws. */
  TableStats stats();

  /**
   * The same table with boxed keys: getAll, conditional replace and remove, compute and merge,
   * iteration.
   *
   * @throws UnsupportedOperationException for a view of a table of {@code byte[]} keys ({@link
   *     Cache#longKeys}): that table is the caller's already
   */
  CacheTable<Long, V> boxed();
}
