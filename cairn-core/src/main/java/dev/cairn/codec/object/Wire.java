package dev.cairn.codec.object;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Wire constants shared by {@link Out} (writing) and {@link In} (reading): little-endian layouts on
 * every platform, zig-zag, and the string layout.
 *
 * <pre>
 * String     --> AsciiForm | HeaderForm
 * AsciiForm  --> Char^n (n &gt;= 2, every char &lt; 0x80; the last one has bit 7 set)
 * HeaderForm --> First:u8 (bit 7 set), [More:varint], Bytes
 *                Header = (First &amp; 0x3F) | More &lt;&lt; 6, More present when bit 6 of First is
 * Header     --> 0 null | ((byteLength &lt;&lt; 1) | utf16) + 1
 * </pre>
 *
 * The first byte tells the forms apart: bit 7 clear is an ASCII string of two or more chars, with
 * no length at all (its end is the byte with bit 7 set); bit 7 set is a header. Bytes are UTF-8, or
 * UTF-16LE code units ({@code utf16 = 1}) for the rare string with an unpaired surrogate, which
 * UTF-8 cannot carry exactly.
 */
final class Wire {
  private Wire() {}

  static final ValueLayout.OfShort SHORT_LE =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfChar CHAR_LE =
      ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfInt INT_LE =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong LONG_LE =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfFloat FLOAT_LE =
      ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfDouble DOUBLE_LE =
      ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

  /** The one byte of a null string. */
  static final int NULL_STRING = 0x80;

  static int zigZag(int v) {
    return (v << 1) ^ (v >> 31);
  }

  static long zigZag(long v) {
    return (v << 1) ^ (v >> 63);
  }
}
