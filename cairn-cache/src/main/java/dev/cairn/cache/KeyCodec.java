package dev.cairn.cache;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.Utf8;
import dev.cairn.memory.ThreadStatePadding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * How a table's keys become bytes: two keys are equal exactly when their bytes are. {@code long}
 * (and {@link Long}) keys are 8 bytes, {@link String} UTF-8, {@code byte[]} raw, {@link UUID} 16
 * bytes; any other type goes through the pile's codec for it, which must be deterministic (equal
 * keys, equal bytes).
 */
abstract sealed class KeyCodec<K> {
  static final ValueLayout.OfLong BE_LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** Writes {@code key}'s bytes into {@code buffer} from 0; returns their length. */
  abstract int encode(K key, KeyBuffer buffer);

  /** The key of {@code length} bytes at {@code offset}. */
  abstract K decode(MemorySegment source, long offset, int length);

  /** A name for the key type, stored with the table so that a reopen checks it. */
  abstract String typeName();

  @SuppressWarnings("unchecked")
  static <K> KeyCodec<K> of(Class<K> type, CodecRegistry codecs) {
    if (type == Long.class || type == long.class) {
      return (KeyCodec<K>) LongKeys.INSTANCE;
    }
    if (type == String.class) {
      return (KeyCodec<K>) StringKeys.INSTANCE;
    }
    if (type == byte[].class) {
      return (KeyCodec<K>) BytesKeys.INSTANCE;
    }
    if (type == UUID.class) {
      return (KeyCodec<K>) UuidKeys.INSTANCE;
    }
    return new ObjectKeys<>(type, codecs);
  }

  /** A growable native buffer of one thread's key bytes. */
  static final class KeyBuffer extends ThreadStatePadding {
    private MemorySegment bytes = java.lang.foreign.Arena.ofAuto().allocate(256, 8);
    final Utf8Scratch utf8 = new Utf8Scratch(); // a String key's bytes before their copy

    MemorySegment segment() {
      return bytes;
    }

    MemorySegment ensure(long size) {
      if (bytes.byteSize() < size) {
        bytes = java.lang.foreign.Arena.ofAuto().allocate(Math.max(size, bytes.byteSize() * 2), 8);
      }
      return bytes;
    }
  }

  static final class LongKeys extends KeyCodec<Long> {
    static final LongKeys INSTANCE = new LongKeys();

    static int encodeLong(long key, KeyBuffer buffer) {
      buffer.segment().set(BE_LONG, 0, key);
      return Long.BYTES;
    }

    @Override
    int encode(Long key, KeyBuffer buffer) {
      return encodeLong(key, buffer);
    }

    @Override
    Long decode(MemorySegment source, long offset, int length) {
      checkLength(length, Long.BYTES);
      return source.get(BE_LONG, offset);
    }

    @Override
    String typeName() {
      return "long";
    }
  }

  static final class StringKeys extends KeyCodec<String> {
    static final StringKeys INSTANCE = new StringKeys();

    /** The key's UTF-8, lossless (an unpaired surrogate is not a '?'), with no array made. */
    @Override
    int encode(String key, KeyBuffer buffer) {
      int length = buffer.utf8.encode(key);
      byte[] utf8 = length >= 0 ? buffer.utf8.bytes() : Utf8.encode(key); // a very long key
      length = length >= 0 ? length : utf8.length;
      ShortCopies.fromArray(utf8, buffer.ensure(length), 0, length);
      return length;
    }

    @Override
    String decode(MemorySegment source, long offset, int length) {
      byte[] utf8 = new byte[length];
      ShortCopies.toArray(source, offset, utf8, length);
      return Utf8.decode(utf8, 0, length);
    }

    @Override
    String typeName() {
      return "string";
    }
  }

  static final class BytesKeys extends KeyCodec<byte[]> {
    static final BytesKeys INSTANCE = new BytesKeys();

    @Override
    int encode(byte[] key, KeyBuffer buffer) {
      int length = key.length;
      ShortCopies.fromArray(key, buffer.ensure(length), 0, length);
      return length;
    }

    @Override
    byte[] decode(MemorySegment source, long offset, int length) {
      byte[] key = new byte[length];
      ShortCopies.toArray(source, offset, key, length);
      return key;
    }

    @Override
    String typeName() {
      return "bytes";
    }
  }

  static final class UuidKeys extends KeyCodec<UUID> {
    static final UuidKeys INSTANCE = new UuidKeys();

    @Override
    int encode(UUID key, KeyBuffer buffer) {
      buffer.segment().set(BE_LONG, 0, key.getMostSignificantBits());
      buffer.segment().set(BE_LONG, Long.BYTES, key.getLeastSignificantBits());
      return 2 * Long.BYTES;
    }

    @Override
    UUID decode(MemorySegment source, long offset, int length) {
      checkLength(length, 2 * Long.BYTES);
      return new UUID(source.get(BE_LONG, offset), source.get(BE_LONG, offset + Long.BYTES));
    }

    @Override
    String typeName() {
      return "uuid";
    }
  }

  static final class ObjectKeys<K> extends KeyCodec<K> {
    private final Class<K> type;
    private final Codec<K> codec;

    ObjectKeys(Class<K> type, CodecRegistry codecs) {
      this.type = type;
      this.codec = codecs.codecOf(codecs.typeIdOf(type));
    }

    @Override
    int encode(K key, KeyBuffer buffer) {
      if (key.getClass() != type) {
        throw new IllegalArgumentException(
            "key of another class than the table's: "
                + key.getClass().getName()
                + ", table keys are "
                + type.getName());
      }
      int size = codec.encodedSize(key);
      codec.encode(key, buffer.ensure(size), 0);
      return size;
    }

    @Override
    K decode(MemorySegment source, long offset, int length) {
      return codec.decode(source, offset, length);
    }

    @Override
    String typeName() {
      return type.getName();
    }
  }

  static void checkLength(int length, int expected) {
    if (length != expected) {
      throw new dev.cairn.codec.CorruptValueException(
          "cache key of "
              + length
              + " bytes where "
              + expected
              + " were expected: the entry is damaged");
    }
  }
}
