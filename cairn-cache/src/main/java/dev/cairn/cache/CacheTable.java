package dev.cairn.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A named table of key to value in a {@link Cache}: keys and values off the heap, in the cache's
 * pile. Keys are equal when their encoded bytes are ({@code long}, {@code String}, {@code byte[]},
 * {@link java.util.UUID}, or any type the pile's codecs store); values are whatever the pile
 * stores.
 *
 * <p>An expired entry is never returned. Writes to one key are atomic and ordered; reads take no
 * lock. In a persistent cache each write is durable as the pile's durability says when it returns,
 * with its index change in the same log record.
 *
 * {@snippet class=dev.cairn.cache.CacheExamplesTest region=table-operations}
 *
 * <p>Refusals common to every method: a null argument (key, value, expected value, function,
 * collection, options or array) throws {@link NullPointerException} naming it, before anything is
 * read or written; once the cache is closed every method but {@link #name} and {@link #stats}
 * throws {@link dev.cairn.pile.PileClosedException}, and once the table is dropped ({@link
 * Cache#dropTable}) {@link TableDroppedException}. A value whose class the pile's codecs do not
 * know throws {@link dev.cairn.codec.UnknownTypeException} (allow the class in {@link
 * dev.cairn.pile.PileOptions#codecs}). A write refused for any of these reasons, or by the budget
 * or the entry's size (below), leaves the key's entry as it was and the table usable. In a
 * persistent cache, a write whose log write or force failed throws {@link
 * dev.cairn.durability.DurabilityFailedException}: it was not made durable, the cache accepts no
 * more writes, and a reopen recovers what the log holds.
 *
 * <p>Thread-safety: every method may be called from any thread. An {@link #iterator} is weakly
 * consistent (each entry present throughout is returned once, and no key twice; entries written or
 * removed meanwhile may or may not be), for one thread, and its {@code hasNext} raises {@link
 * TableDroppedException} or {@link dev.cairn.pile.PileClosedException} once the table is dropped or
 * the cache closed, rather than end as if it had seen every entry.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface CacheTable<K, V> extends Iterable<Map.Entry<K, V>> {

  /** The table's name. */
  String name();

  /**
   * The value of {@code key}, or null if it has none or it expired. Takes no lock.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V get(K key);

  /**
   * The value of {@code key} if it was written at most {@code maxAge} ago, else null (the entry
   * stays). Never an older one. On the system clock (the default), an entry written with no expiry
   * records its write time from the clock as of the kernel's last tick, under a third of the cost
   * of a precise read on Linux: the entry may look up to one tick older than it is (4 ms at 250
   * Hz), and miss a {@code maxAge} it just meets. Needs a table that keeps write times ({@link
   * TableOptions#writeTimes}); an entry written while its table kept none has no age, and is never
   * returned.
   *
   * @throws IllegalStateException if the table keeps no write times
   * @throws IllegalArgumentException if {@code maxAge} is negative
   * @throws NullPointerException if {@code key} or {@code maxAge} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V get(K key, Duration maxAge);

  /**
   * Copies the value of {@code key} into {@code into} and returns its length, or returns -1 if it
   * has none or it expired: a get that makes no garbage, for a table of {@code byte[]} values (or
   * {@code String}, whose UTF-8 bytes it copies: {@link dev.cairn.codec.Utf8#decode} reads them
   * back, an unpaired surrogate included). At most {@code into.length} bytes are copied; a result
   * larger than that says the array was too short, and how long it must be. Counted as a get (hit
   * or miss) and, like a get, a hit for the eviction policy and time-to-idle. The bytes of {@code
   * into} past the value's, and all of them when the result is -1, are unspecified.
   *
   * {@snippet class=dev.cairn.cache.CacheExamplesTest region=get-into}
   *
   * <p>Thread-safety: as {@link #get}; {@code into} is the caller's to share or not.
   *
   * @throws IllegalStateException if the table's values are neither {@code byte[]} nor {@code
   *     String}
   * @throws NullPointerException if {@code key} or {@code into} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  int getInto(K key, byte[] into);

  /**
   * The values of those keys that have one, in the order of {@code keys}: as a get of each, but
   * read several keys at a time, so that their reads from memory overlap. Not a snapshot: each
   * key's value is as of its own read.
   *
   * @return a new map of key to value, without the keys that have none; the caller's to change
   * @throws NullPointerException if {@code keys} or one of them is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  Map<K, V> getAll(Collection<? extends K> keys);

  /**
   * Stores {@code value} for {@code key}, with the table's expiry.
   *
   * @return whether it inserted or replaced
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record; nothing is
   *     written (the same holds for every write of the table)
   * @throws NullPointerException if {@code key} or {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  PutResult put(K key, V value);

  /**
   * {@link #put(Object, Object)} with an expiry or pinning of its own, in place of the table's.
   *
   * @return whether it inserted or replaced
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record
   * @throws NullPointerException if {@code key}, {@code value} or {@code options} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  PutResult put(K key, V value, EntryOptions options);

  /**
   * Puts each entry, one at a time (not atomically: a failure leaves the entries before it put).
   *
   * @throws NullPointerException if {@code entries} is null or holds a null key or value; then
   *     nothing is put
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException as {@link #put(Object, Object)} throws it
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  void putAll(Map<? extends K, ? extends V> entries);

  /**
   * Stores {@code value} if {@code key} has no live entry, atomically; returns the value it has, or
   * null if it stored {@code value}.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record
   * @throws NullPointerException if {@code key} or {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V putIfAbsent(K key, V value);

  /**
   * Replaces the value of {@code key} if it has a live one, atomically; returns whether it did.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record
   * @throws NullPointerException if {@code key} or {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean replace(K key, V value);

  /**
   * Replaces the value of {@code key} if it equals {@code expected}, atomically (a
   * compare-and-set); returns whether it did. The stored value is decoded and compared with {@link
   * java.util.Objects#deepEquals}: arrays such as {@code byte[]} compare by content, other types by
   * their {@code equals}. A read-modify-write loop of get and this method never loses an update.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record
   * @throws NullPointerException if {@code key}, {@code expected} or {@code value} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean replace(K key, V expected, V value);

  /**
   * Removes {@code key}'s entry; returns whether it had a live one. The removal listener is not
   * told ({@link RemovalListener}: expiry, eviction and {@link #clear}).
   *
   * @throws NullPointerException if {@code key} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean remove(K key);

  /**
   * Removes {@code key}'s entry if its value equals {@code expected}, atomically; compared as
   * {@link #replace(Object, Object, Object)} compares ({@code byte[]} by content).
   *
   * @throws NullPointerException if {@code key} or {@code expected} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean remove(K key, V expected);

  /**
   * The lock every write of {@code key} holds while it reads and changes the key's entry: a
   * reentrant lock, shared by the keys of one of the table's 1,024 stripes. Hold it to make several
   * calls on the key one step against every other write of it (a read that decides a write, with a
   * side effect that {@link #compute} could run twice); reads take no lock and are not held up. The
   * {@code long} view of a table of {@code Long} or {@code byte[]} keys ({@link Cache#longKeys})
   * gives a key the same lock.
   *
   * <p>While it is held, the writes of its stripe's keys wait, the evictor passes over their
   * entries, and a write of the holder's in a SYNC cache waits for its force with the lock held.
   * Unlock it on the thread that locked it. Do not hold it while calling {@link #clear} or {@link
   * Cache#dropTable}, or while locking another key, unless every thread that does so takes the
   * locks in one order: each of them waits for other stripes' locks.
   *
   * {@snippet class=dev.cairn.cache.CacheExamplesTest region=key-lock}
   *
   * @throws NullPointerException if {@code key} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  Lock keyLock(K key);

  /**
   * The value of {@code key}; if it has none, the value {@code loader} makes, stored first (a null
   * from the loader stores nothing). The loader runs at most once per call, without the cache's
   * locks held, so it may call the cache; a concurrent put of the same key wins over it. A call
   * that runs the loader counts a miss in {@link #stats()}, and a load with the loader's time when
   * it returns. An exception from the loader reaches the caller as it was thrown, and nothing is
   * stored.
   *
   * @throws CacheFullException if the budget is full of pinned entries
   * @throws EntryTooLargeException if the entry alone is larger than the budget, than one block of
   *     the pile, or, in a persistent cache that logs its writes, than one log record
   * @throws NullPointerException if {@code key} or {@code loader} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  V computeIfAbsent(K key, Function<? super K, ? extends V> loader);

  /**
   * Sets {@code key}'s value to what {@code remapping} makes of its current value (null if it has
   * none), or removes the entry if that is null; returns the new value, or null. No update is lost:
   * the value is stored only if the key still holds the value {@code remapping} was given (compared
   * as {@link #replace(Object, Object, Object)} compares), and when another write to the key came
   * between, {@code remapping} runs again on the newer value, so it may run more than once (as
   * {@link java.util.concurrent.ConcurrentMap#compute}'s may). It runs with no lock of the cache's
   * held, so it may call the cache. Each round counts a get in {@link #stats()}; a stored value
   * takes the table's expiry as a put would, and a function that returns the very object it was
   * given writes nothing (the entry keeps its write time).
   *
   * {@snippet class=dev.cairn.cache.CacheExamplesTest region=merge}
   *
   * @throws UnsupportedOperationException if the key's value compares by identity (its class has no
   *     {@code equals} of its own): no compare-and-set of it could succeed; nothing is written
   * @throws NullPointerException if {@code key} or {@code remapping} is null
   */
  default V compute(K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
    return TableComputes.compute(this, key, remapping);
  }

  /**
   * {@link #compute} for a key that has a value: returns null, and runs nothing, if it has none.
   *
   * @throws UnsupportedOperationException as {@link #compute} throws it
   * @throws NullPointerException if {@code key} or {@code remapping} is null
   */
  default V computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
    return TableComputes.computeIfPresent(this, key, remapping);
  }

  /**
   * Stores {@code value} if {@code key} has none, else what {@code remapping} makes of the current
   * value and {@code value} (removing the entry if that is null); returns the value stored, or
   * null. Atomic as {@link #compute} is, and {@code remapping} may likewise run more than once.
   *
   * @throws UnsupportedOperationException as {@link #compute} throws it
   * @throws NullPointerException if {@code key}, {@code value} or {@code remapping} is null
   */
  default V merge(K key, V value, BiFunction<? super V, ? super V, ? extends V> remapping) {
    return TableComputes.merge(this, key, value, remapping);
  }

  /**
   * Whether {@code key} has a live entry. Not counted as a hit or a miss, and not a read for the
   * eviction policy or time-to-idle.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean containsKey(K key);

  /**
   * Resets {@code key}'s time-to-idle as a read would, without reading; returns whether it had a
   * live entry.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  boolean touch(K key);

  /**
   * Live entries (expired ones not yet swept included): a moment's count, not a snapshot.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  long size();

  /**
   * Removes every entry, each as {@link #remove(Object)} would, and tells the removal listener of
   * each ({@link RemovalCause#EXPLICIT}). Not atomic: every entry present throughout the call is
   * removed; entries written meanwhile may stay.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  void clear();

  /**
   * The table's counters and sizes, as one cheap snapshot of running sums. Also after the cache is
   * closed or the table dropped: its counters as they were then (the entries and bytes of a dropped
   * table are 0), for a report written on shutdown. Never throws.
   */
  TableStats stats();
}
