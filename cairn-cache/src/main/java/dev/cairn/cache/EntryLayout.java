package dev.cairn.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The layout of a cache entry: one pile value (of kind BYTES) holding its key, its value and what
 * expiry needs.
 *
 * <pre>
 * Entry --> Flags:u8, ValueKind:u8, KeyLength:u16, ValueTypeId:u32, WrittenAtMillis:i64,
 *           ExpireAtMillis:i64, Key:u8[KeyLength], Value:u8*
 *
 *  0       1       2               4                               8
 * +-------+-------+---------------+-------------------------------+
 * | flags | kind  |  key length   |        value type id          |
 * +-------+-------+---------------+-------------------------------+
 * |                  written at (epoch millis)                    |
 * +---------------------------------------------------------------+
 * |           expire at (epoch millis, 0 = never)                 |
 * +---------------------------------------------------------------+
 * |  key bytes ...                | value bytes (to the end) ...  |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Little-endian. The value runs to the end of the pile value. kind: {@link #KIND_BYTES} (raw),
 * {@link #KIND_STRING} (UTF-8), {@link #KIND_OBJECT} (the pile codec of ValueTypeId). Flags: {@link
 * #FLAG_PINNED}. The version of this layout is the cache's format version ({@link
 * CacheState#FORMAT_VERSION}).
 */
final class EntryLayout {
  static final ValueLayout.OfShort U16 =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfInt U32 =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong I64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  static final int FLAGS_OFFSET = 0;
  static final int KIND_OFFSET = FLAGS_OFFSET + 1;
  static final int KEY_LENGTH_OFFSET = KIND_OFFSET + 1;
  static final int TYPE_ID_OFFSET = KEY_LENGTH_OFFSET + Short.BYTES;
  static final int WRITTEN_AT_OFFSET = TYPE_ID_OFFSET + Integer.BYTES;
  static final int EXPIRE_AT_OFFSET = WRITTEN_AT_OFFSET + Long.BYTES;
  static final int KEY_OFFSET = EXPIRE_AT_OFFSET + Long.BYTES;
  static final int HEADER_BYTES = KEY_OFFSET;

  static final int MAX_KEY_BYTES = 0xFFFF;

  static final byte KIND_BYTES = 0;
  static final byte KIND_STRING = 1;
  static final byte KIND_OBJECT = 2;

  static final int FLAG_PINNED = 1;

  private EntryLayout() {}

  static int flags(MemorySegment entry) {
    return Byte.toUnsignedInt(entry.get(ValueLayout.JAVA_BYTE, FLAGS_OFFSET));
  }

  static int kind(MemorySegment entry) {
    return entry.get(ValueLayout.JAVA_BYTE, KIND_OFFSET);
  }

  static int keyLength(MemorySegment entry) {
    return Short.toUnsignedInt(entry.get(U16, KEY_LENGTH_OFFSET));
  }

  static int typeId(MemorySegment entry) {
    return entry.get(U32, TYPE_ID_OFFSET);
  }

  static long writtenAt(MemorySegment entry) {
    return entry.get(I64, WRITTEN_AT_OFFSET);
  }

  static long expireAt(MemorySegment entry) {
    return entry.get(I64, EXPIRE_AT_OFFSET);
  }

  static long valueOffset(MemorySegment entry) {
    return (long) KEY_OFFSET + keyLength(entry);
  }

  /** Whether {@code entry} is long enough for its header and its key. */
  static boolean wellFormed(MemorySegment entry) {
    return entry.byteSize() >= HEADER_BYTES && entry.byteSize() >= valueOffset(entry);
  }

  static void writeHeader(
      MemorySegment target,
      long at,
      int flags,
      int kind,
      int keyLength,
      int typeId,
      long writtenAt,
      long expireAt) {
    target.set(ValueLayout.JAVA_BYTE, at + FLAGS_OFFSET, (byte) flags);
    target.set(ValueLayout.JAVA_BYTE, at + KIND_OFFSET, (byte) kind);
    target.set(U16, at + KEY_LENGTH_OFFSET, (short) keyLength);
    target.set(U32, at + TYPE_ID_OFFSET, typeId);
    target.set(I64, at + WRITTEN_AT_OFFSET, writtenAt);
    target.set(I64, at + EXPIRE_AT_OFFSET, expireAt);
  }
}
