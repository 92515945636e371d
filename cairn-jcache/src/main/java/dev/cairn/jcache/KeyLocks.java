package dev.cairn.jcache;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The locks of a cache's keys (CairnJCache J1): {@value #LOCKS} reentrant locks, a key's chosen by
 * the hash of its bytes; a {@code Long} key's by its value, so that the bytes and the long view of
 * one key take the same lock (J8). Releasing a lock first delivers the events the operation
 * collected under it (Listeners L1), so that listeners see a key's changes in their order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class KeyLocks<K, V> {
  static final int LOCKS = 1024;

  private final ReentrantLock[] locks = new ReentrantLock[LOCKS];
  private final Listeners<K, V> listeners;

  KeyLocks(Listeners<K, V> listeners) {
    this.listeners = listeners;
    for (int i = 0; i < LOCKS; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The lock of the key of bytes {@code k}: a Long key's is {@link #of(long)} (J8). */
  ReentrantLock of(byte[] k) {
    if (Marshaller.isLongKey(k)) {
      return of(Marshaller.longOf(k));
    }
    return locks[((Arrays.hashCode(k) * 0x9E3779B9) >>> 22) & (LOCKS - 1)];
  }

  /** The lock of the {@code Long} key {@code key}. */
  ReentrantLock of(long key) {
    return locks[(int) ((key * 0x9E3779B97F4A7C15L) >>> 54) & (LOCKS - 1)];
  }

  /**
   * Delivers the events an operation collected under the key's lock, then releases the lock
   * (Listeners L1): listeners see a key's changes in their order.
   */
  void release(ReentrantLock lock, List<CairnEntryEvent<K, V>> events) {
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
   * As {@link #release(ReentrantLock, List)} for one key of several: a listener's exception is
   * kept, not thrown, so that the other keys are still written; returns {@code first} if not null,
   * else the exception, if any.
   */
  RuntimeException release(
      ReentrantLock lock, List<CairnEntryEvent<K, V>> events, RuntimeException first) {
    try {
      release(lock, events);
      return first;
    } catch (RuntimeException e) {
      return first != null ? first : e;
    }
  }
}
