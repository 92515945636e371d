package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.IndexRecord;
import dev.cairn.cache.index.SlotLayout;
import dev.cairn.memory.ThreadStatePadding;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The index changes of the cache's writes, as {@link EntryLog.Change}s: each takes its shard's lock
 * in {@link EntryLog.Change#apply}, under the pile write's lock, and releases it in {@link
 * EntryLog.Change#afterLog}, once the write is logged (HashIndex I4). One set per thread, reused.
 *
 * <p>Not thread-safe.
 */
final class CacheChanges extends ThreadStatePadding {
  /** The shard had no room for an insert: the writer grows it and tries again. */
  static final class ShardFullException extends RuntimeException {
    ShardFullException(String message) {
      super(message, null, false, false);
    }
  }

  final Insert insert = new Insert();
  final Rewrite rewrite = new Rewrite();
  final Remove remove = new Remove();
  final Resize resize = new Resize();

  /**
   * What every change shares: its index, shard, record, and the locks it releases: the shard's, and
   * the key's when its writer hands it over ({@link #releasingKeyLock}).
   */
  abstract static class ShardChange extends ThreadStatePadding implements EntryLog.Change {
    HashIndex index;
    int shard;
    IndexRecord record;
    private boolean locked;
    private ReentrantLock keyLock; // the writer's, released once the record is logged, or null
    private boolean applied; // change() returned: the record is the write's
    private boolean keyLockReleased;

    /** Sets up the change for a new write: no key lock handed over (yet). */
    final void reset(HashIndex index, int shard, IndexRecord record) {
      this.index = index;
      this.shard = shard;
      this.record = record;
      keyLock = null;
      applied = false;
      keyLockReleased = false;
    }

    /**
     * Hands over the writer's key lock: released with the shard's once the write's record is in the
     * log, before the write waits for durability (OffHeapTable T6). Only if the change was applied:
     * a write that fails before that keeps the lock, and its writer may try again.
     */
    final ShardChange releasingKeyLock(ReentrantLock lock) {
      keyLock = lock;
      return this;
    }

    /** Whether the key lock handed over was released here: its writer must not unlock it. */
    final boolean releasedKeyLock() {
      return keyLockReleased;
    }

    final MemorySegment applyLocked(long pointer) {
      index.lock(shard);
      locked = true;
      record.begin(index.tableId());
      change(pointer);
      applied = true;
      return record.bytes();
    }

    abstract void change(long pointer);

    @Override
    public MemorySegment apply(long pointer) {
      return applyLocked(pointer);
    }

    @Override
    public void afterLog() {
      if (locked) {
        locked = false;
        index.unlock(shard);
      }
    }

    /**
     * The pile logged the write (or it failed): the shard's lock goes (HashIndex I4), and the key's
     * if the change was applied (T6).
     */
    @Override
    public void logged() {
      afterLog();
      if (keyLock != null && applied) {
        keyLock.unlock();
        keyLock = null;
        keyLockReleased = true;
      }
    }
  }

  /** An insert of a new entry's slot. */
  static final class Insert extends ShardChange {
    long hash;
    int expiry;
    int policy;
    long bytes;

    @Override
    void change(long pointer) {
      try {
        index.insert(hash, pointer, expiry, policy, bytes, record);
      } catch (IllegalStateException e) {
        throw new ShardFullException(e.getMessage());
      }
    }
  }

  /** A rewritten entry's slot: expiry, policy, bytes. */
  static final class Rewrite extends ShardChange {
    int hash32;
    int expiry;
    int policy;
    long bytesDelta;

    @Override
    void change(long pointer) {
      long address = index.slotOf(shard, hash32, pointer);
      if (address >= 0) {
        index.rewrite(address, pointer, expiry, policy, bytesDelta, record);
      }
    }
  }

  /** A removed entry's slot, and the policy bits it had (read under the shard's lock). */
  static final class Remove extends ShardChange {
    int hash32;
    long bytes;
    private boolean removed;
    private int removedPolicy;

    @Override
    void change(long pointer) {
      long address = index.slotOf(shard, hash32, pointer);
      if (address >= 0) {
        removedPolicy = SlotLayout.policyOfMeta(index.metaAt(address));
        removed = index.removeAt(address, pointer, bytes, record);
      }
    }

    boolean removed() {
      return removed;
    }

    /** The policy byte of the removed slot, as the eviction policy last set it (CacheSlots V1). */
    int removedPolicy() {
      return removedPolicy;
    }
  }

  /** A shard rebuilt into a new region. */
  static final class Resize extends ShardChange {
    int capacity;
    HashIndex.Retirement retirement;

    /**
     * Rebuilds the shard into the new region, and retires, in the same record, the region that is
     * no longer used: the old one, or the new one if another writer grew the shard first. So a
     * checkpoint, and a recovery, see a region in a shard or among the retired, never in neither
     * (no orphan).
     */
    @Override
    void change(long pointer) {
      int oldCapacity = index.capacityOf(shard);
      long old = index.rebuild(shard, pointer, capacity, record);
      if (old == -1) { // rebuild logged the new region's retirement (IndexRecord's Retire)
        retirement.retired(pointer, capacity);
      } else if (old != 0) {
        retirement.retired(old, oldCapacity); // the record's Resize retires it at replay
      }
    }
  }

  Insert insert(
      HashIndex index, long hash, int expiry, int policy, long bytes, IndexRecord record) {
    Insert c = insert;
    c.reset(index, HashIndex.shardOf(hash), record);
    c.hash = hash;
    c.expiry = expiry;
    c.policy = policy;
    c.bytes = bytes;
    return c;
  }

  Rewrite rewrite(
      HashIndex index,
      int shard,
      int hash32,
      int expiry,
      int policy,
      long bytesDelta,
      IndexRecord record) {
    Rewrite c = rewrite;
    c.reset(index, shard, record);
    c.hash32 = hash32;
    c.expiry = expiry;
    c.policy = policy;
    c.bytesDelta = bytesDelta;
    return c;
  }

  Remove remove(HashIndex index, int shard, int hash32, long bytes, IndexRecord record) {
    Remove c = remove;
    c.reset(index, shard, record);
    c.hash32 = hash32;
    c.bytes = bytes;
    c.removed = false;
    return c;
  }

  Resize resize(
      HashIndex index,
      int shard,
      int capacity,
      IndexRecord record,
      HashIndex.Retirement retirement) {
    Resize c = resize;
    c.reset(index, shard, record);
    c.capacity = capacity;
    c.retirement = retirement;
    return c;
  }
}
