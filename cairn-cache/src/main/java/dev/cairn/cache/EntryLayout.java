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

  private static long head(MemorySegment entry) {
    return entry.get(I64, HEAD_OFFSET);
  }

  static int flags(MemorySegment entry) {
    return (int) head(entry) & ((1 << FLAG_BITS) - 1);
  }

  static int kind(MemorySegment entry) {
    return kindOf(head(entry));
  }

  static int keyLength(MemorySegment entry) {
    return (int) (head(entry) >>> KEY_LENGTH_SHIFT) & MAX_KEY_BYTES;
  }

  static long writtenAt(MemorySegment entry) {
    return head(entry) >>> WRITTEN_AT_SHIFT;
  }

  /** The type id of a kind-object entry; 0 for the other kinds. */
  static int typeId(MemorySegment entry) {
    return kind(entry) == KIND_OBJECT ? entry.get(U32, OPTIONAL_OFFSET) : 0;
  }

  /** The entry's expire-at time in epoch milliseconds, or 0 for never. */
  static long expireAt(MemorySegment entry) {
    long head = head(entry);
    if ((head & FLAG_EXPIRES) == 0) {
      return 0;
    }
    return entry.get(I64, OPTIONAL_OFFSET + typeIdBytes(kindOf(head)));
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

  /** Where {@code entry}'s key begins. */
  static long keyOffset(MemorySegment entry) {
    long head = head(entry);
    return (long) HEAD_BYTES
        + typeIdBytes(kindOf(head))
        + ((head & FLAG_EXPIRES) != 0 ? EXPIRE_AT_BYTES : 0);
  }

  static long valueOffset(MemorySegment entry) {
    return keyOffset(entry) + keyLength(entry);
  }

  /** Whether {@code entry} is long enough for its header and its key, and of a valid kind. */
  static boolean wellFormed(MemorySegment entry) {
    return entry.byteSize() >= HEAD_BYTES
        && kind(entry) <= KIND_OBJECT
        && entry.byteSize() >= valueOffset(entry);
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
