package dev.cairn.cache.index;

import dev.cairn.memory.ThreadStatePadding;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The index's part of one logged change: the slot stores and resizes it made, as the payload of a
 * participant record, so that replay repeats them.
 *
 * <h2>Format</h2>
 *
 * <pre>{@code
 * IndexRecord --> TableId:u16, Op*
 * Op          --> Set | Resize | Retire
 * Set         --> 1:u8, Shard:u8, Slot:u32, Pointer:u64, Meta:u64, Count:u32, Dead:u32,
 *                 Bytes:u64, Region:u64
 * Resize      --> 2:u8, Shard:u8, OldRegion:u64, NewRegion:u64, NewCapacity:u32
 * Retire      --> 3:u8, Region:u64, Capacity:u32
 * }</pre>
 *
 * Little-endian, unaligned. A Set stores both words of a slot and the shard's live and dead
 * (tombstone) counts and the bytes of its entries after the store: replaying it over a state that
 * already holds it changes nothing (records set, never add). The shard's lock is held from the
 * change until its record is in the log ({@link HashIndex}, I4), so a shard's records are in the
 * log in the order of its changes. A Resize zeroes the new region and rehashes the old one into it;
 * the old region is not freed before the resize is checkpointed (see {@link HashIndex}), so at
 * replay it holds exactly what it held when the resize was logged.
 *
 * <p>Not thread-safe: one per thread, reused for each change.
 */
public final class IndexRecord extends ThreadStatePadding {
  static final ValueLayout.OfShort U16 =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfInt U32 =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong U64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  public static final int TABLE_ID_OFFSET = 0;
  public static final int OPS_OFFSET = TABLE_ID_OFFSET + Short.BYTES;

  public static final byte OP_SET = 1;
  public static final byte OP_RESIZE = 2;

  /** A region put for a rebuild another writer made first: retired at once, freed later. */
  public static final byte OP_RETIRE = 3;

  /** Op, shard, slot, pointer, meta, count, dead, bytes, region. */
  public static final int SET_BYTES = 1 + 1 + 4 + 8 + 8 + 4 + 4 + 8 + 8;

  /** Op, shard, old region, new region, new capacity. */
  public static final int RESIZE_BYTES = 1 + 1 + 8 + 8 + 4;

  /** Op, region, capacity. */
  public static final int RETIRE_BYTES = 1 + 8 + 4;

  /** The most bytes a record may hold (the participant record's limit). */
  public static final int MAX_BYTES = 4096;

  private final MemorySegment buffer = Arena.ofAuto().allocate(MAX_BYTES, 8);
  private int length;
  private MemorySegment lastView; // the last view bytes() made, of the buffer's first bytes

  /** Starts the record of one change of table {@code tableId}. */
  public IndexRecord begin(int tableId) {
    buffer.set(U16, TABLE_ID_OFFSET, (short) tableId);
    length = OPS_OFFSET;
    return this;
  }

  /** Whether ops were added since {@link #begin}. */
  public boolean isEmpty() {
    return length == OPS_OFFSET;
  }

  /** How many more Set ops this record has room for. */
  int setsLeft() {
    return (MAX_BYTES - length) / SET_BYTES;
  }

  void set(
      int shard, long region, int slot, long pointer, long meta, int count, int dead, long bytes) {
    long at = reserve(SET_BYTES);
    buffer.set(ValueLayout.JAVA_BYTE, at, OP_SET);
    buffer.set(ValueLayout.JAVA_BYTE, at + 1, (byte) shard);
    buffer.set(U32, at + 2, slot);
    buffer.set(U64, at + 6, pointer);
    buffer.set(U64, at + 14, meta);
    buffer.set(U32, at + 22, count);
    buffer.set(U32, at + 26, dead);
    buffer.set(U64, at + 30, bytes);
    buffer.set(U64, at + 38, region);
  }

  void resize(int shard, long oldRegion, long newRegion, int newCapacity) {
    long at = reserve(RESIZE_BYTES);
    buffer.set(ValueLayout.JAVA_BYTE, at, OP_RESIZE);
    buffer.set(ValueLayout.JAVA_BYTE, at + 1, (byte) shard);
    buffer.set(U64, at + 2, oldRegion);
    buffer.set(U64, at + 10, newRegion);
    buffer.set(U32, at + 18, newCapacity);
  }

  void retire(long region, int capacity) {
    long at = reserve(RETIRE_BYTES);
    buffer.set(ValueLayout.JAVA_BYTE, at, OP_RETIRE);
    buffer.set(U64, at + 1, region);
    buffer.set(U32, at + 9, capacity);
  }

  private long reserve(int bytes) {
    if (length + bytes > MAX_BYTES) {
      throw new IllegalStateException(
          "index record full: "
              + length
              + " + "
              + bytes
              + " bytes exceed "
              + MAX_BYTES
              + "; one change stores at most "
              + (MAX_BYTES - OPS_OFFSET) / SET_BYTES
              + " slots");
    }
    int at = length;
    length += bytes;
    return at;
  }

  /** The record so far, a view of this buffer valid until the next {@link #begin}. */
  public MemorySegment bytes() {
    MemorySegment view = lastView;
    if (view == null || view.byteSize() != length) {
      view = buffer.asSlice(0, length);
      lastView = view; // most writes log a record of the same length: no view made per write
    }
    return view;
  }

  /** The table a record belongs to. */
  public static int tableId(MemorySegment record) {
    checkLength(record, OPS_OFFSET);
    return Short.toUnsignedInt(record.get(U16, TABLE_ID_OFFSET));
  }

  static void checkLength(MemorySegment record, long needed) {
    if (record.byteSize() < needed) {
      throw new IllegalArgumentException(
          "index record truncated: " + record.byteSize() + " bytes, needed " + needed);
    }
  }
}
