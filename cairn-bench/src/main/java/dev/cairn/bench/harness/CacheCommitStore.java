package dev.cairn.bench.harness;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A persistent Cairn cache with {@link Durability#SYNC}, default options otherwise: each put stores
 * the entry and its index slot as one log record and returns once it is forced; concurrent puts
 * share forces (group commit), as the pile's own do ({@link PileCommitStore}). Each commit takes
 * the next key of a counter (the bench commits into one store in rounds, each numbering its commits
 * from 0, so the bench's numbers would repeat), so every put inserts and the index grows as it
 * would in use; one shared counter costs nothing beside a force.
 */
final class CacheCommitStore implements CommitStore {
  private final Cache cache;
  private final LongCacheTable<byte[]> table;
  private final AtomicLong nextKey = new AtomicLong();

  private CacheCommitStore(Cache cache) {
    this.cache = cache;
    this.table = cache.longTable("commits", byte[].class);
  }

  static CacheCommitStore open(Path directory) throws IOException {
    return new CacheCommitStore(
        Cache.open(
            directory,
            CacheOptions.builder()
                .pile(PileOptions.builder().durability(Durability.SYNC).build())
                .build()));
  }

  @Override
  public void commit(int thread, long sequence, byte[] value) {
    table.put(nextKey.getAndIncrement(), value);
  }

  @Override
  public long valueCount() {
    return table.size();
  }

  @Override
  public void close() {
    cache.close();
  }
}
