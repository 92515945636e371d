package dev.cairn.cache;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.Utf8;
import dev.cairn.memory.ThreadStatePadding;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Writes one entry ({@link EntryLayout}) straight into its pile block, and reads one back in place:
 * one per thread, reused for every write and read.
 *
 * <p>Not thread-safe. A read may run more than once (the pile's optimistic read retries it on a
 * concurrent change); each run sets every field it reports, so the last run's are what stay.
 */
final class EntryCodec extends ThreadStatePadding implements PayloadWriter {
  /** What a read found, besides a value. */
  static final Object NO_MATCH = new Object();

  static final Object MATCH = new Object();

  // the entry being written
  private KeyCodec.KeyBuffer key;
  private int keyLength;
  private int flags;
  private long writtenAt;
  private long expireAt;
  private byte kind;
  private int typeId;
  private Object value;
  private byte[] valueBytes; // the value's bytes, or a String value's in stringScratch
  private final Utf8Scratch stringScratch = new Utf8Scratch();
  private Codec<Object> codec;
  private int valueSize;
  private long bare; // EntryLayout.HEADED, or the bare form it is written in
  private int mark; // the block's mark (EntryLayout.markOf)

  // what the last read found
  long readWrittenAt;
  long readExpireAt;
  int readFlags;
  int readSize;

  /**
   * Prepares the entry {@code key} -> {@code value}, bare in its table's form {@code bare} ({@link
   * EntryLayout}, "Bare entries"), less the bytes its mark can say, or {@link EntryLayout#HEADED}:
   * the caller passes a bare form only when the entry's flags and expiry are 0 and its key and
   * value are of that form. Must be the last encoding before the write on this thread: a codec may
   * keep its work for {@code encode} in a per-thread buffer.
   *
   * @throws IllegalArgumentException if the key is longer than {@link EntryLayout#MAX_KEY_BYTES}
   */
  @SuppressWarnings("unchecked")
  EntryCodec prepare(
      KeyCodec.KeyBuffer key,
      int keyLength,
      Object value,
      CodecRegistry codecs,
      int flags,
      long writtenAt,
      long expireAt,
      long bare) {
    if (keyLength > EntryLayout.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key too long: " + keyLength + " bytes, at most " + EntryLayout.MAX_KEY_BYTES);
    }
    this.key = key;
    this.keyLength = keyLength;
    this.flags = flags;
    this.writtenAt = writtenAt;
    this.expireAt = expireAt;
    this.value = null;
    this.valueBytes = null;
    this.codec = null;
    switch (value) {
      case byte[] bytes -> {
        kind = EntryLayout.KIND_BYTES;
        typeId = 0;
        valueBytes = bytes;
        valueSize = bytes.length;
      }
      case String s -> {
        kind = EntryLayout.KIND_STRING;
        typeId = 0;
        valueSize = stringScratch.encode(s);
        valueBytes = valueSize >= 0 ? stringScratch.bytes() : Utf8.encode(s); // a long one
        valueSize = valueSize >= 0 ? valueSize : valueBytes.length;
      }
      default -> {
        kind = EntryLayout.KIND_OBJECT;
        typeId = codecs.typeIdOf(value.getClass());
        codec = codecs.codecOf(typeId);
        this.value = value;
        valueSize = codec.encodedSize(value);
      }
    }
    mark = EntryLayout.markOf(bare, keyLength, kind);
    this.bare = EntryLayout.form(mark, bare);
    return this;
  }

  @Override
  public int sizeBytes() {
    return (bare == EntryLayout.HEADED
            ? EntryLayout.headerBytes(kind, expireAt)
            : EntryLayout.bareHeaderBytes(bare, kind))
        + keyLength
        + valueSize;
  }

  @Override
  public int mark() {
    return mark;
  }

  @Override
  public void writeTo(MemorySegment target, long offset) {
    long at;
    if (bare == EntryLayout.HEADED) {
      at =
          offset
              + EntryLayout.writeHeader(
                  target, offset, flags, kind, keyLength, typeId, writtenAt, expireAt);
    } else {
      at = offset;
      if (EntryLayout.prefixed(bare)) {
        target.set(ValueLayout.JAVA_BYTE, at++, (byte) keyLength);
      }
      if (EntryLayout.kindInEntry(bare)) {
        target.set(ValueLayout.JAVA_BYTE, at++, kind);
      }
      if (kind == EntryLayout.KIND_OBJECT) {
        target.set(EntryLayout.U32, at, typeId);
        at += EntryLayout.TYPE_ID_BYTES;
      }
    }
    MemorySegment.copy(key.segment(), 0, target, at, keyLength);
    at += keyLength;
    if (valueBytes != null) {
      ShortCopies.fromArray(valueBytes, target, at, valueSize);
    } else {
      codec.encode(value, target, at);
    }
    value = null; // no reference kept to the caller's value
    valueBytes = null;
  }

  /**
   * Whether the key of the entry of {@code length} bytes at {@code at} in {@code memory}, of form
   * {@code form} ({@link EntryLayout}), is the {@code keyLength} bytes of {@code key}.
   */
  static boolean keyMatches(
      MemorySegment memory, long at, long length, long form, MemorySegment key, int keyLength) {
    if (!EntryLayout.wellFormed(memory, at, length, form)
        || EntryLayout.keyLength(memory, at, form) != keyLength) {
      return false;
    }
    long keyAt = at + EntryLayout.keyOffset(memory, at, form);
    return MemorySegment.mismatch(memory, keyAt, keyAt + keyLength, key, 0, keyLength) == -1;
  }

  /** Reads what every read reports: times, flags and size, of the entry {@code keyMatches} took. */
  void noteHeader(MemorySegment memory, long at, int length, long form) {
    readWrittenAt = EntryLayout.writtenAt(memory, at, form);
    readExpireAt = EntryLayout.expireAt(memory, at, form);
    readFlags = EntryLayout.flags(memory, at, form);
    readSize = length;
  }

  /** The value of the well-formed entry of {@code length} bytes at {@code at} in {@code memory}. */
  static Object decodeValue(
      MemorySegment memory, long at, long length, long form, CodecRegistry codecs) {
    long valueOffset = EntryLayout.valueOffset(memory, at, form);
    long valueAt = at + valueOffset;
    int valueLength = (int) (length - valueOffset);
    int kind = EntryLayout.kind(memory, at, form);
    return switch (kind) {
      case EntryLayout.KIND_BYTES -> {
        byte[] bytes = new byte[valueLength];
        ShortCopies.toArray(memory, valueAt, bytes, valueLength);
        yield bytes;
      }
      case EntryLayout.KIND_STRING -> {
        byte[] bytes = new byte[valueLength];
        ShortCopies.toArray(memory, valueAt, bytes, valueLength);
        yield Utf8.decode(bytes, 0, valueLength);
      }
      case EntryLayout.KIND_OBJECT ->
          // a slice, so that a codec reading a damaged value cannot stray into its neighbours
          codecs
              .codecOf(EntryLayout.typeId(memory, at, form))
              .decode(memory.asSlice(valueAt, valueLength), 0, valueLength);
      default ->
          throw new CorruptValueException(
              "cache entry of unknown value kind " + kind + ": the entry is damaged");
    };
  }

  /**
   * Copies the value's stored bytes of the entry at {@code at} (of {@code length} bytes) into
   * {@code into}, as many as fit, and returns how many it has: a byte[] value's bytes, a String's
   * UTF-8. Bounds-checked on both sides, so torn bytes read by an optimistic reader fail cleanly
   * and the read is retried.
   *
   * @throws CorruptValueException if the value is an object's encoding: the caller checked that its
   *     table holds byte[] or String values, so the entry is damaged
   */
  static int copyValue(MemorySegment memory, long at, long length, long form, byte[] into) {
    long valueOffset = EntryLayout.valueOffset(memory, at, form);
    int valueLength = (int) (length - valueOffset);
    int kind = EntryLayout.kind(memory, at, form);
    if (kind != EntryLayout.KIND_BYTES && kind != EntryLayout.KIND_STRING) {
      throw new CorruptValueException(
          "cache entry of value kind " + kind + " in a table of raw values: the entry is damaged");
    }
    ShortCopies.toArray(memory, at + valueOffset, into, Math.min(valueLength, into.length));
    return valueLength;
  }

  /** The value of {@code entry}, a slice of exactly a well-formed entry of form {@code form}. */
  static Object decodeValue(MemorySegment entry, long form, CodecRegistry codecs) {
    return decodeValue(entry, 0, entry.byteSize(), form, codecs);
  }

  /** The key of {@code entry}, of form {@code form}. */
  static <K> K decodeKey(MemorySegment entry, long form, KeyCodec<K> keys) {
    if (!EntryLayout.wellFormed(entry, form)) {
      throw new CorruptValueException(
          "cache entry of "
              + entry.byteSize()
              + " bytes is shorter than its header and key: the entry is damaged");
    }
    return keys.decode(
        entry, EntryLayout.keyOffset(entry, 0, form), EntryLayout.keyLength(entry, 0, form));
  }
}
