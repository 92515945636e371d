package dev.cairn.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * The bytes of one YCSB record (its fields, name to value), as the binding stores it in one cache
 * value.
 *
 * <pre>
 * record := count, then count times: nameLength, name (UTF-8), valueLength, value
 * </pre>
 *
 * <p>{@code count} and the lengths are unsigned varints (7 bits a byte, low bits first, the high
 * bit set on every byte but the last), so YCSB's usual 10 fields of 100 bytes take 2 bytes of
 * framing each. Field names are distinct within a record; fields keep the order they were written
 * in, and a merge keeps a replaced field in its place and appends new ones.
 *
 * <p>Thread-safety: stateless; every method may be called from any thread.
 */
final class RecordCodec {
  private RecordCodec() {}

  /**
   * The bytes of each field's value, read once: a {@link ByteIterator} can be read only once, and
   * an update may have to encode its fields more than once.
   */
  static Map<String, byte[]> toBytes(Map<String, ByteIterator> values) {
    Map<String, byte[]> fields = new LinkedHashMap<>(Math.max(4, values.size() * 2));
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      fields.put(e.getKey(), e.getValue().toArray());
    }
    return fields;
  }

  /** The record of {@code fields}, in their map's order. */
  static byte[] encode(Map<String, byte[]> fields) {
    byte[][] names = new byte[fields.size()][];
    int size = varintSize(fields.size());
    int i = 0;
    for (Map.Entry<String, byte[]> e : fields.entrySet()) {
      names[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
      int valueLength = e.getValue().length;
      size =
          Math.addExact(
              size,
              varintSize(names[i].length)
                  + names[i].length
                  + varintSize(valueLength)
                  + valueLength);
      i++;
    }
    byte[] record = new byte[size];
    int at = putVarint(record, 0, fields.size());
    i = 0;
    for (byte[] value : fields.values()) {
      at = putBytes(record, at, names[i++]);
      at = putBytes(record, at, value);
    }
    return record;
  }

  /**
   * Puts the fields of {@code record} named in {@code wanted} (all of them if it is null) into
   * {@code into}; their values are views of {@code record}, not copies.
   *
   * @throws IllegalArgumentException if {@code record} is not a record's bytes
   */
  static void decode(byte[] record, Set<String> wanted, Map<String, ByteIterator> into) {
    Reader in = new Reader(record);
    int count = in.varint();
    for (int i = 0; i < count; i++) {
      String name = in.name();
      int length = in.varint();
      int offset = in.skip(length);
      if (wanted == null || wanted.contains(name)) {
        into.put(name, new ByteArrayByteIterator(record, offset, length));
      }
    }
    in.end();
  }

  /**
   * The record of {@code record}'s fields with {@code updates} put over them: a field of both takes
   * its value from {@code updates}.
   *
   * @throws IllegalArgumentException if {@code record} is not a record's bytes
   */
  static byte[] merge(byte[] record, Map<String, byte[]> updates) {
    Reader in = new Reader(record);
    int count = in.varint();
    Map<String, byte[]> fields = new LinkedHashMap<>(Math.max(4, (count + updates.size()) * 2));
    for (int i = 0; i < count; i++) {
      String name = in.name();
      int length = in.varint();
      int offset = in.skip(length);
      fields.put(name, Arrays.copyOfRange(record, offset, offset + length));
    }
    in.end();
    fields.putAll(updates);
    return encode(fields);
  }

  private static int varintSize(int value) {
    int size = 1;
    for (int v = value >>> 7; v != 0; v >>>= 7) {
      size++;
    }
    return size;
  }

  private static int putVarint(byte[] to, int at, int value) {
    int v = value;
    while ((v & ~0x7F) != 0) {
      to[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    to[at++] = (byte) v;
    return at;
  }

  private static int putBytes(byte[] to, int at, byte[] bytes) {
    int next = putVarint(to, at, bytes.length);
    System.arraycopy(bytes, 0, to, next, bytes.length);
    return next + bytes.length;
  }

  /** Reads a record's bytes from the start, checking every length against what is left. */
  private static final class Reader {
    private final byte[] bytes;
    private int at;

    Reader(byte[] bytes) {
      this.bytes = bytes;
    }

    int varint() {
      int value = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        if (at >= bytes.length) {
          throw malformed("it ends inside a length");
        }
        byte b = bytes[at++];
        if (shift == 28 && (b & 0x7F) > 0x07) {
          throw malformed("a length is over " + Integer.MAX_VALUE);
        }
        value |= (b & 0x7F) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw malformed("a length takes more than 5 bytes");
    }

    /** Skips {@code length} bytes; returns where they start. */
    int skip(int length) {
      if (length > bytes.length - at) {
        throw malformed(
            "a length of " + length + " at byte " + at + " passes its end (" + bytes.length + ")");
      }
      int start = at;
      at += length;
      return start;
    }

    String name() {
      int length = varint();
      int start = skip(length);
      return new String(bytes, start, length, StandardCharsets.UTF_8);
    }

    void end() {
      if (at != bytes.length) {
        throw malformed((bytes.length - at) + " bytes follow its last field");
      }
    }

    private IllegalArgumentException malformed(String why) {
      return new IllegalArgumentException(
          "not a YCSB record of the Cairn binding (" + bytes.length + " bytes): " + why);
    }
  }
}
