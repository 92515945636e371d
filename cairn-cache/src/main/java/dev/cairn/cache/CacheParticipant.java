package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.IndexRecord;
import dev.cairn.pile.participant.LogParticipant;
import dev.cairn.pile.participant.ParticipantLog;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The cache as a participant of its pile's log ({@link LogParticipant}): its tables and index come
 * back at open from the last checkpoint's state and the records logged since, and each checkpoint
 * takes its state.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Records (the participant record's type):
 *   ENTRY   an entry written or removed, with its index change (IndexRecord: slot stores)
 *   REGION  an index region put, with the resize that moved a shard into it (IndexRecord)
 *   TABLE   a table created, or its options changed (CacheState's Descriptor)
 *   RETIRE  a retired region freed: Region:u64, little-endian
 *   DROP    a table dropped (IndexRecord: a Retire op for each of its regions)
 * Dropped tables: a checkpoint's state may be newer than its LSN (LogParticipant P2) and no
 * longer hold a table whose records replay meets; the state lists the ids dropped lately
 * (CacheCore's note), and replay skips the records of those, keeping only their Retire ops (a
 * growth that raced the drop retired the region it made), so that every region is still in a
 * shard or among the retired; a table record of one is skipped too (an options change before
 * the drop). An id neither held nor dropped is damage.
 * Open: open() installs the checkpoint's tables and shards without viewing their regions
 * (their puts may be replayed after it, LogParticipant P6); replay() applies the records in LSN
 * order, viewing a region when a record first needs it; the other regions are viewed at their
 * shard's first use (HashIndex V1), so that the open reads none of the index's pages. The
 * factory then makes the cache over these tables (attach), after which checkpoints take the
 * cache's state; a checkpoint before that takes the recovered one, the same objects.
 * }</pre>
 */
final class CacheParticipant implements LogParticipant {
  /** The cache's participant id in its pile. */
  static final int ID = 1;

  private static final ValueLayout.OfLong U64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private ParticipantLog log;
  private final List<CacheState.Table> tables = new ArrayList<>();
  // by region, in the order retired: a replay meets as many RETIRE records as the log holds
  // frees, each of which looks its region up (a list made that quadratic)
  private final java.util.Map<Long, CacheCore.Retired> retired = new java.util.LinkedHashMap<>();
  private final java.util.Set<Integer> dropped = new java.util.TreeSet<>();
  private volatile CacheCore core;

  /** The tables recovered at open, in creation order. */
  List<CacheState.Table> recoveredTables() {
    return tables;
  }

  /** The retired regions recovered at open. */
  List<CacheCore.Retired> recoveredRetired() {
    return List.copyOf(retired.values());
  }

  void attach(CacheCore core) {
    this.core = core;
  }

  @Override
  public int id() {
    return ID;
  }

  /** Every value of a cache's pile is an entry or an index region, held by the index. */
  @Override
  public boolean ownsItsPile() {
    return true;
  }

  @Override
  public void open(ParticipantLog log, byte[] state, long checkpointLsn) {
    this.log = log;
    CacheState.Image image = CacheState.decode(state);
    for (CacheState.TableImage t : image.tables()) {
      HashIndex index = new HashIndex(t.descriptor().id(), regions());
      t.installInto(index);
      tables.add(new CacheState.Table(t.descriptor(), index));
    }
    for (CacheCore.Retired r : image.retired()) {
      retired.putIfAbsent(r.region(), r);
    }
    dropped.addAll(image.dropped());
  }

  /**
   * The regions as the index sees them during replay and after: the participant log's, through the
   * class the cache's own writes use. One class of RegionStore in a running cache keeps the index's
   * calls to it monomorphic; a second one, loaded at a reopen, would make the JIT discard the index
   * code it compiled against one, in the middle of the reopen.
   */
  private dev.cairn.cache.index.RegionStore regions() {
    return new PileEntryLog(log, true); // replayed regions are a persistent pile's
  }

  @Override
  public void replay(long lsn, int type, MemorySegment payload) {
    switch (type) {
      case CacheCore.RECORD_ENTRY, CacheCore.RECORD_REGION, CacheCore.RECORD_DROP -> {
        int id = IndexRecord.tableId(payload);
        HashIndex.Retirement retirement =
            (region, capacity) -> {
              // the state may list it already (HashIndex I5): one entry per region
              if (!retired.containsKey(region)) {
                retired.put(
                    region,
                    new CacheCore.Retired(
                        region,
                        log.allocatedBytes(Math.toIntExact(HashIndex.regionBytes(capacity))),
                        0));
              }
            };
        try {
          CacheState.Table table = tableOf(id);
          if (table == null && dropped.contains(id)) {
            HashIndex.replayRetirements(payload, retirement); // see the note: Dropped tables
          } else {
            indexOf(id, lsn).replay(payload, retirement);
          }
          if (type == CacheCore.RECORD_DROP && table != null) {
            tables.remove(table);
            dropped.add(id);
          }
        } catch (IllegalArgumentException e) {
          throw new CacheCorruptionException(
              "index record at LSN "
                  + lsn
                  + " of table "
                  + id
                  + " cannot be replayed: "
                  + e.getMessage());
        }
      }
      case CacheCore.RECORD_TABLE -> {
        byte[] bytes = payload.toArray(ValueLayout.JAVA_BYTE);
        TableDescriptor d = CacheState.decodeDescriptor(bytes);
        if (tableOf(d.id()) == null && dropped.contains(d.id())) {
          return; // see the note: Dropped tables
        }
        for (int i = 0; i < tables.size(); i++) {
          if (tables.get(i).descriptor().id() == d.id()) {
            tables.set(i, new CacheState.Table(d, tables.get(i).index()));
            return;
          }
        }
        tables.add(new CacheState.Table(d, new HashIndex(d.id(), regions())));
      }
      case CacheCore.RECORD_RETIRE -> {
        if (payload.byteSize() < Long.BYTES) {
          throw new CacheCorruptionException(
              "retire record at LSN " + lsn + " of " + payload.byteSize() + " bytes, needs 8");
        }
        long region = payload.get(U64, 0);
        retired.remove(region);
      }
      default ->
          throw new CacheCorruptionException(
              "cache record of unknown type "
                  + type
                  + " at LSN "
                  + lsn
                  + ": written by a newer build?");
    }
  }

  private CacheState.Table tableOf(int id) {
    for (CacheState.Table t : tables) {
      if (t.descriptor().id() == id) {
        return t;
      }
    }
    return null;
  }

  private HashIndex indexOf(int id, long lsn) {
    for (CacheState.Table t : tables) {
      if (t.descriptor().id() == id) {
        return t.index();
      }
    }
    throw new CacheCorruptionException(
        "index record at LSN " + lsn + " names table " + id + ", which no table record created");
  }

  @Override
  public void recovered() {
    boolean cut = log.recoveredFromCutCheckpoint();
    for (CacheState.Table t : tables) {
      t.index().recovered();
      if (cut) {
        t.index().viewAll(); // ParticipantLog#recoveredFromCutCheckpoint: every hinted region now
      }
    }
    if (cut) {
      for (CacheCore.Retired r : retired.values()) {
        log.hintedRegion(r.region()); // hinted until retired: its pages are taken as they are
      }
    }
  }

  @Override
  public byte[] checkpoint(long checkpointLsn) {
    CacheCore c = core;
    if (c == null) {
      // the open's own checkpoint: its LSN is past every record replayed, so no record of a
      // dropped table comes after it, and an id listed here could be reused by a new table
      return CacheState.encode(tables, List.copyOf(retired.values()), java.util.Set.of());
    }
    c.checkpointBegun();
    List<CacheState.Table> current = new ArrayList<>();
    for (OffHeapTable<?, ?> t : c.tables()) {
      current.add(new CacheState.Table(t.descriptor(), t.index));
    }
    return CacheState.encode(current, c.retiredRegions(), c.droppedIds());
  }
}
