package dev.cairn.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The layout of a cache entry: one pile value (of kind BYTES) holding its key, its value and what
 * expiry needs, with a header of one word when the entry needs nothing more.
 *
 * <pre>
 * Entry --> Head:u64, ValueTypeId:u32 (kind object only), ExpireAtMillis:i64 (flag expires
 *           only), Key:u8[KeyLength], Value:u8*
 * Head  --> WrittenAtMillis:43 (bits 63-21) | KeyLength:16 (bits 20-5) | Kind:2 (bits 4-3)
 *           | Flags:3 (bits 2-0)
 *
 *  0                                                               8
 * +---------------------------------------------------------------+
 * | head: written at | key length | kind | flags (a u64)          |
 * +-------------------------------+-------------------------------+
 * | value type id (kind object)   |  expire at (flag expires) ... |
 * +-------------------------------+-------------------------------+
 * |  key bytes ...                | value bytes (to the end) ...  |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Little-endian. The value runs to the end of the pile value. Written at: epoch milliseconds (43
 * bits reach the year 2248; a clock outside 0..2^43-1 is clamped). Kind: {@link #KIND_BYTES} (raw),
 * {@link #KIND_STRING} (UTF-8), {@link #KIND_OBJECT} (the pile codec of ValueTypeId); 3 is invalid.
 * Flags: {@link #FLAG_PINNED}, {@link #FLAG_EXPIRES} (an expire-at time follows; without it the
 * entry never expires by write time). The optional fields are present only when used, so that an
 * entry of a table without expiry pays 8 bytes of header, not 24. The version of this layout is the
 * cache's format version ({@link CacheState#FORMAT_VERSION}).
 */
final class EntryLayout {
  static final ValueLayout.OfInt U32 =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong I64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  static final int HEAD_OFFSET = 0;
  static final int HEAD_BYTES = Long.BYTES;

  /** Where the optional fields begin: the type id, then the expire-at time. */
  static final int OPTIONAL_OFFSET = HEAD_OFFSET + HEAD_BYTES;

  static final int TYPE_ID_BYTES = Integer.BYTES;
  static final int EXPIRE_AT_BYTES = Long.BYTES;

  static final int FLAG_BITS = 3;
  static final int KIND_SHIFT = FLAG_BITS;
  static final int KIND_BITS = 2;
  static final int KEY_LENGTH_SHIFT = KIND_SHIFT + KIND_BITS;
  static final int KEY_LENGTH_BITS = 16;
  static final int WRITTEN_AT_SHIFT = KEY_LENGTH_SHIFT + KEY_LENGTH_BITS;
  static final long MAX_WRITTEN_AT = -1L >>> WRITTEN_AT_SHIFT;

  static final int MAX_KEY_BYTES = (1 << KEY_LENGTH_BITS) - 1;

  static final byte KIND_BYTES = 0;
  static final byte KIND_STRING = 1;
  static final byte KIND_OBJECT = 2;

  static final int FLAG_PINNED = 1;
  static final int FLAG_EXPIRES = 2;

  private EntryLayout() {}

  // Each accessor reads the entry that begins at {@code at} in {@code memory}: a slice of exactly
  // the entry (at 0), or the segment a read in place hands over. Offsets returned are relative to
  // the entry's start.

  private static long head(MemorySegment memory, long at) {
    return memory.get(I64, at + HEAD_OFFSET);
  }

  static int flags(MemorySegment memory, long at) {
    return (int) head(memory, at) & ((1 << FLAG_BITS) - 1);
  }

  static int kind(MemorySegment memory, long at) {
    return kindOf(head(memory, at));
  }

  static int keyLength(MemorySegment memory, long at) {
    return (int) (head(memory, at) >>> KEY_LENGTH_SHIFT) & MAX_KEY_BYTES;
  }

  static long writtenAt(MemorySegment memory, long at) {
    return head(memory, at) >>> WRITTEN_AT_SHIFT;
  }

  /** The type id of a kind-object entry; 0 for the other kinds. */
  static int typeId(MemorySegment memory, long at) {
    return kind(memory, at) == KIND_OBJECT ? memory.get(U32, at + OPTIONAL_OFFSET) : 0;
  }

  /** The entry's expire-at time in epoch milliseconds, or 0 for never. */
  static long expireAt(MemorySegment memory, long at) {
    long head = head(memory, at);
    if ((head & FLAG_EXPIRES) == 0) {
      return 0;
    }
    return memory.get(I64, at + OPTIONAL_OFFSET + typeIdBytes(kindOf(head)));
  }

  private static int kindOf(long head) {
    return (int) (head >>> KIND_SHIFT) & ((1 << KIND_BITS) - 1);
  }

  private static int typeIdBytes(int kind) {
    return kind == KIND_OBJECT ? TYPE_ID_BYTES : 0;
  }

  /**
   * Bytes of the header of an entry of {@code kind} that expires at {@code expireAt} (0: never).
   */
  static int headerBytes(int kind, long expireAt) {
    return HEAD_BYTES + typeIdBytes(kind) + (expireAt != 0 ? EXPIRE_AT_BYTES : 0);
  }

  /** Where the entry's key begins, from the entry's start. */
  static long keyOffset(MemorySegment memory, long at) {
    long head = head(memory, at);
    return (long) HEAD_BYTES
        + typeIdBytes(kindOf(head))
        + ((head & FLAG_EXPIRES) != 0 ? EXPIRE_AT_BYTES : 0);
  }

  /** Where the entry's value begins, from the entry's start. */
  static long valueOffset(MemorySegment memory, long at) {
    return keyOffset(memory, at) + keyLength(memory, at);
  }

  /**
   * Whether the entry of {@code length} bytes is long enough for its header and its key, and of a
   * valid kind.
   */
  static boolean wellFormed(MemorySegment memory, long at, long length) {
    return length >= HEAD_BYTES
        && kind(memory, at) <= KIND_OBJECT
        && length >= valueOffset(memory, at);
  }

  /** {@link #wellFormed(MemorySegment, long, long)} of a slice of exactly the entry. */
  static boolean wellFormed(MemorySegment entry) {
    return wellFormed(entry, 0, entry.byteSize());
  }

  /**
   * Writes an entry's header at {@code at}: flag expires is set here when {@code expireAt} is not
   * 0, and the type id written only for kind object.
   *
   * @return the header's length: where the key goes, relative to {@code at}
   */
  static int writeHeader(
      MemorySegment target,
      long at,
      int flags,
      int kind,
      int keyLength,
      int typeId,
      long writtenAt,
      long expireAt) {
    int allFlags = (flags & FLAG_PINNED) | (expireAt != 0 ? FLAG_EXPIRES : 0);
    long clamped = Math.clamp(writtenAt, 0, MAX_WRITTEN_AT);
    target.set(
        I64,
        at + HEAD_OFFSET,
        clamped << WRITTEN_AT_SHIFT
            | (long) keyLength << KEY_LENGTH_SHIFT
            | (long) kind << KIND_SHIFT
            | allFlags);
    int offset = OPTIONAL_OFFSET;
    if (kind == KIND_OBJECT) {
      target.set(U32, at + offset, typeId);
      offset += TYPE_ID_BYTES;
    }
    if (expireAt != 0) {
      target.set(I64, at + offset, expireAt);
      offset += EXPIRE_AT_BYTES;
    }
    return offset;
  }
}
