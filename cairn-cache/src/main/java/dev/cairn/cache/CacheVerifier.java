package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.Pile;
import dev.cairn.pile.StalePointerException;
import java.util.HashSet;
import java.util.Set;

/**
 * Checks that a cache's index and its pile agree, on a quiet cache (no concurrent writes): every
 * slot names a live entry whose key hashes to that slot's hash bits and shard, each shard's counts
 * and bytes are what its slots add up to, every value in the pile is an entry some slot names or a
 * region of the index (no orphan), every retired region is still in the pile, and the eviction
 * policy's totals are the sums over the slots it counts (Evictor E1).
 */
final class CacheVerifier {
  private CacheVerifier() {}

  /** The figures a verify found. */
  record Report(long entries, long entryBytes, long regions, long pileValues) {}

  /**
   * @throws CacheCorruptionException naming the first disagreement
   */
  static Report verify(Pile pile, CacheCore core) {
    Set<Long> named = new HashSet<>();
    long entries = 0;
    long entryBytes = 0;
    long regions = 0;
    for (OffHeapTable<?, ?> table : core.tables()) {
      HashIndex index = table.index;
      String name = table.name();
      TableDescriptor descriptor = table.descriptor();
      long bare = descriptor.bareForm();
      for (int s = 0; s < HashIndex.SHARDS; s++) {
        if (index.regionOf(s) != 0) {
          named.add(index.regionOf(s));
          regions++;
        }
        int live = 0;
        int dead = 0;
        long bytes = 0;
        for (int i = 0; i < index.capacityOf(s); i++) {
          long address = HashIndex.slotAddress(s, i);
          long pointer = index.pointerAt(address);
          if (pointer == 0) {
            continue;
          }
          if (pointer == HashIndex.TOMBSTONE) {
            dead++;
            continue;
          }
          live++;
          long meta = index.metaAt(address);
          long[] hashAndSize;
          try {
            hashAndSize =
                core.log()
                    .readSlice(
                        pointer,
                        (payload, mark) -> {
                          long form = EntryLayout.form(mark, bare);
                          if (!EntryLayout.wellFormed(payload, form)) {
                            return null;
                          }
                          long hash =
                              descriptor.hash(
                                  payload.asSlice(EntryLayout.keyOffset(payload, 0, form)),
                                  EntryLayout.keyLength(payload, 0, form));
                          return new long[] {hash, payload.byteSize()};
                        });
          } catch (StalePointerException | InvalidPointerException e) {
            throw slotProblem(
                name, s, i, "names a value the pile does not hold: " + e.getMessage());
          }
          if (hashAndSize == null) {
            throw slotProblem(name, s, i, "names a value that is not a cache entry");
          }
          if (HashIndex.shardOf(hashAndSize[0]) != s
              || SlotLayout.hash32(hashAndSize[0]) != SlotLayout.hash32OfMeta(meta)) {
            throw slotProblem(
                name, s, i, "names an entry whose key hashes elsewhere: another key's entry");
          }
          if (!named.add(pointer)) {
            throw slotProblem(name, s, i, "names an entry another slot names too");
          }
          bytes += core.log().allocatedBytes((int) hashAndSize[1]);
        }
        if (live != index.countOf(s) || dead != index.deadOf(s) || bytes != index.bytesOf(s)) {
          throw new CacheCorruptionException(
              "table \""
                  + name
                  + "\" shard "
                  + s
                  + " counts "
                  + index.countOf(s)
                  + " entries, "
                  + index.deadOf(s)
                  + " tombstones and "
                  + index.bytesOf(s)
                  + " bytes, its slots hold "
                  + live
                  + ", "
                  + dead
                  + " and "
                  + bytes);
        }
        entries += live;
        entryBytes += bytes;
      }
    }
    for (CacheCore.Retired r : core.retiredRegions()) {
      try {
        pile.sizeOf(r.region());
      } catch (StalePointerException | InvalidPointerException e) {
        throw new CacheCorruptionException(
            "a retired index region (pointer 0x"
                + Long.toHexString(r.region())
                + ") is no longer in the pile: it was freed, yet the cache would free it again ("
                + e.getMessage()
                + ")");
      }
      named.add(r.region());
    }
    long[] values = new long[1];
    long[] orphan = {0};
    pile.forEach(
        (pointer, kind, size) -> {
          values[0]++;
          if (!named.contains(pointer) && orphan[0] == 0) {
            orphan[0] = pointer;
          }
        });
    if (orphan[0] != 0) {
      throw new CacheCorruptionException(
          "the pile holds a value no table names (pointer 0x"
              + Long.toHexString(orphan[0])
              + "): an orphan");
    }
    core.evictor().verify();
    return new Report(entries, entryBytes, regions, values[0]);
  }

  /** A disagreement found at slot {@code slot} of shard {@code shard} of table {@code table}. */
  private static CacheCorruptionException slotProblem(
      String table, int shard, int slot, String what) {
    return new CacheCorruptionException(
        "table \"" + table + "\" shard " + shard + " slot " + slot + " " + what);
  }
}
