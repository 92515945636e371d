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
 *
 * <h2>Bare entries</h2>
 *
 * <pre>
 * BareEntry --> KeyLength:u8 (keys of no fixed length), Kind:u8 (values of any class),
 *               ValueTypeId:u32 (kind object), Key:u8[KeyLength], Value:u8*
 *                                           (each field only where said; block's mark: below)
 * Mark      --> Bare:1 (bit 0) | Key8:1 (bit 1) | KindPlusOne:2 (bits 2-3)
 * </pre>
 *
 * An entry with no write time (its table keeps none: {@link TableOptions#writeTimes}), no flag and
 * no expiry is stored without its header, with only what its table does not fix: a byte of key
 * length for a key of no fixed length ({@code long} keys are 8 bytes and {@code UUID} keys 16; any
 * other key, at most 255 bytes), and the value's kind (a byte) and type id for a table whose value
 * class is neither {@code byte[]} nor {@code String}. A 32-byte value under a {@code long} key then
 * takes a 48-byte pile block, not 56. The pile's mark on the block (not the slot: a reader may pair
 * a slot's new pointer with its old meta) tells the two forms apart, and the table's descriptor
 * gives the rest ({@link #bareForm}). The mark also saves the two bytes where it can (cache format
 * 6): Key8 says the key is 8 bytes and its length byte is left out, KindPlusOne gives the value's
 * kind and its byte is left out; a format 5 entry has neither (mark 1), and keeps both bytes. So an
 * 8-byte key and a 32-byte {@code byte[]} value in a table of {@code byte[]} keys and values of any
 * class (a JCache cache's) take a 48-byte block too. A reader passes each accessor the entry's
 * <em>form</em> ({@link #form}): {@link #HEADED}, or the head word a bare entry of its table would
 * have had (with {@link #PREFIXED} and {@link #KIND_IN_ENTRY} where the entry gives those bytes,
 * and a write time of 0: unknown, older than any maximum age), or {@link #NOT_BARE} for a marked
 * entry read with no table's form, or with a mark its table's entries cannot have (damage).
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

  /** The form of an entry with a header. */
  static final long HEADED = -1;

  /**
   * The form of a marked entry to a reader with no table's bare form (a lookup's scratch before its
   * first key): never well formed.
   */
  static final long NOT_BARE = -2;

  /** In a bare form: the entry's first byte is its key's length (bit 2, a flag no head uses). */
  static final long PREFIXED = 1L << 2;

  /** In a bare form: a byte of value kind follows the key length, if any (bit 0). */
  static final long KIND_IN_ENTRY = 1L;

  /** The longest key of a bare entry that gives its key's length in a byte. */
  static final int MAX_PREFIXED_KEY_BYTES = 255;

  /** Mark bit 0 (the pile's mark on the entry's block): the entry is bare. */
  static final int MARK_BARE = 1;

  /** Mark bit 1: the key is 8 bytes, and the entry has no key length byte its form would give. */
  static final int MARK_KEY8 = 2;

  /**
   * Mark bits 2-3: the value's kind plus one, and no kind byte in the entry where its form would
   * give one; 0: as the form says.
   */
  static final int MARK_KIND_SHIFT = 2;

  private EntryLayout() {}

  /**
   * The form of a bare entry of a table of key codec {@code keyType} and value class {@code
   * valueType} ({@link TableDescriptor}): the head word its header would have had, with {@link
   * #PREFIXED} for a key of no fixed length and {@link #KIND_IN_ENTRY} for values of any class.
   */
  static long bareForm(String keyType, String valueType) {
    int keyLength =
        switch (keyType) {
          case "long" -> Long.BYTES;
          case "uuid" -> 2 * Long.BYTES;
          default -> 0; // its length in the entry's first byte
        };
    long kind;
    if (valueType.equals(byte[].class.getName())) {
      kind = (long) KIND_BYTES << KIND_SHIFT;
    } else if (valueType.equals(String.class.getName())) {
      kind = (long) KIND_STRING << KIND_SHIFT;
    } else {
      kind = KIND_IN_ENTRY;
    }
    return (long) keyLength << KEY_LENGTH_SHIFT | kind | (keyLength == 0 ? PREFIXED : 0);
  }

  /** Whether a bare entry of form {@code form} gives its value's kind in a byte. */
  static boolean kindInEntry(long form) {
    return form >= 0 && (form & KIND_IN_ENTRY) != 0;
  }

  /**
   * Bytes of a bare entry of form {@code form} and value kind {@code kind} before its key: its key
   * length, its kind and its type id, each if the form needs it.
   */
  static int bareHeaderBytes(long form, int kind) {
    return barePrefixBytes(form) + (kindInEntry(form) ? 1 : 0) + typeIdBytes(kind);
  }

  /** Whether an entry of form {@code form} gives its key's length in its first byte. */
  static boolean prefixed(long form) {
    return form >= 0 && (form & PREFIXED) != 0;
  }

  /** Bytes before the key of a bare entry of form {@code form}. */
  static int barePrefixBytes(long form) {
    return prefixed(form) ? 1 : 0;
  }

  /**
   * The form of an entry whose block has mark {@code mark} (the pile's, {@link #markOf}), in a
   * table whose bare form is {@code bare}: {@link #HEADED} for mark 0; {@link #NOT_BARE} for a mark
   * that is not one this table's entries can have (damage).
   */
  static long form(int mark, long bare) {
    if (mark == MARK_BARE) { // the commonest: the table's form as it is
      return bare;
    }
    if ((mark & MARK_BARE) == 0) {
      return mark == 0 ? HEADED : NOT_BARE;
    }
    long form = bare;
    if ((mark & MARK_KEY8) != 0) {
      if (!prefixed(form)) {
        return NOT_BARE;
      }
      form = (form & ~PREFIXED) | (long) Long.BYTES << KEY_LENGTH_SHIFT;
    }
    int kindCode = mark >>> MARK_KIND_SHIFT;
    if (kindCode != 0) {
      if (!kindInEntry(form)) {
        return NOT_BARE;
      }
      form = (form & ~KIND_IN_ENTRY) | (long) (kindCode - 1) << KIND_SHIFT;
    }
    return form;
  }

  /**
   * The mark of an entry written in form {@code form} (the table's bare form, or {@link #HEADED})
   * with a key of {@code keyLength} bytes and a value of kind {@code kind}: 0 for a headed entry;
   * else {@link #MARK_BARE}, with {@link #MARK_KEY8} for an 8-byte key where the form gives a key
   * length byte, and the kind (plus one) where the form gives a kind byte. The entry is then
   * written in {@link #form form(mark, form)}, without those bytes.
   */
  static int markOf(long form, int keyLength, int kind) {
    if (form < 0) {
      return 0;
    }
    int mark = MARK_BARE;
    if (prefixed(form) && keyLength == Long.BYTES) {
      mark |= MARK_KEY8;
    }
    if (kindInEntry(form)) {
      mark |= (kind + 1) << MARK_KIND_SHIFT;
    }
    return mark;
  }

  // Each accessor reads the entry that begins at {@code at} in {@code memory}: a slice of exactly
  // the entry (at 0), or the segment a read in place hands over. Offsets returned are relative to
  // the entry's start.

  private static long head(MemorySegment memory, long at, long form) {
    return form == HEADED ? memory.get(I64, at + HEAD_OFFSET) : form;
  }

  static int flags(MemorySegment memory, long at, long form) {
    return form == HEADED ? (int) head(memory, at, form) & ((1 << FLAG_BITS) - 1) : 0;
  }

  static int kind(MemorySegment memory, long at, long form) {
    if (kindInEntry(form)) {
      return Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, at + barePrefixBytes(form)));
    }
    return kindOf(head(memory, at, form));
  }

  static int keyLength(MemorySegment memory, long at, long form) {
    if (prefixed(form)) {
      return Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, at));
    }
    return (int) (head(memory, at, form) >>> KEY_LENGTH_SHIFT) & MAX_KEY_BYTES;
  }

  /** The entry's write time in epoch milliseconds; 0 for a bare entry (which has none). */
  static long writtenAt(MemorySegment memory, long at, long form) {
    return head(memory, at, form) >>> WRITTEN_AT_SHIFT;
  }

  /** The type id of a kind-object entry; 0 for the other kinds. */
  static int typeId(MemorySegment memory, long at, long form) {
    if (kind(memory, at, form) != KIND_OBJECT) {
      return 0;
    }
    return memory.get(
        U32,
        at
            + (form == HEADED
                ? OPTIONAL_OFFSET
                : barePrefixBytes(form) + (kindInEntry(form) ? 1 : 0)));
  }

  /** The entry's expire-at time in epoch milliseconds, or 0 for never. */
  static long expireAt(MemorySegment memory, long at, long form) {
    long head = head(memory, at, form);
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
  static long keyOffset(MemorySegment memory, long at, long form) {
    if (form != HEADED) {
      return bareHeaderBytes(form, kind(memory, at, form));
    }
    long head = head(memory, at, form);
    return (long) HEAD_BYTES
        + typeIdBytes(kindOf(head))
        + ((head & FLAG_EXPIRES) != 0 ? EXPIRE_AT_BYTES : 0);
  }

  /** Where the entry's value begins, from the entry's start. */
  static long valueOffset(MemorySegment memory, long at, long form) {
    return keyOffset(memory, at, form) + keyLength(memory, at, form);
  }

  /**
   * Whether the entry of {@code length} bytes is long enough for its header and its key, and of a
   * valid kind.
   */
  static boolean wellFormed(MemorySegment memory, long at, long length, long form) {
    if (form == NOT_BARE) {
      return false;
    }
    long least = form == HEADED ? HEAD_BYTES : barePrefixBytes(form) + (kindInEntry(form) ? 1 : 0);
    return length >= least
        && kind(memory, at, form) <= KIND_OBJECT
        && length >= valueOffset(memory, at, form);
  }

  /** {@link #wellFormed(MemorySegment, long, long, long)} of a slice of exactly the entry. */
  static boolean wellFormed(MemorySegment entry, long form) {
    return wellFormed(entry, 0, entry.byteSize(), form);
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
