package dev.cairn.codec.object;

import static dev.cairn.codec.object.Wire.BYTE;

import dev.cairn.codec.CorruptValueException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A read cursor over one stored value: the segment, the position and the value's end. Fixed-width
 * reads rely on the segment's own bounds check (a read past the segment raises {@link
 * IndexOutOfBoundsException}, which the top-level codec reports as corrupt) and may run a few bytes
 * past {@link #end} without harm: nothing is allocated on their account, and the top-level codec
 * fails any value that does not end exactly at {@code end}. Every length and count is checked
 * against {@link #remaining()} before anything is allocated for it, and scans stop at {@code end}.
 *
 * <p>One cursor per thread is reused ({@link #acquire}), with a scratch array for strings; a nested
 * decode on the same thread (a user codec decoding through the registry) gets a fresh one.
 */
final class In {
  private static final int KEEP_SCRATCH_BYTES = 64 * 1024;
  private static final ThreadLocal<In> CACHED = ThreadLocal.withInitial(In::new);

  MemorySegment seg;
  long pos;
  long end;
  private byte[] scratch = new byte[128];
  private boolean busy;

  /** A cursor over {@code [offset, offset + length)} of {@code source}. */
  static In acquire(MemorySegment source, long offset, int length) {
    In in = CACHED.get();
    if (in.busy) {
      in = new In();
    }
    in.busy = true;
    in.seg = source;
    in.pos = offset;
    in.end = offset + length;
    return in;
  }

  void release() {
    seg = null;
    if (scratch.length > KEEP_SCRATCH_BYTES) {
      scratch = new byte[128];
    }
    busy = false;
  }

  long remaining() {
    return end - pos;
  }

  /** Checks that {@code count} items of at least {@code minBytes} each can still follow. */
  int checkCount(long count, int minBytes, String what) {
    if (count < 0 || count > Integer.MAX_VALUE - 8 || count * minBytes > remaining()) {
      throw new CorruptValueException(
          what + " count out of range: count=" + count + " remainingBytes=" + remaining());
    }
    return (int) count;
  }

  byte readByte() {
    return seg.get(BYTE, pos++);
  }

  int readUnsignedByte() {
    return seg.get(BYTE, pos++) & 0xFF;
  }

  boolean readBoolean() {
    byte b = seg.get(BYTE, pos++);
    if ((b & ~1) != 0) {
      throw new CorruptValueException("not a boolean byte: " + b);
    }
    return b != 0;
  }

  short readShort() {
    short v = seg.get(Wire.SHORT_LE, pos);
    pos += 2;
    return v;
  }

  char readChar() {
    char v = seg.get(Wire.CHAR_LE, pos);
    pos += 2;
    return v;
  }

  float readFloat() {
    float v = seg.get(Wire.FLOAT_LE, pos);
    pos += 4;
    return v;
  }

  double readDouble() {
    double v = seg.get(Wire.DOUBLE_LE, pos);
    pos += 8;
    return v;
  }

  long readLong() {
    long v = seg.get(Wire.LONG_LE, pos);
    pos += 8;
    return v;
  }

  int readVarInt() {
    int b = seg.get(BYTE, pos++);
    if (b >= 0) {
      return b;
    }
    int v = b & 0x7F;
    for (int shift = 7; shift < 35; shift += 7) {
      b = seg.get(BYTE, pos++);
      if (shift == 28 && (b & 0xF0) != 0) {
        throw new CorruptValueException("varint longer than 32 bits");
      }
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new CorruptValueException("varint longer than 32 bits");
  }

  long readVarLong() {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = seg.get(BYTE, pos++);
      if (shift == 63 && (b & 0xFE) != 0) {
        throw new CorruptValueException("varint longer than 64 bits");
      }
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new CorruptValueException("varint longer than 64 bits");
  }

  int readZigZagInt() {
    int z = readVarInt();
    return (z >>> 1) ^ -(z & 1);
  }

  long readZigZagLong() {
    long z = readVarLong();
    return (z >>> 1) ^ -(z & 1);
  }

  /** A varint that must be a non-negative {@code int}. */
  int readVarIntNonNegative(String what) {
    int v = readVarInt();
    if (v < 0) {
      throw new CorruptValueException(what + " out of range: " + Integer.toUnsignedString(v));
    }
    return v;
  }

  /** Reads a string in the layout {@link Wire#putString} writes. */
  String readString() {
    long start = pos;
    int first = seg.get(BYTE, pos++);
    if (first >= 0) {
      return readAscii(start);
    }
    long header = readHeader(first);
    if (header == 0) {
      return null;
    }
    header -= 1;
    long bytes = header >>> 1;
    if (bytes > remaining()) {
      throw new CorruptValueException(
          "string length out of range: length=" + bytes + " remainingBytes=" + remaining());
    }
    int n = (int) bytes;
    if ((header & 1) == 0) {
      byte[] buf = scratch(n);
      MemorySegment.copy(seg, BYTE, pos, buf, 0, n);
      pos += n;
      return new String(buf, 0, n, StandardCharsets.UTF_8);
    }
    if ((n & 1) != 0) {
      throw new CorruptValueException("odd UTF-16 string length: " + n);
    }
    char[] chars = new char[n >> 1];
    MemorySegment.copy(seg, Wire.CHAR_LE, pos, chars, 0, chars.length);
    pos += n;
    return new String(chars);
  }

  /** The rest of a string header whose first byte (bit 7 set) was {@code first}. */
  private long readHeader(int first) {
    long header = first & 0x3F;
    if ((first & 0x40) != 0) {
      long more = readVarLong();
      if (more >>> 57 != 0) {
        throw new CorruptValueException("string header out of range");
      }
      header |= more << 6;
    }
    return header;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  /**
   * Reads an ASCII-form string starting at {@code start}: copies eight bytes at a time into the
   * scratch array until one has bit 7 set, the string's last byte.
   */
  private String readAscii(long start) {
    long at = start;
    int n = 0;
    byte[] buf = scratch;
    while (at + 8 <= end) {
      long word = seg.get(Wire.LONG_LE, at);
      if (n + 8 > buf.length) {
        buf = scratch(checkAscii(n + 8L));
      }
      LONGS.set(buf, n, word);
      long high = word & HIGH_BITS;
      if (high != 0) {
        return ascii(buf, n + (Long.numberOfTrailingZeros(high) >>> 3) + 1, start);
      }
      n += 8;
      at += 8;
    }
    while (at < end) {
      byte b = seg.get(BYTE, at++);
      if (n + 1 > buf.length) {
        buf = scratch(checkAscii(n + 1L));
      }
      buf[n++] = b;
      if (b < 0) {
        return ascii(buf, n, start);
      }
    }
    throw new CorruptValueException("unterminated ASCII string at byte " + start);
  }

  private String ascii(byte[] buf, int n, long start) {
    buf[n - 1] &= 0x7F;
    pos = start + n;
    return new String(buf, 0, n, StandardCharsets.ISO_8859_1);
  }

  /** The length of an ASCII-form string starting at {@code start}, for skipping. */
  private int asciiLength(long start) {
    long at = start + 1;
    while (at + 8 <= end) {
      long word = seg.get(Wire.LONG_LE, at) & HIGH_BITS;
      if (word != 0) {
        return checkAscii(at + (Long.numberOfTrailingZeros(word) >>> 3) + 1 - start);
      }
      at += 8;
    }
    while (at < end) {
      if (seg.get(BYTE, at++) < 0) {
        return checkAscii(at - start);
      }
    }
    throw new CorruptValueException("unterminated ASCII string at byte " + start);
  }

  private static int checkAscii(long n) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new CorruptValueException("string too long: " + n);
    }
    return (int) n;
  }

  /** Skips a string without decoding it. */
  void skipString() {
    long start = pos;
    int first = seg.get(BYTE, pos++);
    if (first >= 0) {
      pos = start + asciiLength(start);
      return;
    }
    long header = readHeader(first);
    if (header != 0) {
      skipBytes((header - 1) >>> 1);
    }
  }

  void skipBytes(long n) {
    if (n < 0 || n > remaining()) {
      throw new CorruptValueException(
          "length out of range: length=" + n + " remainingBytes=" + remaining());
    }
    pos += n;
  }

  /** The scratch array, grown to at least {@code n} bytes (keeping its contents). */
  private byte[] scratch(int n) {
    if (scratch.length < n) {
      scratch =
          java.util.Arrays.copyOf(
              scratch, Math.max(n, Math.min(KEEP_SCRATCH_BYTES, scratch.length * 2)));
    }
    return scratch;
  }
}
