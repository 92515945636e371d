package dev.cairn.jcache;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CorruptValueException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A JCache value as Cairn stores it when it cannot be stored as itself: one that expires, or one of
 * a type Cairn's cache has no native form for (anything but {@code byte[]}, {@code String}, {@code
 * Long} and {@code Integer}). It holds the expiry and the value's {@link Marshaller} bytes, and is
 * stored through {@link #CODEC}, registered in the cache's pile under {@link #TYPE_ID}.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Stored bytes: ExpireAt:i64le Body      ExpireAt: epoch milliseconds, Marshaller.ETERNAL for none
 *               Body: Tag:u8 Payload     as Marshaller writes a value (its implementation note)
 * }</pre>
 *
 * Two stored values are equal when their expiry and their bytes are: the cache's conditional writes
 * compare them so ({@code Objects.deepEquals}).
 *
 * <p>Thread-safety: immutable once made; the body is never changed after construction.
 *
 * @param expireAt when the value expires, epoch milliseconds, or {@link Marshaller#ETERNAL}
 * @param body the value's bytes: its tag, then its payload
 */
record StoredValue(long expireAt, byte[] body) {

  /**
   * The pile type id of stored values. Stored with every such value, so it never changes; the first
   * id a user codec may take, since a JCache manager's pile holds no other user types.
   */
  static final int TYPE_ID = dev.cairn.codec.CodecRegistry.FIRST_USER_TYPE_ID;

  private static final ValueLayout.OfLong EXPIRE_AT =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  /** Writes and reads stored values: the expiry, then the body. */
  static final Codec<StoredValue> CODEC =
      new Codec<>() {
        @Override
        public Class<StoredValue> type() {
          return StoredValue.class;
        }

        @Override
        public int encodedSize(StoredValue value) {
          return Long.BYTES + value.body.length;
        }

        @Override
        public void encode(StoredValue value, MemorySegment target, long offset) {
          target.set(EXPIRE_AT, offset, value.expireAt);
          MemorySegment.copy(
              value.body, 0, target, ValueLayout.JAVA_BYTE, offset + Long.BYTES, value.body.length);
        }

        @Override
        public StoredValue decode(MemorySegment source, long offset, int length) {
          if (length < Long.BYTES + 1) {
            throw new CorruptValueException(
                "a stored JCache value of "
                    + length
                    + " bytes is shorter than its expiry and tag (9 bytes): the entry is damaged");
          }
          byte[] body = new byte[length - Long.BYTES];
          MemorySegment.copy(
              source, ValueLayout.JAVA_BYTE, offset + Long.BYTES, body, 0, body.length);
          return new StoredValue(source.get(EXPIRE_AT, offset), body);
        }
      };

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredValue s && s.expireAt == expireAt && Arrays.equals(s.body, body);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(expireAt) * 31 + Arrays.hashCode(body);
  }

  @Override
  public String toString() {
    return "StoredValue[expireAt=" + expireAt + ", " + body.length + " bytes]";
  }
}
