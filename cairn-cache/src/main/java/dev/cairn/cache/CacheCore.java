package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.IndexRecord;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.PileClosedException;
import dev.cairn.pile.ValueTooLargeException;
import dev.cairn.pile.participant.PayloadWriter;
import dev.cairn.time.CoarseClock;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a cache's tables share: the pile (through its {@link EntryLog}), the clock, the byte budget
 * and its evictor, the regions retired by index growth, and the removal listener.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Budget: usedBytes counts every table's entries and index regions and the retired regions not
 * yet freed, in the pile's allocated bytes, exactly (each write adds what it stored). The
 * Evictor keeps it within the budget: a write that stays within budget + slack goes ahead and
 * the drain after it evicts; one that would pass it evicts first (OffHeapTable T4). The bound
 * on the overshoot is Evictor E3. Without a budget nothing reads it on a write, so the bytes
 * writes add go to a striped counter (writesAdded) instead of the one atomic, whose cache line
 * would otherwise pass between the cores at every put of two threads; usedBytes() sums both.
 *
 * Retired regions (HashIndex, Recovery): replaying a resize reads the region it left, so that
 * region must keep its bytes for as long as a recovery may replay the resize. With k
 * checkpoints begun when the resize returned, checkpoint k+1 may have taken its LSN before the
 * resize; checkpoint k+2 begins after k+1 completed, so its LSN is after the resize; once
 * checkpoint k+3 begins, k+2 has completed, and no recovery starts before the resize again.
 * So the region is freed when k+3 checkpoints have begun (a free before that could let the
 * block be reused, and a checkpoint in flight write the reuse's bytes over it). Without a log
 * (a volatile pile, durability NONE) nothing is replayed, and a retired region is freed at
 * once.
 *
 * Dropped tables (CacheParticipant): a checkpoint's state may be newer than its LSN and so lack
 * a table whose records, logged after the LSN but before the drop, its replay meets. So a state
 * lists the ids of the tables dropped lately, and replay skips their records. With k
 * checkpoints begun at the drop, a checkpoint numbered k+2 or later took its LSN after the drop
 * (as for retired regions), so an id is listed by the states of checkpoints up to k+2 and then
 * forgotten. Ids are never reused in a process (newTableId); across processes they may be: an
 * open that replays ends with a checkpoint, and no later replay starts before it.
 *
 * Readers take no lock: a hit sets its slot's hint bits by compare-and-set on the region it
 * looked the key up in, after checking that the shard's version did not move (HashIndex I3). So
 * every retired region is also kept RETIRED_GRACE_NANOS after its shard left it, for a reader
 * that checked the version just before the rebuild: only a reader preempted for longer than
 * that between its check and its CAS, whose region was freed and its block reused by a value
 * holding the slot's exact expected meta word at that offset, could change a value's bits.
 * Why 100 ms and not longer: a load retires half the index at each doubling, and the regions
 * it retired are held, resident, for the grace; with a second, a 10M-entry load ended with its
 * last doubling's regions still held or freed too late for its own inserts to reuse them
 * (cairn bench --workload cache: 121-130 bytes of RSS per entry, 99-103 with 100 ms and the
 * pile giving back the pages of large freed blocks). 100 ms is still thousands of time slices
 * for the few instructions between a reader's check and its CAS, which then also needs the
 * reused block to hold that slot's exact 64-bit meta word at that offset.
 *
 * Checking costs a clock read (about 20 ns), and a load retires regions all the time, so an
 * insert that does not grow its shard checks one time in RETIRED_CHECK_ODDS (a count in the
 * thread's Scratch: no shared counter, and no write to the Thread object, as a ThreadLocalRandom
 * draw makes, whose line may hold the fields of another thread's Thread): a due region waits a
 * few dozen inserts more, next to its grace. A write that needs room, and a growth, always
 * check. With no grace (a test's setting) nothing is read from the clock and every insert
 * checks, as the tests that count the budget's room need.
 *
 * Start-up: the code a cache's open and first read run (this class, Cache, the Evictor, the
 * Scratch) makes no lambda and no method reference, as the pile's does (its OffHeapPile,
 * "Start-up"): a cold JVM links each on first use, which a restart's first hit waits for.
 * }</pre>
 */
final class CacheCore {
  /** Participant record types. */
  static final int RECORD_ENTRY = 1;

  static final int RECORD_REGION = 2;
  static final int RECORD_TABLE = 3;
  static final int RECORD_RETIRE = 4;
  static final int RECORD_DROP = 5;

  /** The most tables a cache holds (their index directories live in each checkpoint). */
  static final int MAX_TABLES = 128;

  /** Table ids are u16 in the records and the state; one is never reused within a process. */
  static final int MAX_TABLE_ID = 0xFFFF;

  private static final ValueLayout.OfLong U64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private final EntryLog log;
  private final InstantSource clock;
  private final boolean systemClock; // write times from CoarseClock (see writeMillis)
  private final long budgetBytes;
  private final boolean replayable;
  private final Evictor evictor;
  private final AtomicLong usedBytes = new AtomicLong();
  private final LongAdder writesAdded = new LongAdder(); // without a budget (see Budget)
  private final List<OffHeapTable<?, ?>> tables = new CopyOnWriteArrayList<>();
  // the tables dropped lately: id -> checkpoints begun at the drop (see Dropped tables)
  private final java.util.Map<Integer, Long> dropped =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final AtomicLong tableChanges = new AtomicLong(); // tables added or dropped
  // one more than every table id this process had: ids are never reused in a process
  private final java.util.concurrent.atomic.AtomicInteger nextTableId =
      new java.util.concurrent.atomic.AtomicInteger();
  private final List<Retired> retired = new ArrayList<>(); // guarded by itself
  private final java.util.Set<Long> freeing = new java.util.HashSet<>(); // guarded by retired

  /**
   * The oldest retired region's retiredNanos and checkpointsBegun (Long.MAX_VALUE when none):
   * written under the list's lock, read without it, so that {@link #freeRetired} costs two reads
   * while nothing is due. The list is in retirement order and both figures only grow along it, so
   * when its head is not due, nothing is.
   */
  private volatile long headRetiredNanos = Long.MAX_VALUE;

  private volatile long headCheckpointsBegun = Long.MAX_VALUE;
  private final AtomicLong checkpointsBegun = new AtomicLong();
  private volatile boolean closed;
  private volatile RemovalListener<Object> listener;

  /** A region an index shard left, the checkpoints begun and the nanoTime when it did. */
  record Retired(long region, long bytes, long checkpointsBegun, long retiredNanos) {
    Retired(long region, long bytes, long checkpointsBegun) {
      this(region, bytes, checkpointsBegun, System.nanoTime());
    }
  }

  /**
   * How long a retired region is kept at least, for lock-free readers that looked a slot up in it:
   * a hit's hint (policy bits, time-to-idle) is a compare-and-set on the slot it found, which must
   * not land in a block the pile has reused (see the note).
   */
  static final long RETIRED_GRACE_NANOS = 100_000_000L;

  /**
   * The grace in force: {@link #RETIRED_GRACE_NANOS}, which a test of the policy's hit ratios sets
   * to 0 in a single-threaded volatile cache (no reader to protect), so that the bytes of retired
   * regions, and so the entries the budget leaves room for, do not depend on timing.
   */
  static volatile long retiredGraceNanos = RETIRED_GRACE_NANOS;

  /**
   * One insert in this many that does not grow its shard checks the retired regions: a power of
   * two, counted per thread with a mask.
   */
  static final int RETIRED_CHECK_ODDS = 32;

  CacheCore(EntryLog log, InstantSource clock, long budgetBytes, boolean replayable) {
    this.log = log;
    this.clock = clock;
    this.systemClock = clock == InstantSource.system();
    this.budgetBytes = budgetBytes;
    this.replayable = replayable;
    this.evictor = new Evictor(this, budgetBytes);
  }

  EntryLog log() {
    return log;
  }

  CodecRegistry codecs() {
    return log.codecs();
  }

  long nowMillis() {
    return clock.millis();
  }

  /**
   * An entry's write time, for a write that needs the time for nothing else: on the system clock,
   * {@link CoarseClock}'s (the clock as of the kernel's last tick: a few milliseconds early at
   * most, never late) in the buffer of {@code sc}'s thread; a clock of the cache's own is read as
   * it is.
   */
  long writeMillis(Scratch sc) {
    return systemClock ? CoarseClock.millis(sc.timespec) : clock.millis();
  }

  /** The cache's clock, for a read that asks the time only when it needs it. */
  InstantSource clock() {
    return clock;
  }

  Evictor evictor() {
    return evictor;
  }

  CacheChanges changes() {
    return Scratch.get().changes;
  }

  long budgetBytes() {
    return budgetBytes;
  }

  long usedBytes() {
    return usedBytes.get() + writesAdded.sum();
  }

  List<OffHeapTable<?, ?>> tables() {
    return tables;
  }

  /** Adds a table (created, or found at open) and counts its bytes. */
  void addTable(OffHeapTable<?, ?> table) {
    tables.add(table);
    usedBytes.addAndGet(table.index.entryBytes() + table.index.regionBytes());
    // a loop, not accumulateAndGet(id, Math::max): see the note, "Start-up"
    int next = table.descriptor().id() + 1;
    int current = nextTableId.get();
    while (current < next && !nextTableId.compareAndSet(current, next)) {
      current = nextTableId.get();
    }
    tableChanges.incrementAndGet();
  }

  /** A number that moves whenever a table is added or dropped. */
  long tableChanges() {
    return tableChanges.get();
  }

  /**
   * The ids of the tables a checkpoint's state lists as dropped, for a checkpoint that has just
   * begun (see the note: Dropped tables); forgets the ones no checkpoint needs any more.
   */
  java.util.Set<Integer> droppedIds() {
    long begun = checkpointsBegun.get();
    java.util.Set<Integer> ids = new java.util.TreeSet<>();
    dropped.values().removeIf(droppedAt -> begun > droppedAt + 2);
    ids.addAll(dropped.keySet());
    return ids;
  }

  /**
   * The id of a new table, under the cache's table lock: one more than any id a table had since the
   * open, so that no id is reused in a process (see Dropped tables).
   *
   * @throws CacheException if this process made {@value #MAX_TABLE_ID} table ids
   */
  int newTableId() {
    int id = nextTableId.get(); // a table takes it when it is added (addTable)
    if (id > MAX_TABLE_ID) {
      throw new CacheException(
          "no table id left: "
              + (MAX_TABLE_ID + 1)
              + " tables were created since the cache was opened; close and reopen it");
    }
    return id;
  }

  /**
   * Logs the drop of {@code table}, whose entries are gone (OffHeapTable T7): in one record, the
   * table leaves the list and its index's regions are retired, freed as a growth's old regions are
   * (see the note), so that a replay of records before the drop still finds them.
   */
  void dropTable(OffHeapTable<?, ?> table) {
    HashIndex index = table.index;
    log.append(
        RECORD_DROP,
        new EntryLog.Change() {
          @Override
          public MemorySegment apply(long pointer) {
            IndexRecord record = Scratch.get().record.begin(table.descriptor().id());
            long entryBytes = index.entryBytes(); // 0: the drop removed every entry first
            index.drop(record, CacheCore.this::retireLocked);
            usedBytes.addAndGet(-entryBytes);
            tables.remove(table);
            if (replayable) {
              dropped.put(table.descriptor().id(), checkpointsBegun.get());
            }
            tableChanges.incrementAndGet();
            return record.bytes();
          }

          @Override
          public void logged() {
            index.unlockDropped(); // HashIndex D1: held until the record is logged (I4)
          }

          @Override
          public void afterLog() {
            index.unlockDropped();
          }
        });
  }

  /**
   * Creates {@code table}: logs its descriptor and adds it in the same write, so that a checkpoint
   * holds the table exactly when the log before it does.
   */
  void createTable(OffHeapTable<?, ?> table) {
    byte[] descriptor = CacheState.encodeDescriptor(table.descriptor());
    log.append(
        RECORD_TABLE,
        new EntryLog.Change() {
          @Override
          public MemorySegment apply(long pointer) {
            addTable(table);
            return MemorySegment.ofArray(descriptor);
          }

          @Override
          public void afterLog() {}
        });
  }

  /** Gives {@code table} new options, logged as a table record. */
  void updateTable(OffHeapTable<?, ?> table, TableDescriptor descriptor) {
    byte[] bytes = CacheState.encodeDescriptor(descriptor);
    log.append(
        RECORD_TABLE,
        new EntryLog.Change() {
          @Override
          public MemorySegment apply(long pointer) {
            table.describe(descriptor);
            return MemorySegment.ofArray(bytes);
          }

          @Override
          public void afterLog() {}
        });
  }

  /** The table of id {@code id}, or null. */
  OffHeapTable<?, ?> table(int id) {
    for (OffHeapTable<?, ?> t : tables) {
      if (t.descriptor().id() == id) {
        return t;
      }
    }
    return null;
  }

  void checkOpen() {
    if (closed) {
      throw new PileClosedException("cache is closed (its pile closed with it)");
    }
  }

  void close() {
    closed = true;
  }

  void added(long bytes) {
    if (budgetBytes == Long.MAX_VALUE) {
      writesAdded.add(bytes);
      return;
    }
    usedBytes.addAndGet(bytes);
  }

  // ----------------------------------------------------------------------------------- budget

  /**
   * The pile's bytes for an entry whose payload (entry header, key and value, as stored) is {@code
   * payloadBytes}, checked before anything is written: an entry larger than the budget is refused
   * for the budget, one no block of the pile can hold, or no log record carry, for that.
   *
   * @throws EntryTooLargeException if the cache cannot hold the entry, saying which limit and what
   *     to change
   */
  long entryAllocatedBytes(int payloadBytes) {
    if (budgetBytes != Long.MAX_VALUE && payloadBytes > budgetBytes) {
      throw largerThanBudget(payloadBytes);
    }
    try {
      return log.allocatedBytes(payloadBytes);
    } catch (ValueTooLargeException e) {
      throw new EntryTooLargeException(
          e.limit() == ValueTooLargeException.Limit.SEGMENT
              ? "entry of "
                  + payloadBytes
                  + " bytes (entry header, key and value) is larger than the "
                  + e.limitBytes()
                  + " bytes one block of the cache's pile holds (a block lies within one segment):"
                  + " give the cache larger segments,"
                  + " CacheOptions.builder().pile(PileOptions.builder().segmentBytes(...)),"
                  + " up to 1 GiB"
              : "entry of "
                  + payloadBytes
                  + " bytes (entry header, key and value) is larger than the "
                  + e.limitBytes()
                  + " bytes one log record of this persistent cache carries (with durability SYNC"
                  + " or PERIODIC each write is one record): keep such values in a cache with"
                  + " durability NONE, PileOptions.builder().durability(Durability.NONE),"
                  + " or split them",
          e);
    }
  }

  private EntryTooLargeException largerThanBudget(long entryBytes) {
    return new EntryTooLargeException(
        "entry of "
            + entryBytes
            + " bytes is larger than the cache's whole budget of "
            + budgetBytes
            + " bytes");
  }

  /**
   * Makes room for a write that adds {@code delta} bytes, of an entry of {@code entryBytes}
   * (OffHeapTable T4): nothing to do while usedBytes + delta stays within budget + slack (the drain
   * after the write evicts); past it, waits for the eviction lock and evicts first.
   *
   * @throws EntryTooLargeException if the entry alone is larger than the budget
   * @throws CacheFullException if only pinned entries are left to evict (Evictor E4)
   */
  void makeRoom(long delta, long entryBytes) {
    if (budgetBytes == Long.MAX_VALUE) {
      return;
    }
    if (entryBytes > budgetBytes) {
      throw largerThanBudget(entryBytes);
    }
    long limit = budgetBytes + evictor.slackBytes();
    if (delta <= 0 || usedBytes.get() + delta <= limit) {
      return;
    }
    freeRetired(); // regions past their grace come back before anything is evicted
    if (usedBytes.get() + delta <= limit) {
      return;
    }
    if (!evictor.evictForWrite(delta) && usedBytes.get() + delta > limit) {
      throw new CacheFullException(
          "no room for "
              + delta
              + " more bytes: the cache uses "
              + usedBytes.get()
              + " of its "
              + budgetBytes
              + " bytes ("
              + evictor.slackBytes()
              + " more while evicting) and what is left to evict is pinned; unpin or remove"
              + " entries, or give the cache a larger budget");
    }
  }

  // ------------------------------------------------------------------------------ index growth

  /**
   * Grows shard {@code shard} of {@code table}'s index if one more insert needs it; {@code sc} is
   * the calling thread's scratch (the growth's record, and its count of inserts).
   */
  void growIndex(OffHeapTable<?, ?> table, int shard, Scratch sc) {
    HashIndex index = table.index;
    if (index.growthFor(shard) == 0) {
      // every insert asks: the answer is almost always no, and must cost next to nothing; but
      // the regions of the last growth are freed by later inserts once due, not left for good
      // (one in RETIRED_CHECK_ODDS of them: see the note)
      if (headRetiredNanos != Long.MAX_VALUE
          && (retiredGraceNanos == 0
              || (++sc.insertsSinceRetiredCheck & (RETIRED_CHECK_ODDS - 1)) == 0)) {
        freeRetired();
      }
      return;
    }
    freeRetired();
    int capacity = index.growthFor(shard);
    if (capacity == 0) {
      return;
    }
    index.view(shard); // the rebuild copies the old region's slots (HashIndex V1)
    long regionBytes = HashIndex.regionBytes(capacity);
    long bytes = log.allocatedBytes(Math.toIntExact(regionBytes));
    makeRoom(bytes, bytes);
    CacheChanges.Resize change =
        sc.changes.resize(index, shard, capacity, sc.record, this::retireLocked);
    // not waited for: an insert into the region logs after it, and its wait covers both (the log
    // is durable in order); a crash before that loses the growth whole, and nothing depended on it
    log.putWithoutWaiting(new Zeros(regionBytes), RECORD_REGION, change);
    added(bytes); // the new region: in the shard, or retired until freed
    freeRetired();
  }

  /**
   * Adds a region to the retired list, inside the write that stopped using it (a rebuild's
   * attachment): a checkpoint sees the region in a shard or among the retired, never neither.
   */
  private void retireLocked(long region, int capacity) {
    long bytes = log.allocatedBytes(Math.toIntExact(HashIndex.regionBytes(capacity)));
    synchronized (retired) {
      retired.add(new Retired(region, bytes, checkpointsBegun.get()));
      headChangedLocked();
    }
  }

  /** Publishes the head of the retired list for {@link #freeRetired}'s unlocked check. */
  private void headChangedLocked() {
    if (retired.isEmpty()) {
      headRetiredNanos = Long.MAX_VALUE;
      headCheckpointsBegun = Long.MAX_VALUE;
    } else {
      headRetiredNanos = retired.get(0).retiredNanos();
      headCheckpointsBegun = retired.get(0).checkpointsBegun();
    }
  }

  /** Whether the oldest retired region may be freed now: if not, no region may. */
  private boolean headDue() {
    long nanos = headRetiredNanos;
    long grace = retiredGraceNanos;
    return nanos != Long.MAX_VALUE
        && (!replayable || checkpointsBegun.get() >= headCheckpointsBegun + 3)
        && (grace == 0 || System.nanoTime() - nanos >= grace);
  }

  /** A payload of zeros: a new region. */
  private record Zeros(long bytes) implements PayloadWriter {
    @Override
    public int sizeBytes() {
      return Math.toIntExact(bytes);
    }

    @Override
    public void writeTo(MemorySegment target, long offset) {
      target.asSlice(offset, bytes).fill((byte) 0);
    }
  }

  /** Frees the retired regions no recovery can need any more (see the note). */
  void freeRetired() {
    if (!headDue()) {
      return;
    }
    List<Retired> due = null;
    long now = System.nanoTime();
    long grace = retiredGraceNanos;
    synchronized (retired) {
      if (retired.isEmpty()) {
        return;
      }
      for (Retired r : retired) {
        if ((!replayable || checkpointsBegun.get() >= r.checkpointsBegun() + 3)
            && now - r.retiredNanos() >= grace
            && freeing.add(r.region())) { // one thread frees each
          if (due == null) {
            due = new ArrayList<>();
          }
          due.add(r);
        }
      }
    }
    if (due != null) {
      for (Retired r : due) {
        try {
          free(r.region());
        } finally {
          synchronized (retired) {
            freeing.remove(r.region());
          }
        }
      }
    }
  }

  /** Frees a region, taking it out of the retired list in the same logged write. */
  private void free(long region) {
    log.delete(
        region,
        RECORD_RETIRE,
        new EntryLog.Change() {
          @Override
          public MemorySegment apply(long pointer) {
            forgetRetired(pointer);
            MemorySegment record = MemorySegment.ofArray(new byte[Long.BYTES]);
            record.set(U64, 0, pointer);
            return record;
          }

          @Override
          public void afterLog() {}
        });
  }

  /** Takes {@code region} out of the retired list (a free's record, applied or replayed). */
  boolean forgetRetired(long region) {
    synchronized (retired) {
      for (int i = 0; i < retired.size(); i++) {
        if (retired.get(i).region() == region) {
          usedBytes.addAndGet(-retired.get(i).bytes());
          retired.remove(i);
          headChangedLocked();
          return true;
        }
      }
      return false;
    }
  }

  /** A checkpoint began (the participant's checkpoint callback). */
  void checkpointBegun() {
    checkpointsBegun.incrementAndGet();
  }

  List<Retired> retiredRegions() {
    synchronized (retired) {
      return List.copyOf(retired);
    }
  }

  void restoreRetired(List<Retired> regions) {
    synchronized (retired) {
      retired.clear();
      for (Retired r : regions) {
        retired.add(new Retired(r.region(), r.bytes(), 0));
        usedBytes.addAndGet(r.bytes());
      }
      headChangedLocked();
    }
  }

  // --------------------------------------------------------------------------------- listener

  @SuppressWarnings("unchecked")
  void listener(RemovalListener<?> listener) {
    this.listener = (RemovalListener<Object>) listener;
  }

  boolean hasListener() {
    return listener != null;
  }

  /**
   * Queues a removal for the listener: it is told once the operation that removed the entry has
   * released its locks and its thread's scratch ({@link #deliverRemovals}), so that it may call the
   * cache.
   */
  void notifyRemoval(String table, Object key, RemovalCause cause) {
    if (listener != null) {
      Scratch.get().removals.add(new Scratch.Removal(table, key, cause));
    }
  }

  /** Tells the listener of this thread's queued removals; at the end of each operation. */
  void deliverRemovals() {
    deliverRemovals(Scratch.get());
  }

  /** {@link #deliverRemovals()} with the calling thread's scratch, {@code sc}. */
  void deliverRemovals(Scratch sc) {
    if (sc.removals.isEmpty() || sc.delivering) {
      return;
    }
    sc.delivering = true;
    try {
      Scratch.Removal r;
      while ((r = sc.removals.poll()) != null) {
        RemovalListener<Object> l = listener;
        if (l != null) {
          l.onRemoval(r.table(), r.key(), r.cause());
        }
      }
    } finally {
      sc.delivering = false;
    }
  }
}
