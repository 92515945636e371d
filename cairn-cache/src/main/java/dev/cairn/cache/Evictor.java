package dev.cairn.cache;

import static dev.cairn.cache.policy.PolicyBitsLayout.LEAVING;
import static dev.cairn.cache.policy.PolicyBitsLayout.POLICY_MASK;
import static dev.cairn.cache.policy.PolicyBitsLayout.PROTECTED;
import static dev.cairn.cache.policy.PolicyBitsLayout.WINDOW;
import static dev.cairn.cache.policy.PolicyBitsLayout.segment;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import dev.cairn.cache.policy.FrequencySketch;
import dev.cairn.cache.policy.TinyLfuClock;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.StalePointerException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import jdk.jfr.FlightRecorder;

/**
 * Keeps a cache within its byte budget with one W-TinyLFU policy ({@link TinyLfuClock}) over all
 * its tables ({@link CacheSlots}): readers record hits without a lock; writers record what they
 * stored in a {@link WriteBuffer} and go on, and whoever wins a tryLock of the eviction lock drains
 * the buffer and evicts (Caffeine's maintenance, run by the writers themselves).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Events. A hit records the key in the sketch and sets its slot's referenced bit by one
 * compare-and-set, lock-free. A write stores its entry with the bits LEAVING (not counted,
 * CacheSlots), then records the key in the sketch (a miss for a new entry, a hit for a
 * rewrite, as Caffeine's AddTask and UpdateTask) and offers its policy hash to the buffer. A
 * removal (delete, expiry, eviction, clear) reads the entry's bits under its shard's lock as
 * it empties the slot, and adds its segment's count and bytes to `removed`: sums, folded
 * into the policy by the next drain, so no removal can be lost to a full buffer.
 *
 * Drain (the eviction lock's holder): renew the numbering if the index grew (and the policy's
 * budget: the cache's budget minus the index's regions, shares kept); fold the removals; count
 * each buffered entry (its key's lock tried: a busy one waits for the next drain); then evict
 * while the cache's usedBytes, which counts entries, index and retired regions exactly, is over
 * the budget: the policy names victims (marking them LEAVING), each is removed by
 * OffHeapTable.removeSlot with its key's lock only tried (T1), and one whose lock is busy is
 * kept: set back to be counted again into probation (CacheSlots' count field KEPT). What the
 * hand passed that is expired is reaped (EXPIRED), what it passed uncounted is counted.
 *
 * Writers never wait for a drain: after its write, a writer tries the lock; if another thread
 * holds it, that one drains this writer's event and bytes too, since it looks again after it
 * unlocks (E2). Only a write that would take usedBytes past budget + slackBytes waits for the
 * lock and evicts first, before it writes (OffHeapTable T4): so usedBytes never passes
 * budget + slackBytes + the bytes of the writes in flight (E3).
 *
 * Invariants
 * E1  The policy's totals equal the sums over the slots it counts (TinyLfuClock I1) once the
 *     removals are folded: every segment change of a counted entry is made under its shard's
 *     lock by the policy (CacheSlots V1) or by a removal or rewrite that reports it here.
 * E2  After a writer's tryLock fails, the holder sees its event and its bytes: the writer
 *     published both before it tried, and the holder looks again (needsDrain) after it
 *     unlocks, for up to MAX_ROUNDS rounds while they make progress.
 * E3  Overshoot: a write goes ahead without evicting only if usedBytes plus what it adds is
 *     within budget + slackBytes, or after WRITE_ROUNDS rounds of eviction whose victims all
 *     had their key's lock busy; so, but for those, usedBytes <= budget + slackBytes + what the
 *     writes in flight add (each its entry, and the region of a shard it grows). At rest (no
 *     writer) it is <= budget, unless what is left to evict is pinned, or the last drain gave
 *     up after MAX_ROUNDS: then <= budget + slackBytes until the next write.
 * E4  A write that cannot get room fails with CacheFullException having written nothing
 *     (OffHeapTable T4): after waiting for the lock and evicting all it could, usedBytes plus
 *     its bytes is still over budget + slackBytes, and the policy found nothing to evict.
 *     "Nothing to evict" (stuck) lasts until the earliest expiry among the pinned slots the hand
 *     passed (CacheSlots.earliestPinnedExpiry), STUCK_MILLIS of the cache's clock at most:
 *     pinned entries expire, and the hand that reaps them does not run while stuck; so a write
 *     once one may have expired sweeps again, and gets the room of the pinned entries that did
 *     (a second after their exact time at most: the slots keep their expiry in seconds).
 * E5  Nothing here blocks a reader: a hit takes no lock (its bit is one compare-and-set), and
 *     the policy's bit changes take a shard's lock, which lookups do not take (HashIndex I2).
 *     (A read that finds its entry expired removes it as a write does, its key's lock tried.)
 * }</pre>
 *
 * <p>Thread-safety: every method may be called from any thread. Lock order: a key's lock (held by a
 * writer that must evict first), then the eviction lock, then pile stripes and shards' locks; the
 * holder only tries keys' locks.
 */
final class Evictor {
  /** Events the buffer holds; a writer that finds it full drops its event (WriteBuffer). */
  static final int BUFFER_EVENTS = 1024;

  /** Victims the policy names per call. */
  static final int VICTIMS = 16;

  /** Entries whose key's lock was busy when a drain wanted to count them, kept for the next. */
  static final int RETRIES = 256;

  /** Drain rounds a thread runs after its write, at most (E2). */
  static final int MAX_ROUNDS = 64;

  /** Rounds of eviction a write that waits for the lock runs before giving up (E4). */
  static final int WRITE_ROUNDS = 8;

  private final CacheCore core;
  private final long budgetBytes;
  private final long slackBytes;
  private final boolean bounded;
  private final ReentrantLock lock = new ReentrantLock();
  private final WriteBuffer buffer = new WriteBuffer(BUFFER_EVENTS);
  private final ReadBuffer reads = new ReadBuffer(); // hits not yet told to the policy
  private final CacheSlots slots;
  private final FrequencySketch sketch;
  private final TinyLfuClock policy;
  private final AtomicLong[] removedEntries = new AtomicLong[3];
  private final AtomicLong[] removedBytes = new AtomicLong[3];
  private final long[] victimSlots = new long[VICTIMS];
  private final long[] retries = new long[RETRIES];
  private int retryCount;
  // classes, not this::countBuffered and a lambda: the open makes the evictor (CacheCore)
  private final LongConsumer counter =
      new LongConsumer() {
        @Override
        public void accept(long policyHash) {
          countBuffered(policyHash);
        }
      };
  // the policy found nothing to evict and nothing evictable was counted since (guarded by lock;
  // read racily by needsDrain)
  private volatile boolean stuck;

  private volatile long stuckUntilMillis; // the cache's clock when stuck stops being believed

  /** How long "only pinned entries left" is believed before the hand looks again (E4). */
  static final long STUCK_MILLIS = 1_000;

  private volatile boolean dropped; // an event found the buffer full: the hand must count

  // counting one entry (under the lock)
  private long foundPointer;
  private final HashIndex.SlotMatcher uncounted =
      new HashIndex.SlotMatcher() {
        @Override
        public boolean matches(long address, long pointer, long meta) {
          if (segment(SlotLayout.policyOfMeta(meta)) != LEAVING) {
            return false;
          }
          foundPointer = pointer;
          return true;
        }
      };

  Evictor(CacheCore core, long budgetBytes) {
    this.core = core;
    this.budgetBytes = budgetBytes;
    this.bounded = budgetBytes != Long.MAX_VALUE;
    this.slackBytes = bounded ? slackFor(budgetBytes) : 0;
    this.slots = new CacheSlots(core);
    this.sketch = new FrequencySketch(0);
    this.policy = new TinyLfuClock(slots, sketch, budgetBytes);
    for (int i = 0; i < removedEntries.length; i++) {
      removedEntries[i] = new AtomicLong();
      removedBytes[i] = new AtomicLong();
    }
  }

  /**
   * How far a write may take usedBytes past the budget without waiting for eviction (E3): 1/64 of
   * the budget, and at least 64 KiB (an eighth of a budget under 512 KiB).
   */
  static long slackFor(long budgetBytes) {
    return Math.max(budgetBytes / 64, Math.min(64 << 10, budgetBytes / 8));
  }

  long slackBytes() {
    return slackBytes;
  }

  /**
   * Whether the cache has a budget: only then does the policy count entries, evict, or read the
   * slots' policy bits (an unbounded cache leaves them as they are, and never trusts them).
   */
  boolean bounded() {
    return bounded;
  }

  /** The eviction lock, for tests that hold it to show writers do not wait for it. */
  ReentrantLock lock() {
    return lock;
  }

  // ----------------------------------------------------------------------- lock-free side

  /** A read hit the entry of {@code slot}, whose meta word is {@code meta}. */
  void onHit(OffHeapTable<?, ?> table, long slot, long meta) {
    if (!bounded) {
      return;
    }
    reads.add(
        CacheSlots.policyHash(
            table.descriptor().id(), HashIndex.shardOfAddress(slot), SlotLayout.hash32OfMeta(meta)),
        policy);
    int bits = SlotLayout.policyOfMeta(meta);
    int hit = TinyLfuClock.hitBits(bits & POLICY_MASK) | (bits & ~POLICY_MASK);
    if (hit != bits) {
      table.index.casPolicy(slot, meta, hit);
    }
  }

  /** The policy byte of a new entry: not counted, to be counted into the window. */
  static int insertBits(boolean pinned) {
    return CacheSlots.UNCOUNTED | CacheSlots.COUNT_NEW | (pinned ? CacheSlots.PINNED : 0);
  }

  /**
   * Before a rewrite of the entry of {@code pointer} (its key's lock held, its size {@code bytes}):
   * sets it uncounted under its shard's lock and reports its segment and size, so that the policy
   * never reads its new size while it is counted (CacheSlots V2). Returns the policy byte the
   * rewrite stores: uncounted, to be counted into probation (referenced) if it was in the main
   * space, else into the window; pinned as {@code pinned} says.
   */
  int beforeRewrite(
      OffHeapTable<?, ?> table, int shard, int hash32, long pointer, long bytes, boolean pinned) {
    int pin = pinned ? CacheSlots.PINNED : 0;
    if (!bounded) {
      return insertBits(pinned);
    }
    int old = CacheSlots.uncountLocked(table.index, shard, hash32, pointer, true);
    if (old < 0) {
      return insertBits(pinned);
    }
    int segment = segment(old);
    if (segment == LEAVING) {
      return CacheSlots.UNCOUNTED | (old & CacheSlots.COUNT_MASK) | pin; // not counted: as it was
    }
    onRemoved(old, bytes);
    int count = segment == WINDOW ? CacheSlots.COUNT_NEW : CacheSlots.COUNT_UPDATED;
    return CacheSlots.UNCOUNTED | count | pin;
  }

  /** The index removed (or uncounted) an entry of {@code bytes}, its policy byte {@code bits}. */
  void onRemoved(int bits, long bytes) {
    int segment = segment(bits);
    if (!bounded || segment == LEAVING) {
      return;
    }
    removedEntries[segment].incrementAndGet();
    removedBytes[segment].addAndGet(bytes);
  }

  /**
   * After a write stored (or rewrote) the entry of key hash {@code keyHash}, with usedBytes already
   * counting it: records the key in the sketch, offers its event, and drains if it wins the lock.
   * Never waits (E2).
   */
  void afterWrite(OffHeapTable<?, ?> table, long keyHash, boolean inserted) {
    if (!bounded) {
      return;
    }
    long hash =
        CacheSlots.policyHash(
            table.descriptor().id(), HashIndex.shardOf(keyHash), SlotLayout.hash32(keyHash));
    if (inserted) {
      policy.onMiss(hash);
    } else {
      policy.recordHit(hash);
    }
    offer(hash);
    drainIfNeeded();
  }

  /** Offers the event of an entry left uncounted (a write that failed after uncounting it). */
  void offer(long policyHash) {
    if (bounded && !buffer.offer(policyHash)) {
      dropped = true;
    }
  }

  private boolean needsDrain() {
    return buffer.hasEvents() || dropped || (!stuck() && core.usedBytes() > budgetBytes);
  }

  /** Drains if this thread wins the lock, and again while there is work (E2). */
  void drainIfNeeded() {
    for (int round = 0; round < MAX_ROUNDS && needsDrain(); round++) {
      if (!lock.tryLock()) {
        return; // the holder drains what this thread added
      }
      boolean progress;
      try {
        progress = drainLocked(0);
      } finally {
        lock.unlock();
      }
      if (!progress) {
        return;
      }
    }
  }

  // --------------------------------------------------------------------- the lock's holder

  /**
   * Makes room for a write of {@code bytes} more that would take usedBytes past budget +
   * slackBytes: waits for the lock and evicts until usedBytes + bytes fits the budget (E3). Returns
   * false if the policy found nothing more to evict (E4).
   */
  boolean evictForWrite(long bytes) {
    lock.lock();
    try {
      for (int round = 0; round < WRITE_ROUNDS; round++) {
        drainLocked(bytes);
        if (core.usedBytes() + bytes <= budgetBytes + slackBytes) {
          return true;
        }
        if (stuck()) {
          return false;
        }
      }
      return true; // victims' locks stayed busy: go ahead, the next drain goes on (E3)
    } finally {
      lock.unlock();
    }
  }

  /** One drain (see the note); returns whether it did anything. */
  private boolean drainLocked(long extraBytes) {
    reads.flush(policy); // this thread's hits before its decisions
    if (slots.begin(core.nowMillis())) {
      policy.resizeBudget(Math.max(1, budgetBytes - slots.indexBytes()));
    }
    if (dropped) {
      dropped = false;
      stuck = false; // an entry may be uncounted: let the hand find it
    }
    boolean progress = foldRemovals();
    progress |= buffer.drain(counter) > 0;
    if (retryCount > 0) {
      int n = retryCount;
      retryCount = 0;
      for (int i = 0; i < n; i++) {
        progress |= count(retries[i]);
      }
    }
    progress |= evict(extraBytes);
    sketch.ensureCapacity(policy.entries());
    return progress;
  }

  private boolean foldRemovals() {
    boolean any = false;
    for (int segment = WINDOW; segment <= PROTECTED; segment++) {
      if (removedEntries[segment].get() == 0 && removedBytes[segment].get() == 0) {
        continue; // no write to a line the removers share
      }
      long entries = removedEntries[segment].getAndSet(0);
      long bytes = removedBytes[segment].getAndSet(0);
      if (entries != 0 || bytes != 0) {
        policy.onRemoved(segment, entries, bytes);
        any = true;
      }
    }
    return any;
  }

  private void countBuffered(long policyHash) {
    count(policyHash);
  }

  /**
   * Counts the uncounted entry of {@code policyHash}, its key's lock tried (CacheSlots V2); one
   * whose lock is busy is kept for the next drain. Returns whether it counted one.
   */
  private boolean count(long policyHash) {
    OffHeapTable<?, ?> table = slots.table(CacheSlots.tableIdOf(policyHash));
    if (table == null) {
      return false;
    }
    int shard = CacheSlots.shardOf(policyHash);
    int hash32 = CacheSlots.hash32Of(policyHash);
    ReentrantLock keyLock = table.stripeLock(hash32);
    if (!keyLock.tryLock()) {
      if (retryCount < RETRIES) {
        retries[retryCount++] = policyHash;
      } else {
        dropped = true; // the hand counts it when it passes
      }
      return false;
    }
    try {
      if (table.index.findSlot(shard, hash32, uncounted) < 0) {
        return false;
      }
      long pointer = foundPointer;
      long bytes;
      try {
        bytes = core.log().allocatedBytes(core.log().payloadBytes(pointer));
      } catch (StalePointerException | InvalidPointerException e) {
        return false;
      }
      int bits = CacheSlots.countLocked(table.index, shard, hash32, pointer);
      if (bits < 0) {
        return false;
      }
      policy.onCounted(policyHash, bits & POLICY_MASK, bytes);
      if ((bits & CacheSlots.PINNED) == 0) {
        stuck = false; // something evictable again
      }
      return true;
    } finally {
      keyLock.unlock();
    }
  }

  /**
   * Whether the hand found only pinned entries, none of which may have expired since (E4); once one
   * may have, or {@link #STUCK_MILLIS} passed, the next drain sweeps again.
   */
  private boolean stuck() {
    if (!stuck) {
      return false;
    }
    if (core.nowMillis() < stuckUntilMillis) {
      return true;
    }
    stuck = false;
    return false;
  }

  /** Evicts while usedBytes + {@code extraBytes} is over the budget; whether it did anything. */
  private boolean evict(long extraBytes) {
    boolean progress = false;
    if (bounded && !stuck() && core.usedBytes() + extraBytes > budgetBytes) {
      // JFR: committed at the end of the pass; made only while JFR runs, since JFR's first event
      // in a JVM costs about a quarter of a second
      EvictionEvent event = FlightRecorder.isInitialized() ? new EvictionEvent() : null;
      if (event != null) {
        event.begin();
      }
      long overAtStart = core.usedBytes() + extraBytes - budgetBytes;
      long freedInPass = 0;
      int level = slots.restrictFirst();
      for (int round = 0; round < MAX_ROUNDS && !stuck; round++) {
        long over = core.usedBytes() + extraBytes - budgetBytes;
        if (over <= 0) {
          break;
        }
        int named = policy.evictUntil(over, victimSlots);
        long freed = removeVictims() + reapNoted();
        freedInPass += freed;
        int counted = countNoted();
        foldRemovals();
        if (freed > 0 || counted > 0) {
          progress = true;
        } else if (named > 0) {
          break; // every victim's lock was busy: the next drain goes on
        } else if (level < CacheSlots.ANY_TABLE) {
          level++;
          slots.restrict(level); // nothing to take where the shares say: look wider
        } else {
          stuckUntilMillis =
              Math.min(core.nowMillis() + STUCK_MILLIS, slots.earliestPinnedExpiry());
          stuck = true; // only pinned entries left (E4)
        }
      }
      slots.restrict(CacheSlots.ANY_TABLE);
      if (event != null) {
        event.end();
      }
      if (event != null && event.shouldCommit()) {
        event.bytesFreed = freedInPass;
        event.bytesOver = overAtStart;
        event.stuck = stuck;
        event.commit();
      }
    }
    policy.evictUntil(0, victimSlots); // as after each insert: waiting candidates wait no more
    return progress;
  }

  /** Removes the victims the policy named; keeps those whose lock is busy. The bytes freed. */
  private long removeVictims() {
    long freed = 0;
    for (int i = 0; i < slots.victims; i++) {
      OffHeapTable<?, ?> table = slots.tableAt(slots.victimTables[i]);
      int shard = slots.victimShards[i];
      int hash32 = slots.victimHashes[i];
      long pointer = slots.victimPointers[i];
      long got = table.removeSlot(shard, hash32, pointer, true, RemovalCause.EVICTED);
      if (got > 0) {
        table.evictions.increment();
        freed += got;
      } else if (CacheSlots.uncountLocked(table.index, shard, hash32, pointer, false) >= 0) {
        long hash = CacheSlots.policyHash(table.descriptor().id(), shard, hash32);
        if (retryCount < RETRIES) {
          retries[retryCount++] = hash;
        } else {
          dropped = true;
        }
      }
    }
    slots.victims = 0;
    return freed;
  }

  /** Reaps the expired slots the hand passed (EXPIRED); the bytes freed. */
  private long reapNoted() {
    long freed = 0;
    for (int i = 0; i < slots.reaps; i++) {
      freed +=
          slots
              .tableAt(slots.reapTables[i])
              .reap(slots.reapShards[i], slots.reapMetas[i], slots.reapPointers[i]);
    }
    slots.reaps = 0;
    return freed;
  }

  /** Counts the uncounted entries the hand passed; how many. */
  private int countNoted() {
    int n = slots.countNotes;
    slots.countNotes = 0;
    int counted = 0;
    for (int i = 0; i < n; i++) {
      if (count(slots.counts[i])) {
        counted++;
      }
    }
    return counted;
  }

  // -------------------------------------------------------------------------------- checks

  /**
   * Checks, on a cache no thread writes to meanwhile, that the policy's totals equal the sums over
   * the slots it counts (E1, TinyLfuClock I1).
   *
   * @throws CacheCorruptionException naming the first total that differs
   */
  void verify() {
    if (!bounded) {
      return;
    }
    lock.lock();
    try {
      foldRemovals();
      long used = 0;
      long window = 0;
      long protectedBytes = 0;
      long entries = 0;
      for (OffHeapTable<?, ?> table : core.tables()) {
        HashIndex index = table.index;
        for (int s = 0; s < HashIndex.SHARDS; s++) {
          for (int i = 0; i < index.capacityOf(s); i++) {
            long address = HashIndex.slotAddress(s, i);
            long pointer = index.pointerAt(address);
            if (pointer == 0 || pointer == HashIndex.TOMBSTONE) {
              continue;
            }
            int segment = segment(SlotLayout.policyOfMeta(index.metaAt(address)));
            if (segment == LEAVING) {
              continue;
            }
            long bytes = Math.max(0, slots.entryBytes(pointer));
            used += bytes;
            entries++;
            window += segment == WINDOW ? bytes : 0;
            protectedBytes += segment == PROTECTED ? bytes : 0;
          }
        }
      }
      check("usedBytes", policy.usedBytes(), used);
      check("entries", policy.entries(), entries);
      check("windowBytes", policy.windowBytes(), window);
      check("protectedBytes", policy.protectedBytes(), protectedBytes);
    } finally {
      lock.unlock();
    }
  }

  private static void check(String total, long counted, long slots) {
    if (counted != slots) {
      throw new CacheCorruptionException(
          "the eviction policy's "
              + total
              + " must equal the sum"
              + " over the slots it counts (Evictor E1): counted="
              + counted
              + " slots="
              + slots);
    }
  }
}
