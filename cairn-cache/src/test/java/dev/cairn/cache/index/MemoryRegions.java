package dev.cairn.cache.index;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/** Index regions in native memory, by id: a {@link RegionStore} for tests of the index alone. */
final class MemoryRegions implements RegionStore {
  final Map<Long, MemorySegment> byId = new HashMap<>();

  long make(int capacity) {
    long id = byId.size() + 1000L;
    byId.put(id, Arena.ofAuto().allocate(HashIndex.regionBytes(capacity), 8));
    return id;
  }

  @Override
  public MemorySegment view(long region) {
    return byId.get(region);
  }

  @Override
  public void written(long region, long offset, long length) {}

  @Override
  public void hinted(long region, long offset, long length) {}
}
