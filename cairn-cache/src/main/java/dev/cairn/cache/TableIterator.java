package dev.cairn.cache;

import dev.cairn.cache.index.Chunk;
import dev.cairn.cache.index.HashIndex;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.StalePointerException;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A table's weakly consistent iterator ({@link CacheTable#iterator}): walks the index shard by
 * shard and, in each, chunk by chunk in the shard's scan order ({@link HashIndex#collect}), reading
 * each live entry's key and value as it goes. Each live entry present throughout the iteration is
 * returned once, however the shards grow or removals move entries meanwhile (HashIndex S1); entries
 * written or removed meanwhile may or may not be; an expired entry, or one whose block went, is
 * skipped. Takes no lock. A table dropped or a cache closed meanwhile ends it with the exception
 * any operation of the table would raise (TableDroppedException, PileClosedException), not with a
 * silent end that would look like the whole table. Not thread-safe: one iterator for one thread.
 */
final class TableIterator<K, V> implements Iterator<Map.Entry<K, V>> {
  private final CacheCore core;
  private final HashIndex index;
  private final ExpiryRules expiry;
  private final KeyCodec<K> keys;
  private final Class<V> valueType;
  private final long bare; // the table's bare form (EntryLayout)
  private final Runnable checkLive; // throws once the table is dropped or the cache closed
  private final Chunk chunk = new Chunk();
  private int shard;
  private long from = HashIndex.SCAN_START; // the next collect's scan position in the shard
  private int inChunk; // the next of chunk's slots to read
  private Map.Entry<K, V> next;

  TableIterator(
      CacheCore core,
      HashIndex index,
      ExpiryRules expiry,
      KeyCodec<K> keys,
      Class<V> valueType,
      long bare,
      Runnable checkLive) {
    this.core = core;
    this.checkLive = checkLive;
    this.bare = bare;
    this.index = index;
    this.expiry = expiry;
    this.keys = keys;
    this.valueType = valueType;
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      checkLive.run();
    }
    while (next == null) {
      if (inChunk < chunk.size()) {
        int i = inChunk++;
        next = read(chunk.pointer(i), chunk.address(i));
        continue;
      }
      if (from == HashIndex.SCAN_END) {
        if (shard == HashIndex.SHARDS - 1) {
          break;
        }
        shard++;
        from = HashIndex.SCAN_START;
      }
      from = index.collect(shard, from, chunk);
      inChunk = 0;
    }
    if (next == null) {
      // a drop marks the table before it empties a shard, so a walk that found one empty sees it
      checkLive.run();
    }
    return next != null;
  }

  @Override
  public Map.Entry<K, V> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Map.Entry<K, V> e = next;
    next = null;
    return e;
  }

  private Map.Entry<K, V> read(long pointer, long address) {
    long now = core.nowMillis();
    Object[] kv;
    try {
      kv =
          core.log()
              .readSlice(
                  pointer,
                  (payload, mark) -> {
                    long form = EntryLayout.form(mark, bare);
                    if (!EntryLayout.wellFormed(payload, form)) {
                      return null;
                    }
                    long expireAt = EntryLayout.expireAt(payload, 0, form);
                    if (expireAt != 0 && now >= expireAt) {
                      return null;
                    }
                    return new Object[] {
                      EntryCodec.decodeKey(payload, form, keys),
                      EntryCodec.decodeValue(payload, form, core.codecs())
                    };
                  });
    } catch (StalePointerException | InvalidPointerException e) {
      return null;
    }
    if (kv == null
        || (expiry.hintPassed(index.metaAt(address), now) && index.pointerAt(address) == pointer)) {
      return null;
    }
    @SuppressWarnings("unchecked")
    K key = (K) kv[0];
    return new AbstractMap.SimpleImmutableEntry<>(key, valueType.cast(kv[1]));
  }
}
