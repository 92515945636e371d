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
    byte[] value = map.get(key);
    if (value == null) {
      return -1;
    }
    System.arraycopy(value, 0, into, 0, value.length);
    return value.length;
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
