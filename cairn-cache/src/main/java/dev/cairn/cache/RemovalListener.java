package dev.cairn.cache;

/**
 * Told of entries that leave a table by expiry or eviction, and of each entry {@link
 * CacheTable#clear} removes, after they left, on the thread that removed them (a remove or a
 * replacing put of one key is not told: its caller knows). Must be quick and must not throw; it may
 * call the cache.
 */
@FunctionalInterface
public interface RemovalListener<K> {
  void onRemoval(String table, K key, RemovalCause cause);
}
