package dev.cairn.pile;

/**
 * Encoding of a pile pointer, and of the internal block addresses the allocator links with.
 *
 * <pre>
 *  63                    41 40            27 26                        0
 * +------------------------+----------------+---------------------------+
 * |        tag (23)        |  segment (14)  |  block offset (27) in 8 B |
 * +------------------------+----------------+---------------------------+
 * </pre>
 *
 * <p>The offset counts 8-byte granules, so a segment may be up to 1 GiB and a pile up to 16,384
 * segments. The tag is copied into the block header when the block is allocated and checked on
 * every access; it is never 0, so no pointer is 0. An address is the same layout without the tag.
 */
final class Pointers {
  static final int GRANULE_SHIFT = 3;
  static final int GRANULE_BYTES = 1 << GRANULE_SHIFT;

  static final int OFFSET_BITS = 27;
  static final int SEGMENT_BITS = 14;
  static final int TAG_BITS = 23;

  static final int SEGMENT_SHIFT = OFFSET_BITS;
  static final int TAG_SHIFT = OFFSET_BITS + SEGMENT_BITS;

  static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
  static final long SEGMENT_MASK = (1L << SEGMENT_BITS) - 1;
  static final int TAG_MASK = (1 << TAG_BITS) - 1;

  static final int MAX_SEGMENTS = 1 << SEGMENT_BITS;

  /** The "no block" value of an internal address. */
  static final long NIL = -1L;

  private Pointers() {}

  static long pointer(int tag, int segment, long offsetBytes) {
    return ((long) tag << TAG_SHIFT) | address(segment, offsetBytes);
  }

  static long address(int segment, long offsetBytes) {
    return ((long) segment << SEGMENT_SHIFT) | (offsetBytes >>> GRANULE_SHIFT);
  }

  static int tag(long pointer) {
    return (int) (pointer >>> TAG_SHIFT) & TAG_MASK;
  }

  static int segment(long pointerOrAddress) {
    return (int) ((pointerOrAddress >>> SEGMENT_SHIFT) & SEGMENT_MASK);
  }

  static long offsetBytes(long pointerOrAddress) {
    return (pointerOrAddress & OFFSET_MASK) << GRANULE_SHIFT;
  }

  /** The address part of a pointer. */
  static long addressOf(long pointer) {
    return pointer & ((1L << TAG_SHIFT) - 1);
  }

  static String describe(long pointer) {
    return "0x"
        + Long.toHexString(pointer)
        + " (segment="
        + segment(pointer)
        + " offset="
        + offsetBytes(pointer)
        + " tag="
        + tag(pointer)
        + ")";
  }
}
