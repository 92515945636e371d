package dev.cairn.jcache;

import dev.cairn.cache.CacheTable;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * The locks of a cache's keys (CairnJCache J1): the table's own key locks ({@link
 * CacheTable#keyLock}), which every write of the table holds, so that an operation here that holds
 * a key's lock is one step against every write of that key, the table's own blind puts included
 * (J6); a {@code Long} key's bytes get the lock the table's long view's writes take (J8). Releasing
 * a lock first delivers the events the operation collected under it (Listeners L1), so that
 * listeners see a key's changes in their order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class KeyLocks<K, V> {
  private final CacheTable<byte[], ?> table;
  private final Listeners<K, V> listeners;

  KeyLocks(CacheTable<byte[], ?> table, Listeners<K, V> listeners) {
    this.table = table;
    this.listeners = listeners;
  }

  /** The lock of the key of bytes {@code k}. */
  Lock of(byte[] k) {
    return table.keyLock(k);
  }

  /**
   * Delivers the events an operation collected under the key's lock, then releases the lock
   * (Listeners L1): listeners see a key's changes in their order.
   */
  void release(Lock lock, List<CairnEntryEvent<K, V>> events) {
    try {
      if (!events.isEmpty()) {
        listeners.deliver(events);
      }
    } finally {
      events.clear();
      lock.unlock();
    }
  }

  /**
   * As {@link #release(Lock, List)} for one key of several: a listener's exception is kept, not
   * thrown, so that the other keys are still written; returns {@code first} if not null, else the
   * exception, if any.
   */
  RuntimeException release(Lock lock, List<CairnEntryEvent<K, V>> events, RuntimeException first) {
    try {
      release(lock, events);
      return first;
    } catch (RuntimeException e) {
      return first != null ? first : e;
    }
  }
}
