package dev.cairn.bench.cache;

import net.openhft.chronicle.map.ChronicleMap;

/**
 * Chronicle Map, off-heap: sized up front by the run's key count and value length, as it must be
 * (it cannot grow past its configured entries by much); no eviction, so never bounded.
 */
final class ChronicleStore implements CacheStore {
  private final ChronicleMap<Long, byte[]> map;

  ChronicleStore(StoreSpec spec) {
    map =
        ChronicleMap.of(Long.class, byte[].class)
            .name("cairn-bench")
            .entries(spec.entries())
            .averageValueSize(spec.valueBytes())
            .create();
  }

  @Override
  public void put(long key, byte[] value) {
    map.put(key, value);
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(map.get(key), into);
  }

  @Override
  public long size() {
    return map.longSize();
  }

  @Override
  public void close() {
    map.close();
  }
}
