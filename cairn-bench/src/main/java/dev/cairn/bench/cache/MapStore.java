package dev.cairn.bench.cache;

import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code ConcurrentHashMap<Long, byte[]>}, created with no sizing hint: the heap baseline. It keeps
 * a copy of each value it is given, as a map must when the caller reuses its buffer.
 */
final class MapStore implements CacheStore {
  private final ConcurrentHashMap<Long, byte[]> map = new ConcurrentHashMap<>();

  @Override
  public void put(long key, byte[] value) {
    map.put(key, value.clone());
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(map.get(key), into);
  }

  @Override
  public long size() {
    return map.size();
  }

  @Override
  public void close() {
    map.clear();
  }
}
