package dev.cairn.cache.index;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntUnaryOperator;

/**
 * One table's index: key hash to the pile pointer of its entry, in {@value #SHARDS} shards, each an
 * open-addressing table of 16-byte slots ({@link SlotLayout}) in one region.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Size: this class is longer than Cairn's 800-line rule of thumb on purpose. Its one job is the
 * shards: placement, growth, lock-free lookup, replay and drop all read and write the same
 * shard fields (region, capacity, counts, version) under the invariants below, and split
 * across classes each part would reach into the others' fields. What it does not need to see
 * lives elsewhere: the slot's bits (SlotLayout), the record's bytes (IndexRecord), the regions'
 * memory and files (RegionStore, the cache's), the policy (the cache's CacheSlots).
 *
 * Placement: the top 8 bits of the 64-bit key hash pick the shard; the next 32 (hash32, kept
 * in the slot) pick the home slot, hash32 & (capacity - 1), and probing is linear: an entry's
 * slot is its home or after it, with no empty slot between (the probe invariant).
 *
 * Removal:
 * R1  A removal empties its slot and moves back the entries after it in its cluster whose probe
 *     passes the hole (their home is not between the hole and their slot), each into the last
 *     hole, until an empty slot (Knuth's algorithm R for linear probing): the probe invariant
 *     holds with no tombstone, so a shard under churn is never rebuilt to drop tombstones, and
 *     never retires a region for them. A tombstone met on the way is kept: it is not empty, so
 *     every probe through it still passes. Each move is a Set in the removal's record.
 * R2  A shift stops after MAX_SHIFT moves, or when the record has room for one Set only, and
 *     leaves a tombstone (pointer TOMBSTONE) in its last hole, which probes pass over and
 *     inserts reuse; so does a file written before removals shifted. Tombstones count as dead
 *     slots, and a rebuild drops them.
 *
 * Growth:
 * G1  A shard is rebuilt into a new region when live + dead slots would pass 3/4 of its
 *     capacity: twice as large if live slots pass 1/2, else the same size (tombstones dropped),
 *     which then frees at least 1/4 of it. A load passes 3/4 with no tombstone, so it doubles
 *     at 3/4, to 3/8 full.
 * G2  A shard an eighth full or less (live slots, counting the insert that asks) is rebuilt at
 *     half its size, down to MIN_CAPACITY, a quarter full or less: a table emptied by clear()
 *     or by removals gives its regions back to the budget. The gap between 1/8 and the 3/8 a
 *     doubling leaves keeps a shard whose count only wanders from halving and doubling in turn;
 *     the eviction hand meets the shards interleaved, so a bounded cache's shards keep steady
 *     counts (the cache's CacheSlots). Asked before an insert and after a removal or clear,
 *     outside the pile write (a rebuild takes a new region, a write of its own).
 * Only that shard is copied, under its lock: no table-wide rehash, and the transient extra
 * memory is one shard's region. The old region is handed back to the caller (retired), which
 * frees it once no recovery can need it (see Recovery).
 *
 * Concurrency:
 * I1  Every change is made under the shard's lock, which callers take only inside a pile
 *     write's attachment (lock order: pile stripe, then shard) or during replay. The eviction
 *     policy also takes it, alone, to change a slot's policy bits (never logged): so a rebuild,
 *     which copies the slots under the lock, never loses a policy change (the cache's
 *     CacheSlots), and a removal reads the bits it removes as the policy last set them.
 * I2  A slot's meta is stored before its pointer, each with release; a reader loads the
 *     pointer, then the meta. An emptied slot keeps its meta. So a reader that sees an entry's
 *     pointer sees its meta, or a later one with the same hash (a rewrite), unless the entry
 *     moved or was removed meanwhile: a candidate that is not the key's is rejected by the
 *     caller, which checks the entry's own key in the pile, whose tag check rejects a deleted or
 *     reused block. A hit is therefore always right.
 * I3  A rebuild, and a removal that moves entries (R1), make the shard's version odd, move, and
 *     make it even again. A lookup that misses re-reads the version and retries if it moved, so
 *     a key present before the lookup began is not missed because it moved: to a new region, or
 *     back past the lookup's position. A removal that moves nothing leaves the version: no
 *     entry's probe passes the slot it empties (R1).
 * S1  collect() walks a shard by home slots at the capacity C0 it had when the walk began,
 *     SCAN_HOMES of them a call: a call takes the entries whose hash32 & (C0 - 1) is in its
 *     range. Capacities are powers of two, so at capacity C >= C0 those entries are the ones
 *     whose home is in the range plus a multiple of C0: C / C0 runs of slots, each walked from
 *     its first home to the first empty slot after its last (their entries are there: the probe
 *     invariant); at C < C0 (G2), the one run of their homes mod C, or the whole shard. A
 *     call's runs are walked under I3's version check, so an entry that stayed put through it
 *     is collected once; an entry present throughout the walk is met in the one call whose
 *     range holds its hash, and a key removed and written again is met by that call or not at
 *     all, never twice. Runs of slots in order: a walk reads the region sequentially while no
 *     rebuild comes between.
 * I5  Replay meets states newer than the records: a checkpoint takes the shards' state after it
 *     chose its LSN, so it may hold a rebuild logged after that LSN. Each Set names the region
 *     it stored into and is skipped if the shard is in another (the rebuild copied it there);
 *     a Resize from a region the shard already left is skipped. The slots a skipped Resize
 *     moved come from its record's pile part: the pile logs the new region whole as the write
 *     ends, after the rebuild filled it, and replay applies that before the Resize. (So the
 *     region must not be logged as the zeros it was put as, nor by its header alone: the
 *     checkpoint's pages hold the rebuilt region, but replay from the checkpoint's LSN first
 *     applies the after-images of older records, of values that held the region's memory
 *     before it, over those pages; only the region's own after-image, later in the log,
 *     restores it.) An older state cannot meet either: replay starts at its LSN and follows
 *     the shard's rebuilds in order.
 * I4  A shard's lock is held from its change until the change's record is in the pile's log
 *     (the caller unlocks once the pile has logged it). Writes on different pile stripes log
 *     in any order; this keeps the records of one shard in the order of its changes, so that
 *     replaying them in LSN order rebuilds the same slots and counts.
 *
 * Opening:
 * V1  A shard's region is viewed at its first use after an open, not by the open: viewing checks
 *     the region's pages against their checksums (RegionStore#view), which reads them from disk,
 *     and a 10M-entry index is about 270 MB. So the first hit after a reopen waits for one
 *     shard's pages, not the whole index. Lookups, slot reads and hints view the shard themselves
 *     (view(), outside any pile lock). A write views it before the pile write whose attachment
 *     changes it (its lookup does, and a growth calls view()): viewing takes a pile lock, which
 *     an attachment must not take. A change to an unviewed shard is refused (lockedShard), and
 *     no rebuild comes before the first view. The first view is taken under the shard's monitor,
 *     so racing first uses wait for one view. Replay views a region when a record first needs it
 *     (replayView), as one thread. Exception: an open that recovered from a checkpoint cut short
 *     views every shard (viewAll), since the pile takes hinted pages as they are only then; that
 *     view marks the pages, so it costs no read of them and no checksum.
 * V2  What a process knows of a slot's policy bits does not outlive it (the cache's policy
 *     counts entries in totals that start at zero at each open). The cache says at open what
 *     every live slot's bits become (resetPolicyAtFirstView): shards replay viewed are reset
 *     then, every other shard at its first view, before the view is published, so no policy
 *     change made in this process is ever reset. The open walks no slot, except after a cut
 *     checkpoint, whose recovery views every shard (V1): then it resets them all.
 *
 * Dropping:
 * D1  drop() takes every shard's lock, in shard order, and keeps them until the drop's record is
 *     logged (I4; unlockDropped). Under them it marks the index dropped, retires each shard's
 *     region (a Retire op each, and the caller's retirement, which frees the region once no
 *     recovery or reader can need it) and empties the shard: its region becomes 0, so lookups
 *     miss. After it, growthFor() asks for nothing and a rebuild retires the region it was given
 *     (a growth that began before the drop); the caller has removed every entry and stops its
 *     writes (the table's key locks) before it drops.
 *
 * Recovery: every change appends its ops to an IndexRecord that the pile logs with the write
 * (IndexRecord's format). Replay applies them in LSN order over the shards' state of the last
 * checkpoint. A Resize is replayed by rehashing the old region, so the old region must hold, at
 * replay, exactly what it held when the resize was logged: it is freed only after a checkpoint
 * later than the resize has completed (the caller's retire rule).
 * }</pre>
 */
public final class HashIndex {
  public static final int SHARD_BITS = 8;
  public static final int SHARDS = 1 << SHARD_BITS;

  /** The smallest capacity of a shard, in slots. */
  public static final int MIN_CAPACITY = 16;

  /**
   * The largest capacity of a shard: 2^21 slots, a 32 MiB region, which a pile segment of the
   * default 64 MiB holds.
   */
  public static final int MAX_CAPACITY = 1 << 21;

  /**
   * The pointer of a tombstone's slot: never a pile pointer, whose tag is not 0. A removal leaves
   * one only when its shift is cut short (R2), or a file written by an earlier build holds it.
   */
  public static final long TOMBSTONE = 1L;

  /** The most entries one removal moves back (R2). */
  static final int MAX_SHIFT = 64;

  /** The scan position of a shard's first {@link #collect}. */
  public static final long SCAN_START = 0;

  /** The scan position {@link #collect} returns after a shard's last entries. */
  public static final long SCAN_END = -1;

  /** How many home slots of the capacity a scan began at one collect covers (S1). */
  private static final int SCAN_HOMES = 64;

  private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

  /**
   * The words of a rebuild's loop (rehash), which reads the old region under the shard's lock and
   * writes the new one before it is published: plain accesses, as WORD's, but with no alignment to
   * check. WORD's check folds away only where the JIT knows the segment's class; in a JVM whose FFM
   * accessors had also seen other kinds of segments, it stayed in this loop and took half of its
   * time (a wall-clock profile of a load through the JCache provider; BENCHMARKS, "Through
   * JCache"). Slots are 8-byte aligned all the same (regions are).
   */
  private static final ValueLayout.OfLong PLAIN_WORD = ValueLayout.JAVA_LONG_UNALIGNED;

  private static final VarHandle WORDS = WORD.varHandle();
  private static final VarHandle VERSION;

  static {
    try {
      VERSION = MethodHandles.lookup().findVarHandle(ShardReads.class, "version", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Told of a region a replayed resize left, which the caller frees later. */
  @FunctionalInterface
  public interface Retirement {
    void retired(long region, int capacity);
  }

  /** Checks a candidate entry against the key being looked up. */
  @FunctionalInterface
  public interface KeyMatcher extends SlotMatcher {
    /** Whether the entry at {@code pointer} holds the key; false if it is gone. */
    boolean matches(long pointer);

    @Override
    default boolean matches(long address, long pointer, long meta) {
      return matches(pointer);
    }
  }

  /** Checks a slot whose hash bits match, by its address, pointer and meta ({@link #findSlot}). */
  @FunctionalInterface
  public interface SlotMatcher {
    /** Whether this slot is the one looked for. */
    boolean matches(long address, long pointer, long meta);
  }

  /**
   * Padding before a shard's read-mostly fields. Why the padding: every lookup reads a shard's
   * version, region and capacity, and every write changes its counts and its lock's state (a
   * separate object, allocated right after it); sharing a cache line with either, the read-mostly
   * fields missed in the other core's next lookups of that shard after each write. The padding
   * costs about 200 bytes of heap a shard, 50 KiB a table.
   */
  @SuppressWarnings("unused")
  abstract static class ShardPadBefore {
    long p01, p02, p03, p04, p05, p06, p07, p08;
  }

  /** What every lookup reads: changed only by a rebuild (and a view). */
  abstract static class ShardReads extends ShardPadBefore {
    volatile long version; // I3: odd while the region is being replaced
    volatile MemorySegment slots; // null: no region, or not viewed yet (V1)
    volatile long region;
    volatile int capacity;
  }

  /** Padding between the read-mostly fields and the counts every insert writes. */
  @SuppressWarnings("unused")
  abstract static class ShardPadBetween extends ShardReads {
    long p11, p12, p13, p14, p15, p16, p17, p18;
  }

  /** One shard: its region and counts. */
  @SuppressWarnings("unused")
  static final class Shard extends ShardPadBetween {
    final ReentrantLock lock = new ReentrantLock();
    // live slots and tombstones: written under lock; size() and growthFor() read them racily,
    // as a moment's figure and a hint
    int count;
    int dead;
    long bytes; // of the entries the shard's slots name, as the cache counts them
    long p21, p22, p23, p24, p25, p26, p27, p28;
  }

  private final int tableId;
  private final RegionStore regions;
  private final Shard[] shards = new Shard[SHARDS];
  // rebuilds that changed a shard's capacity: the policy's slot numbering follows capacities
  private final AtomicLong capacityChanges = new AtomicLong();
  // V2: what a live slot's policy bits become at its shard's first view; null: kept as stored
  private volatile IntUnaryOperator policyAtFirstView;
  private volatile boolean dropped; // D1

  /**
   * An index whose shards are in {@code regions}; each shard starts with no region ({@link
   * #regionOf} 0) until {@link #install} or the first {@link #rebuild}.
   */
  public HashIndex(int tableId, RegionStore regions) {
    this.tableId = tableId;
    this.regions = regions;
    for (int i = 0; i < SHARDS; i++) {
      shards[i] = new Shard();
    }
  }

  public int tableId() {
    return tableId;
  }

  public static int shardOf(long hash) {
    return (int) (hash >>> (Long.SIZE - SHARD_BITS));
  }

  /**
   * Sets a shard's state as a checkpoint held it, at open, before any replay. The region is not
   * viewed yet: its value may be put by a record replayed later (a checkpoint's state can be newer
   * than its LSN); replay views it when a record needs it, and after that its first use (V1).
   */
  public void install(int shard, long region, int capacity, int count, int dead, long bytes) {
    Shard s = shards[shard];
    s.region = region;
    s.capacity = capacity;
    s.count = count;
    s.dead = dead;
    s.bytes = bytes;
    s.slots = null;
  }

  /**
   * After recovery: views again the regions that replay viewed, whose page checks a replay after a
   * cut checkpoint defers to its end (LogParticipant#recovered), so that a damaged page is reported
   * by the open as it would be by a first view. The other shards are viewed at first use (V1).
   *
   * @throws IllegalArgumentException if a region is smaller than its shard's capacity needs
   */
  public void recovered() {
    for (int i = 0; i < SHARDS; i++) {
      Shard s = shards[i];
      if (s.slots != null && s.region != 0) {
        s.slots = checkedView(i, s.region, s.capacity);
      }
    }
  }

  /**
   * Views every shard's region now, not at first use (V1): after a recovery from a cut checkpoint,
   * whose hinted pages the pile takes as they are only while the participant recovers ({@link
   * dev.cairn.pile.participant.ParticipantLog#recoveredFromCutCheckpoint}).
   *
   * @throws IllegalArgumentException if a region is smaller than its shard's capacity needs
   */
  public void viewAll() {
    for (int i = 0; i < SHARDS; i++) {
      view(i);
    }
  }

  /**
   * Takes the view of shard {@code shard}'s region if it has none yet (V1): outside any pile lock
   * ({@link RegionStore#view} takes one). Returns the view, null if the shard has no region.
   *
   * @throws IllegalArgumentException if the region is smaller than the shard's capacity needs
   */
  public MemorySegment view(int shard) {
    Shard s = shards[shard];
    MemorySegment slots = s.slots;
    return slots != null ? slots : viewFirst(shard, s);
  }

  /** Whether shard {@code shard}'s region is viewed (or it has none): V1. */
  public boolean isViewed(int shard) {
    Shard s = shards[shard];
    return s.slots != null || s.region == 0;
  }

  private MemorySegment viewFirst(int shard, Shard s) {
    // V1, V2: no rebuild before the first view (a rebuild needs the view: lockedShard), so region
    // and capacity are the installed ones; the monitor makes one view, reset before it is seen
    synchronized (s) {
      MemorySegment slots = s.slots;
      long region = s.region;
      if (slots != null || region == 0) {
        return slots;
      }
      MemorySegment view = checkedView(shard, region, s.capacity);
      IntUnaryOperator reset = policyAtFirstView;
      if (reset != null) {
        resetPolicy(view, region, s.capacity, reset);
      }
      s.slots = view;
      return view;
    }
  }

  /**
   * V2: sets what every live slot's policy bits become at its shard's first view in this process,
   * and applies it now to the shards replay viewed. Called once by the cache at open, before the
   * index is used; {@code reset} must give the same bits when applied twice.
   */
  public void resetPolicyAtFirstView(IntUnaryOperator reset) {
    policyAtFirstView = reset;
    for (Shard s : shards) {
      synchronized (s) {
        MemorySegment slots = s.slots;
        if (slots != null && s.region != 0) {
          resetPolicy(slots, s.region, s.capacity, reset);
        }
      }
    }
  }

  /** Applies {@code reset} to the policy bits of every live slot in {@code slots}, as hints. */
  private void resetPolicy(MemorySegment slots, long region, int capacity, IntUnaryOperator reset) {
    for (int slot = 0; slot < capacity; slot++) {
      long at = (long) slot * SlotLayout.SLOT_BYTES;
      long pointer = (long) WORDS.getAcquire(slots, at + SlotLayout.POINTER_OFFSET);
      if (pointer == 0 || pointer == TOMBSTONE) {
        continue;
      }
      long metaAt = at + SlotLayout.META_OFFSET;
      long meta = (long) WORDS.getAcquire(slots, metaAt);
      int old = SlotLayout.policyOfMeta(meta);
      int bits = reset.applyAsInt(old);
      if (bits != old
          && WORDS.compareAndSet(slots, metaAt, meta, SlotLayout.withPolicy(meta, bits))) {
        regions.hinted(region, metaAt, Long.BYTES); // kept by the next checkpoint (RegionStore)
      }
    }
  }

  private MemorySegment checkedView(int shard, long region, int capacity) {
    MemorySegment view = regions.view(region);
    if (view.byteSize() < regionBytes(capacity)) {
      throw new IllegalArgumentException(
          "index region of shard "
              + shard
              + " of table "
              + tableId
              + " holds "
              + view.byteSize()
              + " bytes, its capacity "
              + capacity
              + " needs "
              + regionBytes(capacity));
    }
    return view;
  }

  /** The shard's view during replay, taken at its first use. */
  private MemorySegment replayView(int shard) {
    Shard s = shards[shard];
    if (s.slots == null && s.region != 0) {
      s.slots = checkedView(shard, s.region, s.capacity);
    }
    return s.slots;
  }

  /** How many times a shard's capacity changed: a number that moves when any capacity does. */
  public long capacityChanges() {
    return capacityChanges.get();
  }

  public long regionOf(int shard) {
    return shards[shard].region;
  }

  public int capacityOf(int shard) {
    return shards[shard].capacity;
  }

  public int countOf(int shard) {
    return shards[shard].count;
  }

  public int deadOf(int shard) {
    return shards[shard].dead;
  }

  public long bytesOf(int shard) {
    return shards[shard].bytes;
  }

  /** Bytes of the entries of all shards (a moment's sum). */
  public long entryBytes() {
    long n = 0;
    for (Shard s : shards) {
      n += s.bytes;
    }
    return n;
  }

  /** Live entries in all shards (a moment's sum, not a snapshot). */
  public long size() {
    long n = 0;
    for (Shard s : shards) {
      n += s.count;
    }
    return n;
  }

  /** Bytes of all shards' regions. */
  public long regionBytes() {
    long n = 0;
    for (Shard s : shards) {
      n += (long) s.capacity * SlotLayout.SLOT_BYTES;
    }
    return n;
  }

  // ---------------------------------------------------------------------------------- reads

  /**
   * The slot of the entry whose key {@code matcher} accepts, as {@link #slotAddress}, or -1.
   * Lock-free (I2, I3).
   */
  public long find(long hash, KeyMatcher matcher) {
    return findSlot(shardOf(hash), SlotLayout.hash32(hash), matcher);
  }

  /**
   * Probes shard {@code shard}, lock-free (I2, I3), for slots holding an entry whose hash bits are
   * {@code hash32}, until {@code matcher} accepts one; returns its address, or -1. The slot may
   * change as soon as this returns: a caller that changes it checks its pointer again under the
   * shard's lock.
   */
  public long findSlot(int shard, int hash32, SlotMatcher matcher) {
    Shard s = shards[shard];
    while (true) {
      long version = (long) VERSION.getAcquire(s);
      if ((version & 1) != 0) {
        Thread.onSpinWait();
        continue;
      }
      MemorySegment slots = s.slots;
      if (slots == null) {
        slots = viewFirst(shard, s); // V1
      }
      int capacity = s.capacity;
      if (slots != null
          && capacity > 0
          && slots.byteSize() >= (long) capacity * SlotLayout.SLOT_BYTES) {
        int mask = capacity - 1;
        for (int i = hash32 & mask, probes = 0; probes < capacity; i = (i + 1) & mask, probes++) {
          long at = (long) i * SlotLayout.SLOT_BYTES;
          long pointer = (long) WORDS.getAcquire(slots, at + SlotLayout.POINTER_OFFSET);
          if (pointer == 0) {
            break;
          }
          long meta = (long) WORDS.getAcquire(slots, at + SlotLayout.META_OFFSET); // I2
          if (pointer != TOMBSTONE
              && SlotLayout.hash32OfMeta(meta) == hash32
              && matcher.matches(slotAddress(shard, i), pointer, meta)) {
            return slotAddress(shard, i);
          }
        }
      }
      VarHandle.loadLoadFence();
      if (s.version == version) {
        return -1;
      }
    }
  }

  /**
   * Collects into {@code out} the next entries of shard {@code shard} in its scan order, from scan
   * position {@code position} ({@link #SCAN_START} for the first call), and returns the position of
   * the next call, or {@link #SCAN_END} after the last. Lock-free; each call probes under I3's
   * version check, so a walk from SCAN_START to SCAN_END collects every entry present throughout it
   * exactly once, and no key twice, whatever rebuilds and removals moved meanwhile (S1).
   *
   * @throws IllegalArgumentException if {@code position} is not one this method returned
   */
  public long collect(int shard, long position, Chunk out) {
    Shard s = shards[shard];
    while (true) {
      out.clear();
      long version = (long) VERSION.getAcquire(s);
      if ((version & 1) != 0) {
        Thread.onSpinWait();
        continue;
      }
      MemorySegment slots = s.slots;
      if (slots == null) {
        slots = viewFirst(shard, s); // V1
      }
      int capacity = s.capacity;
      long next = SCAN_END; // no region: nothing in the shard, to its end
      if (slots != null
          && capacity > 0
          && slots.byteSize() >= (long) capacity * SlotLayout.SLOT_BYTES) {
        int first = position == SCAN_START ? capacity : 1 << (int) (position >>> 32);
        int from = position == SCAN_START ? 0 : (int) position;
        if (!validCapacity(first) || from < 0 || from >= first) {
          throw new IllegalArgumentException("not a scan position: " + Long.toHexString(position));
        }
        int homes = Math.min(SCAN_HOMES, first);
        if (capacity >= first) {
          for (int base = from; base < capacity; base += first) {
            collectRun(shard, slots, capacity, base, homes, first, from, homes, out);
          }
        } else if (homes >= capacity) { // the shard halved since the walk began (G2)
          collectRun(shard, slots, capacity, 0, capacity, first, from, homes, out);
        } else {
          collectRun(shard, slots, capacity, from & (capacity - 1), homes, first, from, homes, out);
        }
        int to = from + homes;
        next = to == first ? SCAN_END : (long) Integer.numberOfTrailingZeros(first) << 32 | to;
      }
      VarHandle.loadLoadFence();
      if (s.version == version) {
        return next;
      }
    }
  }

  /**
   * Walks the slots of the entries whose home is one of the {@code runHomes} from slot {@code
   * start}, and adds to {@code out} those whose home at capacity {@code first} is one of the {@code
   * homes} from {@code from}.
   */
  private static void collectRun(
      int shard,
      MemorySegment slots,
      int capacity,
      int start,
      int runHomes,
      int first,
      int from,
      int homes,
      Chunk out) {
    int mask = capacity - 1;
    for (int step = 0, i = start; step < capacity; step++, i = (i + 1) & mask) {
      long at = (long) i * SlotLayout.SLOT_BYTES;
      long pointer = (long) WORDS.getAcquire(slots, at + SlotLayout.POINTER_OFFSET);
      if (pointer == 0) {
        if (step >= runHomes - 1) {
          break; // every entry of the run's last home is before this empty slot
        }
        continue;
      }
      long meta = (long) WORDS.getAcquire(slots, at + SlotLayout.META_OFFSET); // I2
      int place = (SlotLayout.hash32OfMeta(meta) & (first - 1)) - from;
      if (pointer != TOMBSTONE && place >= 0 && place < homes) {
        out.add(slotAddress(shard, i), pointer, meta);
      }
    }
  }

  /**
   * The pointer in the slot where a probe for {@code hash} starts, read once with no ordering and
   * no check: 0 if the shard has no view yet (this never views one) or holds nothing there. For a
   * caller that only wants the slot's line, and the entry's, in the processor's caches before a
   * {@link #find}; the entry named may be another key's, or gone.
   */
  public long homePointer(long hash) {
    Shard s = shards[shardOf(hash)];
    MemorySegment slots = s.slots;
    int capacity = s.capacity;
    if (slots == null || capacity <= 0) {
      return 0;
    }
    long at = (long) (SlotLayout.hash32(hash) & (capacity - 1)) * SlotLayout.SLOT_BYTES;
    if (at + SlotLayout.SLOT_BYTES > slots.byteSize()) {
      return 0; // capacity read from the region that replaced this one
    }
    return slots.get(WORD, at + SlotLayout.POINTER_OFFSET);
  }

  public static long slotAddress(int shard, int slot) {
    return ((long) shard << 32) | (slot & 0xFFFF_FFFFL);
  }

  public static int shardOfAddress(long address) {
    return (int) (address >>> 32);
  }

  public static int slotOfAddress(long address) {
    return (int) address;
  }

  /**
   * The pointer in a slot (0 if empty or past the shard's capacity, {@link #TOMBSTONE} if a
   * tombstone); racy.
   */
  public long pointerAt(long address) {
    return wordAt(address, SlotLayout.POINTER_OFFSET);
  }

  /** The meta word of a slot (0 if past the shard's capacity); racy. */
  public long metaAt(long address) {
    return wordAt(address, SlotLayout.META_OFFSET);
  }

  private long wordAt(long address, long offset) {
    int shard = shardOfAddress(address);
    MemorySegment slots = view(shard); // V1
    int slot = slotOfAddress(address);
    long at = (long) slot * SlotLayout.SLOT_BYTES;
    if (slots == null
        || slot < 0
        || slot >= shards[shard].capacity // a region may be longer than its capacity needs
        || at + SlotLayout.SLOT_BYTES > slots.byteSize()) {
      return 0;
    }
    return (long) WORDS.getAcquire(slots, at + offset);
  }

  /**
   * Replaces the policy bits of a slot if its meta is still {@code expectedMeta}: a hint, never
   * logged (a crash may lose it), so it needs no lock. Returns whether it was stored.
   */
  public boolean casPolicy(long address, long expectedMeta, int policy) {
    return casMeta(address, expectedMeta, SlotLayout.withPolicy(expectedMeta, policy));
  }

  /**
   * Replaces a slot's meta word if it is still {@code expectedMeta}: a hint (time-to-idle), never
   * logged, so it needs no lock. Returns whether it was stored. The shard's version is checked
   * before the swap, not with it: a removal that moves another entry into the slot between the two
   * lets the swap land on that entry if its meta equals {@code expectedMeta} word for word, which
   * takes the same 32 hash bits in the same shard (a 40-bit collision) and the same expiry and
   * policy bits.
   */
  public boolean casMeta(long address, long expectedMeta, long meta) {
    int shard = shardOfAddress(address);
    Shard s = shards[shard];
    view(shard); // V1
    long version = (long) VERSION.getAcquire(s);
    MemorySegment slots = s.slots;
    long region = s.region;
    int slot = slotOfAddress(address);
    long at = (long) slot * SlotLayout.SLOT_BYTES + SlotLayout.META_OFFSET;
    if ((version & 1) != 0
        || slots == null
        || slot < 0
        || slot >= s.capacity
        || at + Long.BYTES > slots.byteSize()) {
      return false;
    }
    VarHandle.loadLoadFence();
    if (s.version != version) {
      return false; // rebuilt since: the hint is dropped (CacheCore keeps the old region a while)
    }
    boolean set = WORDS.compareAndSet(slots, at, expectedMeta, meta);
    if (set) {
      regions.hinted(region, at, Long.BYTES);
    }
    return set;
  }

  /** The capacity of shard {@code shard} now: slots {@code 0..capacity-1} may be swept. */
  public int sweepableSlots(int shard) {
    return shards[shard].capacity;
  }

  // --------------------------------------------------------------------------------- writes

  /**
   * The capacity shard {@code shard} needs before one more insert, or 0 if it has room. A hint read
   * without the lock: {@link #insert} checks again.
   */
  public int growthFor(int shard) {
    if (dropped) {
      return 0; // D1
    }
    Shard s = shards[shard];
    return neededCapacity(s.capacity, s.count, s.dead);
  }

  public static int neededCapacity(int capacity, int count, int dead) {
    if (capacity == 0) {
      return MIN_CAPACITY;
    }
    if ((long) (count + dead + 1) * 4 <= (long) capacity * 3) {
      // an eighth full or less: half the size, a quarter full or less (G2)
      return capacity > MIN_CAPACITY && (long) (count + 1) * 8 <= capacity ? capacity / 2 : 0;
    }
    if ((long) (count + 1) * 2 <= capacity) {
      return capacity; // tombstones: rebuild at the same size, freeing at least a quarter
    }
    if (capacity >= MAX_CAPACITY) {
      throw new IllegalStateException(
          "index shard full: "
              + count
              + " entries at capacity "
              + capacity
              + "; a table holds at most about "
              + (long) SHARDS * MAX_CAPACITY * 3 / 4
              + " entries");
    }
    return capacity * 2;
  }

  /**
   * Whether {@code capacity} is one a shard may have: a power of two from {@link #MIN_CAPACITY} to
   * {@link #MAX_CAPACITY} (the home slot is {@code hash32 & (capacity - 1)}).
   */
  public static boolean validCapacity(int capacity) {
    return capacity >= MIN_CAPACITY && capacity <= MAX_CAPACITY && Integer.bitCount(capacity) == 1;
  }

  /** Bytes of a region of {@code capacity} slots. */
  public static long regionBytes(int capacity) {
    return (long) capacity * SlotLayout.SLOT_BYTES;
  }

  /**
   * Takes the lock of shard {@code shard}, inside a pile write's attachment (I1); the caller
   * releases it with {@link #unlock} once the write's record is in the log (I4).
   */
  public void lock(int shard) {
    shards[shard].lock.lock();
  }

  public void unlock(int shard) {
    shards[shard].lock.unlock();
  }

  /**
   * Inserts {@code pointer} for a key known to be absent (the caller holds the key's lock and the
   * shard's, I1), adding {@code entryBytes} to the shard's bytes.
   *
   * @return the slot address
   * @throws IllegalStateException if the shard has no room: the caller grows it ({@link
   *     #growthFor}, {@link #rebuild}) and tries again
   */
  public long insert(
      long hash, long pointer, int expiry, int policy, long entryBytes, IndexRecord record) {
    int shardIndex = shardOf(hash);
    Shard s = lockedShard(shardIndex);
    int h32 = SlotLayout.hash32(hash);
    int capacity = s.capacity;
    if (capacity == 0 || (long) (s.count + s.dead + 1) * 8 > (long) capacity * 7) {
      throw new IllegalStateException("index shard " + shardIndex + " needs to grow first");
    }
    MemorySegment slots = s.slots;
    int mask = capacity - 1;
    for (int i = h32 & mask; ; i = (i + 1) & mask) {
      long at = (long) i * SlotLayout.SLOT_BYTES;
      long old = slots.get(WORD, at + SlotLayout.POINTER_OFFSET);
      if (old == 0 || old == TOMBSTONE) {
        if (old == TOMBSTONE) {
          s.dead--;
        }
        s.count++;
        s.bytes += entryBytes;
        store(s, shardIndex, i, pointer, SlotLayout.meta(h32, expiry, policy), record);
        return slotAddress(shardIndex, i);
      }
    }
  }

  /**
   * The slot of {@code pointer} in shard {@code shard}, probing from {@code hash32}'s home slot, or
   * -1; the caller holds the shard's lock.
   */
  public long slotOf(int shard, int hash32, long pointer) {
    Shard s = lockedShard(shard);
    int capacity = s.capacity;
    if (capacity == 0) {
      return -1;
    }
    MemorySegment slots = s.slots;
    int mask = capacity - 1;
    for (int i = hash32 & mask, probes = 0; probes < capacity; i = (i + 1) & mask, probes++) {
      long p = slots.get(WORD, (long) i * SlotLayout.SLOT_BYTES + SlotLayout.POINTER_OFFSET);
      if (p == 0) {
        return -1;
      }
      if (p == pointer) {
        return slotAddress(shard, i);
      }
    }
    return -1;
  }

  /**
   * Removes the entry of slot {@code address} if it still holds {@code pointer}, taking {@code
   * entryBytes} from the shard's bytes; the caller holds the shard's lock. The entries after it in
   * its cluster that probe through its slot move back (R1), each move a store in {@code record}.
   * Returns whether it removed the entry.
   */
  public boolean removeAt(long address, long pointer, long entryBytes, IndexRecord record) {
    int shardIndex = shardOfAddress(address);
    Shard s = lockedShard(shardIndex);
    int slot = slotOfAddress(address);
    if (slot < 0 || slot >= s.capacity) {
      return false;
    }
    MemorySegment slots = s.slots;
    if (slots.get(WORD, (long) slot * SlotLayout.SLOT_BYTES + SlotLayout.POINTER_OFFSET)
        != pointer) {
      return false;
    }
    s.count--;
    s.bytes -= entryBytes;
    int mask = s.capacity - 1;
    int hole = slot;
    int moves = Math.max(0, Math.min(MAX_SHIFT, record.setsLeft() - 1));
    boolean moving = false;
    for (int j = (hole + 1) & mask; j != slot; j = (j + 1) & mask) {
      long at = (long) j * SlotLayout.SLOT_BYTES;
      long p = slots.get(WORD, at + SlotLayout.POINTER_OFFSET);
      if (p == 0) {
        break;
      }
      if (p == TOMBSTONE) {
        continue; // kept: it is not empty, so every probe through it still passes (R1)
      }
      long meta = slots.get(WORD, at + SlotLayout.META_OFFSET);
      int home = SlotLayout.hash32OfMeta(meta) & mask;
      if (((j - home) & mask) < ((j - hole) & mask)) {
        continue; // its probe starts after the hole: it stays
      }
      if (moves == 0) {
        s.dead++; // R2: a shift too long for one record ends in a tombstone
        empty(s, shardIndex, hole, TOMBSTONE, record);
        finishShift(s, moving);
        return true;
      }
      if (!moving) {
        moving = true;
        VERSION.setOpaque(s, s.version + 1); // I3: odd while entries move
        VarHandle.storeStoreFence();
      }
      store(s, shardIndex, hole, p, meta, record);
      hole = j;
      moves--;
    }
    empty(s, shardIndex, hole, 0, record);
    finishShift(s, moving);
    return true;
  }

  private static void finishShift(Shard s, boolean moving) {
    if (moving) {
      VERSION.setRelease(s, s.version + 1);
    }
  }

  /**
   * Rewrites slot {@code address}, which holds {@code pointer}, after its entry was rewritten in
   * place: its expiry and policy bits, and the shard's bytes by {@code bytesDelta}. The caller
   * holds the shard's lock.
   */
  public boolean rewrite(
      long address, long pointer, int expiry, int policy, long bytesDelta, IndexRecord record) {
    int shardIndex = shardOfAddress(address);
    Shard s = lockedShard(shardIndex);
    int slot = slotOfAddress(address);
    if (slot < 0 || slot >= s.capacity) {
      return false;
    }
    long at = (long) slot * SlotLayout.SLOT_BYTES;
    if (s.slots.get(WORD, at + SlotLayout.POINTER_OFFSET) != pointer) {
      return false;
    }
    long meta = s.slots.get(WORD, at + SlotLayout.META_OFFSET);
    s.bytes += bytesDelta;
    store(
        s,
        shardIndex,
        slot,
        pointer,
        SlotLayout.withPolicy(SlotLayout.withExpiry(meta, expiry), policy),
        record);
    return true;
  }

  private Shard lockedShard(int shardIndex) {
    Shard s = shards[shardIndex];
    if (!s.lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("index shard " + shardIndex + " changed without its lock");
    }
    if (s.slots == null && s.region != 0) {
      throw new IllegalStateException(
          "index shard "
              + shardIndex
              + " changed before its region was viewed: a write views it (HashIndex.view)"
              + " before the pile write whose attachment changes it (V1)");
    }
    return s;
  }

  /** Empties a slot (pointer 0, or {@link #TOMBSTONE}), leaving its meta as it is (I2). */
  private void empty(Shard s, int shardIndex, int slot, long pointer, IndexRecord record) {
    long meta = s.slots.get(WORD, (long) slot * SlotLayout.SLOT_BYTES + SlotLayout.META_OFFSET);
    store(s, shardIndex, slot, pointer, meta, record);
  }

  private void store(
      Shard s, int shardIndex, int slot, long pointer, long meta, IndexRecord record) {
    MemorySegment slots = s.slots;
    long at = (long) slot * SlotLayout.SLOT_BYTES;
    WORDS.setRelease(slots, at + SlotLayout.META_OFFSET, meta); // I2: the meta first
    WORDS.setRelease(slots, at + SlotLayout.POINTER_OFFSET, pointer);
    regions.written(s.region, at, SlotLayout.SLOT_BYTES);
    record.set(shardIndex, s.region, slot, pointer, meta, s.count, s.dead, s.bytes);
  }

  /**
   * Rebuilds shard {@code shard} into {@code newRegion} (zeroed by the caller or not, at least
   * {@link #regionBytes}({@code newCapacity}) bytes); the caller holds the shard's lock (I1).
   * Returns the old region, which the caller retires (0 if there was none), or -1 if the shard no
   * longer needs it: another thread rebuilt it first, and the caller retires {@code newRegion}, as
   * the record says (a Retire op).
   */
  public long rebuild(int shard, long newRegion, int newCapacity, IndexRecord record) {
    Shard s = lockedShard(shard);
    int needed = dropped ? 0 : neededCapacity(s.capacity, s.count, s.dead); // D1
    if (needed == 0 || newCapacity < needed) {
      record.retire(newRegion, newCapacity); // unused: the caller retires it, replay too
      return -1;
    }
    long old = s.region;
    rehash(s, newRegion, regions.view(newRegion), newCapacity);
    record.resize(shard, old, newRegion, newCapacity);
    return old;
  }

  private void rehash(Shard s, long newRegion, MemorySegment target, int newCapacity) {
    long bytes = regionBytes(newCapacity);
    if (target.byteSize() < bytes) {
      throw new IllegalArgumentException(
          "index region too small: " + target.byteSize() + " bytes for " + newCapacity + " slots");
    }
    target.asSlice(0, bytes).fill((byte) 0);
    MemorySegment source = s.slots;
    int count = 0;
    int mask = newCapacity - 1;
    for (int i = 0; i < s.capacity; i++) {
      long at = (long) i * SlotLayout.SLOT_BYTES;
      long pointer = source.get(PLAIN_WORD, at + SlotLayout.POINTER_OFFSET);
      if (pointer == 0 || pointer == TOMBSTONE) {
        continue;
      }
      long meta = source.get(PLAIN_WORD, at + SlotLayout.META_OFFSET);
      int j = SlotLayout.hash32OfMeta(meta) & mask;
      while (target.get(PLAIN_WORD, (long) j * SlotLayout.SLOT_BYTES) != 0) {
        j = (j + 1) & mask;
      }
      target.set(PLAIN_WORD, (long) j * SlotLayout.SLOT_BYTES + SlotLayout.POINTER_OFFSET, pointer);
      target.set(PLAIN_WORD, (long) j * SlotLayout.SLOT_BYTES + SlotLayout.META_OFFSET, meta);
      count++;
    }
    regions.written(newRegion, 0, bytes);
    if (newCapacity != s.capacity) {
      capacityChanges.incrementAndGet();
    }
    VERSION.setOpaque(s, s.version + 1); // I3: odd
    VarHandle.storeStoreFence();
    s.slots = target;
    s.region = newRegion;
    s.capacity = newCapacity;
    s.count = count;
    s.dead = 0;
    VERSION.setRelease(s, s.version + 1);
  }

  // ------------------------------------------------------------------------------------ drop

  /**
   * Drops the index (D1): takes every shard's lock, retires every region into {@code record} and
   * through {@code retired}, and empties every shard. The caller releases the locks with {@link
   * #unlockDropped} once the record is logged.
   */
  public void drop(IndexRecord record, Retirement retired) {
    for (Shard s : shards) {
      s.lock.lock();
    }
    dropped = true;
    for (Shard s : shards) {
      if (s.region != 0) {
        record.retire(s.region, s.capacity);
        retired.retired(s.region, s.capacity);
      }
      VERSION.setOpaque(s, s.version + 1); // I3: a lookup that misses meanwhile retries
      VarHandle.storeStoreFence();
      s.slots = null;
      s.region = 0;
      s.capacity = 0;
      s.count = 0;
      s.dead = 0;
      s.bytes = 0;
      VERSION.setRelease(s, s.version + 1);
    }
    capacityChanges.incrementAndGet();
  }

  /** Releases the locks {@link #drop} took, once its record is logged; idempotent. */
  public void unlockDropped() {
    for (Shard s : shards) {
      if (s.lock.isHeldByCurrentThread()) {
        s.lock.unlock();
      }
    }
  }

  // --------------------------------------------------------------------------------- replay

  /** Replays the Retire op at {@code at}; returns where the next op begins. */
  private static long replayRetire(MemorySegment record, long at, Retirement retired) {
    IndexRecord.checkLength(record, at + IndexRecord.RETIRE_BYTES);
    retired.retired(record.get(IndexRecord.U64, at + 1), record.get(IndexRecord.U32, at + 9));
    return at + IndexRecord.RETIRE_BYTES;
  }

  /**
   * Replays only the Retire ops of a record of a table that is gone (a checkpoint's state newer
   * than the record: the cache's dropped tables); its other ops changed nothing that is left.
   *
   * @throws IllegalArgumentException if the record is damaged
   */
  public static void replayRetirements(MemorySegment record, Retirement retired) {
    long at = IndexRecord.OPS_OFFSET;
    long end = record.byteSize();
    while (at < end) {
      byte op = record.get(ValueLayout.JAVA_BYTE, at);
      switch (op) {
        case IndexRecord.OP_SET -> at += IndexRecord.SET_BYTES;
        case IndexRecord.OP_RESIZE -> at += IndexRecord.RESIZE_BYTES;
        case IndexRecord.OP_RETIRE -> at = replayRetire(record, at, retired);
        default ->
            throw new IllegalArgumentException(
                "unknown index op " + op + " at byte " + at + " of an index record");
      }
    }
    IndexRecord.checkLength(record, at);
  }

  /**
   * Applies one record's ops at recovery (single-threaded). Returns the regions its resizes
   * retired, through {@code retired}.
   */
  public void replay(MemorySegment record, Retirement retired) {
    long at = IndexRecord.OPS_OFFSET;
    long end = record.byteSize();
    while (at < end) {
      byte op = record.get(ValueLayout.JAVA_BYTE, at);
      switch (op) {
        case IndexRecord.OP_SET -> {
          IndexRecord.checkLength(record, at + IndexRecord.SET_BYTES);
          int shard = Byte.toUnsignedInt(record.get(ValueLayout.JAVA_BYTE, at + 1));
          int slot = record.get(IndexRecord.U32, at + 2);
          long pointer = record.get(IndexRecord.U64, at + 6);
          long meta = record.get(IndexRecord.U64, at + 14);
          Shard s = shards[shard];
          if (record.get(IndexRecord.U64, at + 38) != s.region) {
            // the shard already left the region this store was made in: the checkpoint's state
            // is newer than its LSN (LogParticipant P2), and the rebuild that left it carried
            // this store into the region the state names (I5)
            at += IndexRecord.SET_BYTES;
            continue;
          }
          if (slot < 0 || slot >= s.capacity || replayView(shard) == null) {
            throw new IllegalArgumentException(
                "index record stores slot "
                    + slot
                    + " of shard "
                    + shard
                    + " whose capacity is "
                    + s.capacity);
          }
          int count = record.get(IndexRecord.U32, at + 22);
          int dead = record.get(IndexRecord.U32, at + 26);
          long bytes = record.get(IndexRecord.U64, at + 30);
          if (count < 0 || dead < 0 || (long) count + dead > s.capacity || bytes < 0) {
            // as CacheState's check of a checkpoint's shard: an insert would look for a free
            // slot that is not there, and the budget count a negative size
            throw new IllegalArgumentException(
                "index record leaves shard "
                    + shard
                    + " of capacity "
                    + s.capacity
                    + " with "
                    + count
                    + " live and "
                    + dead
                    + " dead slots holding "
                    + bytes
                    + " bytes");
          }
          long off = (long) slot * SlotLayout.SLOT_BYTES;
          s.slots.set(WORD, off + SlotLayout.POINTER_OFFSET, pointer);
          s.slots.set(WORD, off + SlotLayout.META_OFFSET, meta);
          regions.written(s.region, off, SlotLayout.SLOT_BYTES);
          s.count = count;
          s.dead = dead;
          s.bytes = bytes;
          at += IndexRecord.SET_BYTES;
        }
        case IndexRecord.OP_RESIZE -> {
          IndexRecord.checkLength(record, at + IndexRecord.RESIZE_BYTES);
          int shard = Byte.toUnsignedInt(record.get(ValueLayout.JAVA_BYTE, at + 1));
          long oldRegion = record.get(IndexRecord.U64, at + 2);
          long newRegion = record.get(IndexRecord.U64, at + 10);
          int newCapacity = record.get(IndexRecord.U32, at + 18);
          if (!validCapacity(newCapacity)) {
            throw new IllegalArgumentException(
                "index record resizes shard "
                    + shard
                    + " to capacity "
                    + newCapacity
                    + ", not a power of two in range");
          }
          Shard s = shards[shard];
          if (s.region != oldRegion) {
            // the state is newer than this record (I5): the shard already left oldRegion, by
            // this rebuild or a later one (records from the checkpoint's LSN on come in order,
            // so an older state would start from oldRegion)
            at += IndexRecord.RESIZE_BYTES;
            continue;
          }
          int oldCapacity = s.capacity;
          if (oldRegion == 0) {
            s.capacity = 0;
            s.slots = MemorySegment.NULL;
          } else {
            replayView(shard);
          }
          rehash(s, newRegion, regions.view(newRegion), newCapacity);
          if (oldRegion != 0) {
            retired.retired(oldRegion, oldCapacity);
          }
          at += IndexRecord.RESIZE_BYTES;
        }
        case IndexRecord.OP_RETIRE -> at = replayRetire(record, at, retired);
        default ->
            throw new IllegalArgumentException(
                "unknown index op "
                    + op
                    + " at byte "
                    + at
                    + " of an index record of table "
                    + tableId);
      }
    }
  }
}
