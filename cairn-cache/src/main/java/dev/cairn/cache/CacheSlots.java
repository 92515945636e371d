package dev.cairn.cache;

import static dev.cairn.cache.policy.PolicyBitsLayout.LEAVING;
import static dev.cairn.cache.policy.PolicyBitsLayout.POLICY_MASK;
import static dev.cairn.cache.policy.PolicyBitsLayout.PROBATION;
import static dev.cairn.cache.policy.PolicyBitsLayout.REFERENCED;
import static dev.cairn.cache.policy.PolicyBitsLayout.SPARE_SHIFT;
import static dev.cairn.cache.policy.PolicyBitsLayout.WINDOW;
import static dev.cairn.cache.policy.PolicyBitsLayout.segment;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import dev.cairn.cache.policy.PolicyBitsLayout;
import dev.cairn.cache.policy.SlotView;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.StalePointerException;
import java.util.Arrays;
import java.util.List;

/**
 * The eviction policy's view of a cache's slots: every table's index, shard after shard, numbered
 * as one array, so that one hand sweeps them all and one budget covers them.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Numbering: the k-th table has 256 * W numbers from tableBases[k], W its widest shard's
 * capacity; its number tableBases[k] + r*256 + s is slot r / 2^d of shard s, whose capacity is
 * W / 2^d, when d low bits of r are 0, and a hole (reads empty) otherwise: the shards
 * interleaved, and each shard's slots spread evenly over the table's numbers. Taken when the
 * eviction lock's holder begins (remap) and again when a capacity or the tables changed
 * (HashIndex.capacityChanges, CacheCore.tableChanges). Why interleaved: a hand that swept shard
 * after shard evicted most of a shard as it passed, so each shard's count sawed from near 0 to
 * twice its mean every sweep and its region was sized for the peak; interleaved, every shard
 * loses entries at the pace it gains them. The cost is the holes: a shard half as wide as the
 * widest leaves every other one of its numbers empty, and a shard with no region (a small
 * table's) all of them; a hole costs the hand a bounds check.
 * Shards rebuild concurrently, and removals move entries back (HashIndex R1): a number may
 * name another entry, or, past a capacity that fell (a shard halved, or its table dropped), a
 * slot that reads empty until the next remap; identity is checked at each change (V1). A hand
 * that passes a cluster as a removal moves it may skip an entry, or meet one twice, in that
 * round. The policy's hash of an entry is tableId<<40 | shard<<32 | hash32: what its ring and
 * the sketch keep, and what find probes for.
 *
 * The policy byte of a slot (SlotLayout's 8 bits):
 *    7        6   5      4   3      2      1   0
 *  +--------+-------+  +---------+------+-------+
 *  | pinned | count |  |   age   |  R   |  seg  |   the policy's (PolicyBitsLayout)
 *  +--------+-------+  +---------+------+-------+
 *   pinned  the entry is never evicted (EntryOptions.pin, TableOptions.pinned)
 *   count   what counting an uncounted (LEAVING) entry makes of it: 0 NEW -> window (a new
 *           entry); 1 KEPT -> probation (a victim whose removal missed its key's lock);
 *           2 UPDATED -> probation, referenced (an entry of the main space rewritten: as an
 *           access, Caffeine's update); reset to 0 once counted
 *
 * Invariants
 * V1  Every change of the policy's bits by the policy is made under the shard's lock
 *     (HashIndex I1), and only if the slot still holds the pointer the policy read with those
 *     bits (the snapshot of bits()); so a rebuild never loses it, it never lands on another
 *     entry, and a removal, which reads the bits under the same lock, reports the segment the
 *     policy last counted the entry in.
 * V2  A counted entry's size does not change: a rewrite first sets its bits to LEAVING under the
 *     shard's lock, reporting its segment and old size (Evictor.beforeRewrite), and counting an
 *     uncounted entry holds its key's lock (OffHeapTable T1), so sizeBytes read from the pile
 *     equals the size the policy counted. A removal deletes the value before it empties the
 *     slot: in between, the slot still holds the pointer but the pile's read fails; a change
 *     whose size read failed is refused, so the segment a removal reports was always counted
 *     with the entry's true size.
 * V3  The view never evicts or reaps itself: what the hand passes that is expired or not yet
 *     counted is noted (reaps, counts), and the eviction lock's holder acts on it after the
 *     policy's call, as it does on the victims noted when the policy marks them LEAVING.
 *
 * Recovery: policy bits are hints, never logged (a write logs the byte it stored: uncounted),
 * and the policy's totals start at zero in a new process. A bounded cache reopened from a
 * persistent pile has every live slot's byte set to UNCOUNTED | COUNT_KEPT (its pinned flag kept,
 * uncounted()) before anyone reads it: each shard's at its first view (HashIndex V2), so the
 * open walks no slot; the hand then counts each entry into probation as it passes it (V3), and
 * a removal of one not counted yet reports nothing.
 * }</pre>
 *
 * <p>Thread-safety: only the eviction lock's holder calls it (Evictor).
 */
final class CacheSlots implements SlotView {

  /**
   * What a live slot's policy bits become in a new process (see Recovery): uncounted, to be counted
   * into probation, its pinned flag kept. Applying it twice gives the same bits.
   */
  static int uncounted(int bits) {
    return (bits & PINNED) | COUNT_KEPT | UNCOUNTED;
  }

  static final int PINNED = 1 << 7;
  static final int COUNT_SHIFT = SPARE_SHIFT;
  static final int COUNT_MASK = 3 << COUNT_SHIFT;
  static final int COUNT_NEW = 0;
  static final int COUNT_KEPT = 1 << COUNT_SHIFT;
  static final int COUNT_UPDATED = 2 << COUNT_SHIFT;

  /** The bits of an entry the policy does not count (yet). */
  static final int UNCOUNTED = PolicyBitsLayout.bits(LEAVING, 0);

  /** How many expired slots and uncounted entries one policy call notes, at most. */
  static final int NOTES = 256;

  /** Share levels: whom eviction may take from ({@link #restrict}). */
  static final int OVER_MAX_SHARE = 0;

  static final int OVER_MIN_SHARE = 1;
  static final int ANY_TABLE = 2;

  private final CacheCore core;

  // the numbering
  private OffHeapTable<?, ?>[] tables = new OffHeapTable<?, ?>[0];
  private int[] positionOfId = new int[0]; // by table id: the table's position, or -1
  private int[] capacities = new int[0]; // by range (k*256+s)
  private int[] shifts = new int[0]; // by range: log2(the table's widest capacity / this one's)
  private long[] tableBases = {0}; // by position: where the table's numbers begin
  private long slotCount;
  private long layoutKey = -1;
  private long indexBytes;
  private int lastTable; // the position of the last slot located: the hand goes in order

  // the slot located by locate()
  private int locatedTable;
  private int locatedShard;
  private long locatedAddress;

  // the last slot whose bits the policy read (V1), and whether its size could not be read (V2)
  private long readSlot = -1;
  private long readPointer;
  private boolean readSizeFailed;

  // eviction restricted to some tables by their shares
  private boolean[] evictable = new boolean[0]; // by position
  private boolean restricted;
  private boolean sharesConfigured;

  private long nowMillis;
  private long earliestPinnedExpiry = Long.MAX_VALUE; // since begin(): see earliestPinnedExpiry()

  // notes for the lock's holder (V3): victims, expired slots, uncounted entries
  final int[] victimTables = new int[Evictor.VICTIMS];
  final int[] victimShards = new int[Evictor.VICTIMS];
  final int[] victimHashes = new int[Evictor.VICTIMS];
  final long[] victimPointers = new long[Evictor.VICTIMS];
  int victims;
  final int[] reapTables = new int[NOTES];
  final int[] reapShards = new int[NOTES];
  final long[] reapMetas = new long[NOTES];
  final long[] reapPointers = new long[NOTES];
  int reaps;
  final long[] counts = new long[NOTES];
  int countNotes;

  CacheSlots(CacheCore core) {
    this.core = core;
  }

  /** The policy's hash of the entry of {@code hash32} in {@code shard} of table {@code tableId}. */
  static long policyHash(int tableId, int shard, int hash32) {
    return ((long) tableId << 40) | ((long) shard << 32) | (hash32 & 0xFFFF_FFFFL);
  }

  static int tableIdOf(long policyHash) {
    return (int) (policyHash >>> 40);
  }

  static int shardOf(long policyHash) {
    return (int) (policyHash >>> 32) & (HashIndex.SHARDS - 1);
  }

  static int hash32Of(long policyHash) {
    return (int) policyHash;
  }

  /**
   * Begins a turn of the lock's holder: the clock for expiry, and the numbering, renewed if the
   * tables or a capacity changed. Returns whether it was.
   */
  boolean begin(long nowMillis) {
    this.nowMillis = nowMillis;
    earliestPinnedExpiry = Long.MAX_VALUE;
    readSlot = -1;
    victims = 0;
    reaps = 0;
    countNotes = 0;
    return remapIfChanged();
  }

  /** The bytes of the index regions counted by the last numbering. */
  long indexBytes() {
    return indexBytes;
  }

  OffHeapTable<?, ?> table(int tableId) {
    int position = positionOf(tableId);
    return position < 0 ? null : tables[position];
  }

  /** The position of table {@code tableId} in the numbering, -1 if it has none. */
  private int positionOf(int tableId) {
    return tableId >= 0 && tableId < positionOfId.length ? positionOfId[tableId] : -1;
  }

  private boolean remapIfChanged() {
    List<OffHeapTable<?, ?>> list = core.tables();
    long key = core.tableChanges() << 40; // a table added or dropped, or a shard's capacity
    for (int i = 0; i < list.size(); i++) { // no iterator: once per drain
      key += list.get(i).index.capacityChanges();
    }
    if (key == layoutKey) {
      return false;
    }
    OffHeapTable<?, ?>[] snapshot = list.toArray(new OffHeapTable<?, ?>[0]);
    int ranges = snapshot.length * HashIndex.SHARDS;
    int[] caps = new int[ranges];
    int[] shiftsOf = new int[ranges];
    long[] sums = new long[snapshot.length + 1];
    long regions = 0;
    boolean shares = false;
    int maxId = -1;
    for (OffHeapTable<?, ?> t : snapshot) {
      maxId = Math.max(maxId, t.descriptor().id());
    }
    int[] positions = new int[maxId + 1];
    Arrays.fill(positions, -1);
    positionOfId = positions;
    evictable = new boolean[snapshot.length];
    for (int k = 0; k < snapshot.length; k++) {
      HashIndex index = snapshot[k].index;
      positionOfId[snapshot[k].descriptor().id()] = k;
      TableOptions o = snapshot[k].descriptor().options();
      shares |= o.minShare() > 0 || o.maxShare() < 1;
      int widest = 0;
      for (int s = 0; s < HashIndex.SHARDS; s++) {
        int range = k * HashIndex.SHARDS + s;
        caps[range] = index.capacityOf(s);
        widest = Math.max(widest, caps[range]);
        regions += HashIndex.regionBytes(caps[range]);
      }
      for (int s = 0; s < HashIndex.SHARDS; s++) {
        int cap = caps[k * HashIndex.SHARDS + s];
        shiftsOf[k * HashIndex.SHARDS + s] =
            cap == 0
                ? -1
                : Integer.numberOfTrailingZeros(widest) - Integer.numberOfTrailingZeros(cap);
      }
      sums[k + 1] = sums[k] + (long) HashIndex.SHARDS * widest;
    }
    tables = snapshot;
    capacities = caps;
    shifts = shiftsOf;
    tableBases = sums;
    slotCount = sums[snapshot.length];
    indexBytes = regions;
    sharesConfigured = shares;
    layoutKey = key;
    lastTable = 0;
    readSlot = -1;
    return true;
  }

  /**
   * Sets locatedTable, locatedShard and locatedAddress for {@code slot}: a slot past the shard's
   * capacity (it reads empty) where the number is a hole of the interleaving (see Numbering).
   */
  private void locate(long slot) {
    int k = lastTable;
    if (k >= tables.length || slot < tableBases[k] || slot >= tableBases[k + 1]) {
      // the last table with tableBases[k] <= slot < tableBases[k + 1] (empty tables skipped)
      int lo = 0;
      int hi = tables.length - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (tableBases[mid] <= slot) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      k = lo;
      lastTable = k;
    }
    long local = slot - tableBases[k];
    int shard = (int) (local & (HashIndex.SHARDS - 1));
    long row = local >>> HashIndex.SHARD_BITS;
    int shift = shifts[k * HashIndex.SHARDS + shard];
    locatedTable = k;
    locatedShard = shard;
    locatedAddress =
        shift < 0 || (row & ((1L << shift) - 1)) != 0
            ? HashIndex.slotAddress(shard, Integer.MAX_VALUE)
            : HashIndex.slotAddress(shard, (int) (row >>> shift));
  }

  // ------------------------------------------------------------------------------- SlotView

  @Override
  public long slotCount() {
    return slotCount;
  }

  /**
   * Whether the slot holds an entry that is not expired. Notes an expired one for reaping and an
   * uncounted one for counting (V3).
   */
  @Override
  public boolean occupied(long slot) {
    locate(slot);
    OffHeapTable<?, ?> table = tables[locatedTable];
    long pointer = table.index.pointerAt(locatedAddress);
    if (pointer == 0 || pointer == HashIndex.TOMBSTONE) {
      return false;
    }
    long meta = table.index.metaAt(locatedAddress);
    if (table.expiry().hintPassed(meta, nowMillis)) {
      if (reaps < NOTES) {
        reapTables[reaps] = locatedTable;
        reapShards[reaps] = locatedShard;
        reapMetas[reaps] = meta;
        reapPointers[reaps++] = pointer;
      }
      return false;
    }
    if (segment(SlotLayout.policyOfMeta(meta)) == LEAVING && countNotes < NOTES) {
      counts[countNotes++] =
          policyHash(table.descriptor().id(), locatedShard, SlotLayout.hash32OfMeta(meta));
    }
    return true;
  }

  @Override
  public boolean pinned(long slot) {
    locate(slot);
    OffHeapTable<?, ?> table = tables[locatedTable];
    long meta = table.index.metaAt(locatedAddress);
    if ((SlotLayout.policyOfMeta(meta) & PINNED) != 0) {
      earliestPinnedExpiry = Math.min(earliestPinnedExpiry, table.expiry().hintMillis(meta));
      return true;
    }
    return restricted && !evictable[locatedTable];
  }

  /**
   * The earliest time, in the cache's clock, at which a pinned slot the hand passed since {@link
   * #begin} expires by its slot's expiry (Long.MAX_VALUE if none does): until then, a hand that
   * found only pinned entries would find only them again (Evictor E4).
   */
  long earliestPinnedExpiry() {
    return earliestPinnedExpiry;
  }

  @Override
  public long hash(long slot) {
    locate(slot);
    OffHeapTable<?, ?> table = tables[locatedTable];
    return policyHash(
        table.descriptor().id(),
        locatedShard,
        SlotLayout.hash32OfMeta(table.index.metaAt(locatedAddress)));
  }

  @Override
  public long find(long hash) {
    OffHeapTable<?, ?> table = table(tableIdOf(hash));
    if (table == null) {
      return -1;
    }
    int shard = shardOf(hash);
    long address =
        table.index.findSlot(
            shard,
            hash32Of(hash),
            (at, pointer, meta) -> segment(SlotLayout.policyOfMeta(meta)) == WINDOW);
    if (address < 0) {
      return -1;
    }
    int range = positionOf(table.descriptor().id()) * HashIndex.SHARDS + shard;
    int slot = HashIndex.slotOfAddress(address);
    if (slot >= capacities[range]) {
      // the shard grew since the numbering: renew it (numbers already handed out are checked
      // at each change, V1)
      remapIfChanged();
      int position = positionOf(table.descriptor().id());
      if (position < 0) {
        return -1; // dropped meanwhile
      }
      range = position * HashIndex.SHARDS + shard;
      if (slot >= capacities[range]) {
        return -1;
      }
    }
    long row = (long) slot << shifts[range];
    return tableBases[range / HashIndex.SHARDS] + (row << HashIndex.SHARD_BITS | shard);
  }

  /** The entry's bytes; 1 if its value is gone, and then a change of the slot is refused (V2). */
  @Override
  public long sizeBytes(long slot) {
    if (slot != readSlot) {
      locate(slot);
      return Math.max(1, entryBytes(tables[locatedTable].index.pointerAt(locatedAddress)));
    }
    long bytes = entryBytes(readPointer);
    if (bytes < 0) {
      readSizeFailed = true;
      return 1;
    }
    return bytes;
  }

  /** The pile's bytes for the entry of {@code pointer}, or -1 if its value is gone. */
  long entryBytes(long pointer) {
    if (pointer == 0 || pointer == HashIndex.TOMBSTONE) {
      return -1;
    }
    try {
      return core.log().allocatedBytes(core.log().payloadBytes(pointer));
    } catch (StalePointerException | InvalidPointerException e) {
      return -1;
    }
  }

  @Override
  public int bits(long slot) {
    locate(slot);
    HashIndex index = tables[locatedTable].index;
    long pointer = index.pointerAt(locatedAddress);
    long meta = index.metaAt(locatedAddress);
    readSlot = slot;
    readPointer = pointer;
    readSizeFailed = false;
    return SlotLayout.policyOfMeta(meta) & POLICY_MASK;
  }

  /**
   * Sets the policy's bits of {@code slot} under its shard's lock, if it still holds the entry
   * whose bits the policy read last (V1) and that entry's size could be read (V2); notes a victim
   * when they become LEAVING.
   */
  @Override
  public boolean compareAndSetBits(long slot, int expected, int bits) {
    if (slot != readSlot
        || readSizeFailed
        || readPointer == 0
        || readPointer == HashIndex.TOMBSTONE
        || (segment(bits) == LEAVING && victims == victimTables.length)) {
      return false;
    }
    locate(slot);
    OffHeapTable<?, ?> table = tables[locatedTable];
    int hash32 = setLocked(table.index, locatedShard, locatedAddress, readPointer, expected, bits);
    if (hash32 == NOT_SET) {
      return false;
    }
    if (segment(bits) == LEAVING) {
      victimTables[victims] = locatedTable;
      victimShards[victims] = locatedShard;
      victimHashes[victims] = hash32;
      victimPointers[victims++] = readPointer;
    }
    return true;
  }

  private static final int NOT_SET = 0x8000_0000;

  /**
   * Under the shard's lock: sets the policy's bits at {@code address} to {@code bits} (the spare
   * ones kept) if it holds {@code pointer} and its policy's bits are {@code expected}; returns the
   * slot's hash32, or {@link #NOT_SET}. (A hit's lock-free compare-and-set may race: it only sets
   * REFERENCED, which makes {@code expected} wrong; an expiry refresh is retried.)
   */
  private static int setLocked(
      HashIndex index, int shard, long address, long pointer, int expected, int bits) {
    index.lock(shard);
    try {
      if (index.pointerAt(address) != pointer) {
        return NOT_SET;
      }
      while (true) {
        long meta = index.metaAt(address);
        int old = SlotLayout.policyOfMeta(meta);
        if ((old & POLICY_MASK) != expected) {
          return NOT_SET;
        }
        int updated = (old & ~POLICY_MASK) | (bits & POLICY_MASK);
        if (index.casMeta(address, meta, SlotLayout.withPolicy(meta, updated))) {
          return SlotLayout.hash32OfMeta(meta);
        }
      }
    } finally {
      index.unlock(shard);
    }
  }

  // ---------------------------------------------------------- changes by the lock's holder

  /** The table at position {@code position} of the numbering (victims and reaps name it so). */
  OffHeapTable<?, ?> tableAt(int position) {
    return tables[position];
  }

  /**
   * Counts the uncounted entry of {@code pointer}: under its shard's lock, if its bits are still
   * LEAVING, sets them to what their count field says (window, probation, or probation referenced)
   * and clears that field. Returns the slot's new policy byte (pinned flag included), or -1 if the
   * slot no longer holds an uncounted entry of {@code pointer}. The caller holds the key's lock
   * (V2).
   */
  static int countLocked(HashIndex index, int shard, int hash32, long pointer) {
    index.lock(shard);
    try {
      long address = index.slotOf(shard, hash32, pointer);
      if (address < 0) {
        return -1;
      }
      while (true) {
        long meta = index.metaAt(address);
        int old = SlotLayout.policyOfMeta(meta);
        if (segment(old) != LEAVING) {
          return -1;
        }
        int counted =
            switch (old & COUNT_MASK) {
              case COUNT_KEPT -> PolicyBitsLayout.bits(PROBATION, 0);
              case COUNT_UPDATED -> PolicyBitsLayout.bits(PROBATION, 0) | REFERENCED;
              default -> PolicyBitsLayout.bits(WINDOW, 0);
            };
        int updated = (old & PINNED) | counted;
        if (index.casMeta(address, meta, SlotLayout.withPolicy(meta, updated))) {
          return updated;
        }
      }
    } finally {
      index.unlock(shard);
    }
  }

  /**
   * Under the shard's lock, sets the entry of {@code pointer} uncounted. For a rewrite ({@code
   * rewrite} true, the key's lock held, V2): a counted entry becomes LEAVING, to be counted again
   * into the window if it was in the window, else into probation referenced (count field UPDATED).
   * For a victim whose removal missed ({@code rewrite} false): an entry still LEAVING gets the
   * count field KEPT, to be counted again into probation. Returns the policy byte it found (the
   * caller uncounts its segment), or -1 if no slot holds {@code pointer}.
   */
  static int uncountLocked(HashIndex index, int shard, int hash32, long pointer, boolean rewrite) {
    index.lock(shard);
    try {
      long address = index.slotOf(shard, hash32, pointer);
      if (address < 0) {
        return -1;
      }
      while (true) {
        long meta = index.metaAt(address);
        int old = SlotLayout.policyOfMeta(meta);
        boolean counted = segment(old) != LEAVING;
        if (counted != rewrite) {
          return old; // a rewrite of an uncounted entry, or a victim counted again meanwhile
        }
        int count = !rewrite ? COUNT_KEPT : segment(old) == WINDOW ? COUNT_NEW : COUNT_UPDATED;
        int updated = (old & PINNED) | count | UNCOUNTED;
        if (index.casMeta(address, meta, SlotLayout.withPolicy(meta, updated))) {
          return old;
        }
      }
    } finally {
      index.unlock(shard);
    }
  }

  // ----------------------------------------------------------------------------- shares

  /**
   * The first share level that restricts eviction ({@link #OVER_MAX_SHARE}: some table is over its
   * max share; {@link #OVER_MIN_SHARE}: some table is under its min share while another is over its
   * own), or {@link #ANY_TABLE}; and restricts eviction to it.
   */
  int restrictFirst() {
    if (!sharesConfigured) {
      restricted = false;
      return ANY_TABLE;
    }
    for (int level = OVER_MAX_SHARE; level < ANY_TABLE; level++) {
      if (restrict(level)) {
        return level;
      }
    }
    return ANY_TABLE;
  }

  /**
   * Restricts eviction to the tables of share level {@code level}; returns whether that level
   * applies (some table may be evicted from and some may not). {@link #ANY_TABLE} lifts it.
   */
  boolean restrict(int level) {
    restricted = false;
    if (level >= ANY_TABLE || !sharesConfigured) {
      return level >= ANY_TABLE;
    }
    long budget = core.budgetBytes();
    boolean someIn = false;
    boolean someOut = false;
    for (int k = 0; k < tables.length; k++) {
      OffHeapTable<?, ?> t = tables[k];
      TableOptions o = t.descriptor().options();
      double share = (double) t.index.entryBytes() / budget;
      boolean in = level == OVER_MAX_SHARE ? share > o.maxShare() : share > o.minShare();
      evictable[k] = in;
      someIn |= in;
      someOut |= !in && t.index.size() > 0 && !o.pinned();
    }
    restricted = someIn && someOut;
    return restricted;
  }
}
