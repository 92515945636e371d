package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import java.util.List;

/**
 * Frees bytes for the budget: a hand per table sweeps its slots in index order, reaps the
 * expired ones it passes and asks the policy of the others; the table evicted from is the one furthest above its share of the budget
 * ({@link TableOptions#maxShare}), never one below its {@link TableOptions#minShare} while
 * another is above its own.
 *
 * <p>Thread-safety: one eviction at a time (a writer that needs room while another evicts waits
 * for it); readers never wait. Victims' key locks are only tried (OffHeapTable T1).
 */
final class Evictor {
  private final CacheCore core;
  private final EvictionPolicy policy;

  Evictor(CacheCore core, EvictionPolicy policy) {
    this.core = core;
    this.policy = policy;
  }

  /**
   * Evicts until {@code bytes} were freed or nothing evictable is left; returns the bytes freed.
   */
  synchronized long evict(long bytes) {
    long freed = 0;
    List<OffHeapTable<?, ?>> tables = core.tables();
    for (OffHeapTable<?, ?> t : tables) {
      t.hand.exhausted = false;
    }
    // each table may be passed over twice: once to clear reference bits, once to evict
    while (freed < bytes) {
      OffHeapTable<?, ?> table = pick(tables);
      if (table == null) {
        return freed;
      }
      long got = sweep(table, bytes - freed);
      if (got == 0) {
        table.hand.exhausted = true;
      }
      freed += got;
    }
    return freed;
  }

  /** The table to evict from next, or null if every table is exhausted. */
  private OffHeapTable<?, ?> pick(List<OffHeapTable<?, ?>> tables) {
    long budget = core.budgetBytes();
    OffHeapTable<?, ?> best = null;
    double bestOver = Double.NEGATIVE_INFINITY;
    for (OffHeapTable<?, ?> t : tables) {
      if (t.hand.exhausted || t.descriptor().options().pinned() || t.index.size() == 0) {
        continue;
      }
      double share = (double) t.index.entryBytes() / budget;
      TableOptions o = t.descriptor().options();
      double over = share > o.maxShare() ? 1 + share - o.maxShare()
          : share < o.minShare() ? -1 + share - o.minShare()
          : share - o.maxShare();
      if (over > bestOver) {
        bestOver = over;
        best = t;
      }
    }
    return best;
  }

  /**
   * Sweeps {@code table}'s hand up to two full turns, evicting what the policy says until
   * {@code bytes} are freed; returns the bytes freed.
   */
  private long sweep(OffHeapTable<?, ?> table, long bytes) {
    HashIndex index = table.index;
    Hand hand = table.hand;
    long freed = 0;
    long slots = 0;
    for (int s = 0; s < HashIndex.SHARDS; s++) {
      slots += index.capacityOf(s);
    }
    for (long passed = 0; passed < 2 * slots && freed < bytes; passed++) {
      if (hand.slot >= index.capacityOf(hand.shard)) {
        hand.shard = (hand.shard + 1) & (HashIndex.SHARDS - 1);
        hand.slot = 0;
        continue;
      }
      long address = HashIndex.slotAddress(hand.shard, hand.slot++);
      long pointer = index.pointerAt(address);
      if (pointer == 0 || pointer == HashIndex.TOMBSTONE) {
        continue;
      }
      long meta = index.metaAt(address);
      if (table.slotExpiredAt(meta, core.nowMillis())) {
        freed += table.reap(hand.shard, meta, pointer);
        continue;
      }
      if (!policy.sweep(table, address, meta)) {
        continue;
      }
      long got = table.removeSlot(hand.shard, SlotLayout.hash32OfMeta(meta), pointer, true,
          RemovalCause.EVICTED);
      if (got > 0) {
        table.evictions.increment();
        freed += got;
      }
    }
    return freed;
  }

  /** Where a table's hand is. Guarded by the evictor's lock. */
  static final class Hand {
    int shard;
    int slot;
    boolean exhausted;
  }
}
