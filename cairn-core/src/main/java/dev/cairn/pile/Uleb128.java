package dev.cairn.pile;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Unsigned LEB128 longs in a {@link MemorySegment}: seven bits a byte, low group first, the high
 * bit set on every byte but the last. Used for the changed state fields of a redo record, most of
 * which are small counters.
 */
final class Uleb128 {
  /** A 64-bit value takes at most ten bytes. */
  static final int MAX_BYTES = 10;

  private Uleb128() {}

  /** Bytes {@link #write} takes for {@code value} (read as unsigned). */
  static int length(long value) {
    int significant = 64 - Long.numberOfLeadingZeros(value | 1);
    return (significant + 6) / 7;
  }

  /** Writes {@code value} at {@code at} and returns the offset after it. */
  static long write(MemorySegment out, long at, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.set(ValueLayout.JAVA_BYTE, at++, (byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.set(ValueLayout.JAVA_BYTE, at++, (byte) v);
    return at;
  }

  /**
   * Reads the value at {@code at}; {@code end[0]} receives the offset after it.
   *
   * @throws PileCorruptionException if it runs longer than ten bytes
   * @throws IndexOutOfBoundsException if it runs past the segment
   */
  static long read(MemorySegment in, long at, long[] end) {
    long value = 0;
    for (int i = 0; i < MAX_BYTES; i++) {
      byte b = in.get(ValueLayout.JAVA_BYTE, at + i);
      value |= (long) (b & 0x7F) << (7 * i);
      if (b >= 0) {
        end[0] = at + i + 1;
        return value;
      }
    }
    throw new PileCorruptionException("a LEB128 value runs longer than " + MAX_BYTES + " bytes");
  }
}
