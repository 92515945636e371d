package dev.cairn.bench.cache;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.pile.DurabilityStats;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Cairn's cache: one {@link LongCacheTable} of byte[] (no boxing of keys), volatile or in a
 * directory, bounded by the cache's byte budget, which counts index, headers and values alike.
 */
final class CairnStore implements CacheStore {
  static final String TABLE = "bench";

  private final Cache cache;
  private final LongCacheTable<byte[]> table;

  private CairnStore(Cache cache) {
    this.cache = cache;
    this.table = cache.longTable(TABLE, byte[].class);
  }

  static CairnStore open(StoreSpec spec) {
    CacheOptions.Builder options = CacheOptions.builder();
    if (spec.bounded()) {
      options.budgetBytes(spec.budgetBytes());
    }
    PileOptions.Builder pile = PileOptions.builder().hugePages(spec.hugePages());
    if (spec.directory() == null) {
      return new CairnStore(Cache.offHeap(options.pile(pile.build()).build()));
    }
    pile.durability(spec.durability());
    if (spec.logFileBytes() > 0) {
      pile.logFileBytes(spec.logFileBytes());
    }
    options.pile(pile.build());
    try {
      return new CairnStore(Cache.open(spec.directory(), options.build()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the cache in " + spec.directory(), e);
    }
  }

  @Override
  public void put(long key, byte[] value) {
    table.put(key, value);
  }

  @Override
  public int get(long key, byte[] into) {
    return CacheStore.copyOut(table.get(key), into);
  }

  @Override
  public long size() {
    return table.size();
  }

  /** What the open recovered (records of the log replayed, after a crash). */
  DurabilityStats durabilityStats() {
    return cache.pile().durabilityStats();
  }

  @Override
  public void close() {
    cache.close();
  }
}
