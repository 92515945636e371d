package dev.cairn.cache;

/**
 * Told of entries that leave a table by expiry or eviction, after they left, on the thread that
 * removed them. Must be quick and must not throw; it may call the cache.
 */
@FunctionalInterface
public interface RemovalListener<K> {
  void onRemoval(String table, K key, RemovalCause cause);
}
