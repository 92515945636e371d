package dev.cairn.pile.participant;

import dev.cairn.pile.Pile;
import dev.cairn.pile.StalePointerException;
import dev.cairn.pile.Transaction;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A participant that keeps its state in regions, the proof of {@link ParticipantLog#region}: an
 * array of 8-byte slots in pile blocks it writes in place, as the cache's index keeps its buckets.
 * Each region is put as a value of zeros ({@link #addRegion}), its pointer recorded by the put's
 * attachment and kept in the checkpoint's state. A slot holds the pointer of a value the table put
 * ({@link #put}: the put and the slot, one record), 0 once deleted ({@link #delete}); {@link #move}
 * shifts a pointer between two slots with a record of its own ({@link ParticipantLog#append});
 * {@link #update} rewrites the value a slot points to, in place or through a link, with the slot
 * set again in the same record or with no record of the table's. Every record is physical ("set
 * these words", P2), replayed into the same region memory.
 *
 * <p>The slots of one region are written from many threads under the locks of their writes'
 * stripes, while the region's block belongs to one stripe: what {@link ParticipantLog#written} is
 * for. A slot must be changed by one thread at a time, until its write returns (P5): the tests give
 * each thread its own slots.
 *
 * <pre>
 * Region (record NEW_REGION) --> Index:u32, Zero:u32, Pointer:u64
 * Set    (record SET)        --> (Region:u32, Slot:u32, Value:u64)^n
 * State                      --> Count:u32, Zero:u32, Pointer:u64^Count
 * </pre>
 */
public final class SlotTable implements LogParticipant {

  /** The record of a new region. */
  static final int NEW_REGION = 1;

  /** The record of slots set. */
  static final int SET = 2;

  /** The most regions a table holds. */
  public static final int MAX_REGIONS = 64;

  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfLong SLOT = ValueLayout.JAVA_LONG; // aligned: payloads are
  private static final int TRIPLE_BYTES = 16;

  private final int id;
  private final int slotsPerRegion;
  private volatile ParticipantLog log;
  // the regions' pointers, the checkpoint's state: set in attachments (addRegion: one thread)
  // and at open; read by the checkpoint, under every stripe lock (no lock of the table's is
  // held around a pile call: P3)
  private final AtomicLongArray regionPointers = new AtomicLongArray(MAX_REGIONS);
  private volatile int regionCount;
  // the regions' views, taken outside attachments (addRegion, replay, recovered)
  private final AtomicReferenceArray<MemorySegment> views = new AtomicReferenceArray<>(MAX_REGIONS);
  // regions whose put returned: only those are used, so that no record of a slot in a region
  // reaches the log before the region's own (P5)
  private volatile int usable;
  private int replayed; // the opening thread's, read by it once the pile is open
  private int staleInReplay; // the same
  private long openedAtLsn = -1; // the same

  public SlotTable(int id, int slotsPerRegion) {
    this.id = id;
    this.slotsPerRegion = slotsPerRegion;
  }

  /** The log, as the pile handed it to {@link #open}. */
  public ParticipantLog log() {
    return log;
  }

  public int slotsPerRegion() {
    return slotsPerRegion;
  }

  /** Regions usable now: their puts returned, or recovery found them. */
  public int regionCount() {
    return usable;
  }

  /** The pointer of region {@code region}. */
  public long regionPointer(int region) {
    return regionPointers.get(region);
  }

  /** Adds a region of zeros; returns its index. Not from two threads at once. */
  public int addRegion() {
    int index = usable;
    if (index == MAX_REGIONS) {
      throw new IllegalStateException("the table holds " + MAX_REGIONS + " regions already");
    }
    long bytes = (long) slotsPerRegion * Long.BYTES;
    long pointer =
        log.put(
            new PayloadWriter() {
              @Override
              public int sizeBytes() {
                return (int) bytes;
              }

              @Override
              public void writeTo(MemorySegment target, long offset) {
                target.asSlice(offset, bytes).fill((byte) 0);
              }
            },
            NEW_REGION,
            p -> {
              regionPointers.set(index, p);
              regionCount = Math.max(regionCount, index + 1);
              MemorySegment record = MemorySegment.ofArray(new byte[16]);
              record.set(U32, 0, index);
              record.set(U64, 8, p);
              return record;
            });
    views.set(index, log.region(pointer)); // outside the attachment: it checks pages
    usable = index + 1;
    return index;
  }

  /** Puts {@code value} and sets the empty slot {@code (region, slot)} to its pointer. */
  public long put(int region, int slot, byte[] value) {
    return log.put(bytesOf(value), SET, p -> set(region, slot, p));
  }

  /**
   * {@link #put(int, int, byte[])}, running {@code inside} in the attachment once the slot is
   * written and reported (tests: to hold the write's stripe lock there, or to see which it is).
   */
  public long put(int region, int slot, byte[] value, Runnable inside) {
    return log.put(
        bytesOf(value),
        SET,
        p -> {
          MemorySegment record = set(region, slot, p);
          inside.run();
          return record;
        });
  }

  /** In {@code tx}: puts {@code value}, and sets the slot when the transaction commits. */
  public long putInTransaction(Transaction tx, int region, int slot, byte[] value) {
    long pointer = tx.put(value);
    log.attach(tx, SET, ignored -> set(region, slot, pointer));
    return pointer;
  }

  /** Deletes the value slot {@code (region, slot)} points to and clears the slot. */
  public void delete(int region, int slot) {
    long pointer = get(region, slot);
    log.delete(pointer, SET, p -> set(region, slot, 0));
  }

  /**
   * Rewrites the value slot {@code (region, slot)} points to; with {@code attached}, the same
   * record sets the slot again (to the same pointer), else the update is logged alone.
   */
  public void update(int region, int slot, byte[] value, boolean attached) {
    long pointer = get(region, slot);
    log.update(pointer, bytesOf(value), SET, attached ? p -> set(region, slot, p) : null);
  }

  /** Moves the pointer of slot {@code from} into the empty slot {@code to}: a record of its own. */
  public long move(int fromRegion, int fromSlot, int toRegion, int toSlot) {
    long lsn =
        log.append(
            SET,
            ignored -> {
              long pointer = get(fromRegion, fromSlot);
              write(toRegion, toSlot, pointer);
              write(fromRegion, fromSlot, 0);
              MemorySegment record = MemorySegment.ofArray(new byte[2 * TRIPLE_BYTES]);
              triple(record, 0, toRegion, toSlot, pointer);
              triple(record, TRIPLE_BYTES, fromRegion, fromSlot, 0);
              return record;
            });
    log.awaitDurable(lsn);
    return lsn;
  }

  /** The pointer slot {@code (region, slot)} holds, 0 if none. */
  public long get(int region, int slot) {
    return views.get(region).get(SLOT, (long) slot * Long.BYTES);
  }

  /** The view of region {@code region} (tests). */
  public MemorySegment view(int region) {
    return views.get(region);
  }

  public int replayed() {
    return replayed;
  }

  /** Slot writes replay skipped because their region was stale (P6): none in these tests. */
  public int staleInReplay() {
    return staleInReplay;
  }

  public long openedAtLsn() {
    return openedAtLsn;
  }

  private MemorySegment set(int region, int slot, long pointer) {
    write(region, slot, pointer);
    MemorySegment record = MemorySegment.ofArray(new byte[TRIPLE_BYTES]);
    triple(record, 0, region, slot, pointer);
    return record;
  }

  /** Inside an attachment: the slot's word, then the report (written after the bytes). */
  private void write(int region, int slot, long pointer) {
    long offset = (long) slot * Long.BYTES;
    views.get(region).set(SLOT, offset, pointer);
    log.written(regionPointer(region), offset, Long.BYTES);
  }

  private static void triple(MemorySegment record, long at, int region, int slot, long value) {
    record.set(U32, at, region);
    record.set(U32, at + 4, slot);
    record.set(U64, at + 8, value);
  }

  /** {@code value}'s bytes as a payload. */
  static PayloadWriter bytesOf(byte[] value) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return value.length;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        MemorySegment.copy(MemorySegment.ofArray(value), 0, target, offset, value.length);
      }
    };
  }

  // ---------------------------------------------------------------------------------------
  // LogParticipant

  @Override
  public int id() {
    return id;
  }

  @Override
  public void open(ParticipantLog log, byte[] state, long checkpointLsn) {
    this.log = log;
    for (int i = 0; i < MAX_REGIONS; i++) {
      views.set(i, null);
      regionPointers.set(i, Pile.NULL);
    }
    usable = 0;
    MemorySegment in = MemorySegment.ofArray(state);
    int count = state.length > 0 ? in.get(U32, 0) : 0;
    for (int i = 0; i < count; i++) {
      regionPointers.set(i, in.get(U64, 8 + 8L * i));
    }
    regionCount = count;
    // no region() here: the pile may not hold them yet (P6)
    openedAtLsn = checkpointLsn;
  }

  @Override
  public void replay(long lsn, int type, MemorySegment payload) {
    replayed++;
    switch (type) {
      case NEW_REGION -> {
        int index = payload.get(U32, 0);
        regionPointers.set(index, payload.get(U64, 8));
        regionCount = Math.max(regionCount, index + 1);
        views.set(index, null);
      }
      case SET -> {
        for (long at = 0; at < payload.byteSize(); at += TRIPLE_BYTES) {
          int region = payload.get(U32, at);
          long offset = (long) payload.get(U32, at + 4) * Long.BYTES;
          long value = payload.get(U64, at + 8);
          MemorySegment view = views.get(region);
          if (view == null) {
            try {
              view = log.region(regionPointers.get(region));
            } catch (StalePointerException freedLater) {
              staleInReplay++; // a later record frees it: its writes do not matter (P6)
              continue;
            }
            views.set(region, view);
          }
          view.set(SLOT, offset, value);
          log.written(regionPointers.get(region), offset, Long.BYTES);
        }
      }
      default -> throw new IllegalStateException("unknown slot record type " + type);
    }
  }

  @Override
  public void recovered() {
    for (int i = 0; i < regionCount; i++) {
      views.set(i, log.region(regionPointers.get(i))); // again: checks what replay deferred
    }
    usable = regionCount;
  }

  @Override
  public byte[] checkpoint(long checkpointLsn) {
    int count = regionCount;
    MemorySegment out = MemorySegment.ofArray(new byte[8 + 8 * count]);
    out.set(U32, 0, count);
    for (int i = 0; i < count; i++) {
      out.set(U64, 8 + 8L * i, regionPointers.get(i));
    }
    return out.toArray(ValueLayout.JAVA_BYTE);
  }

  @Override
  public String toString() {
    return "SlotTable(" + id + ")";
  }
}
