package dev.cairn.pile;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout of a segment and of the blocks inside it. All fields are little-endian (native order
 * on every platform Cairn supports).
 *
 * <h2>Segment</h2>
 *
 * <pre>
 * Segment --> Reserved[64], Block*          (blocks tile the rest of the segment exactly)
 * </pre>
 *
 * The first {@link #SEGMENT_HEADER_BYTES} bytes are reserved for the persistent segment header, so
 * that a block offset is the same in memory and on disk, and no block sits at offset 0.
 *
 * <h2>Block</h2>
 *
 * Every block starts on an 8-byte granule and is a whole number of granules, at least {@link
 * #MIN_BLOCK_BYTES}. Its first 8 bytes are the header:
 *
 * <pre>
 *  63    60 59                 37 36   32 31  30 29  28  27  26                      0
 * +--------+---------------------+-------+---+------+---+---+-------------------------+
 * | mark   |      tag (23)       | slack | T | kind | P | F |  size in granules (27)  |
 * +--------+---------------------+-------+---+------+---+---+-------------------------+
 *   F     free block
 *   P     the block before this one is free (its footer holds its size)
 *   kind  0 bytes, 1 string, 2 object (payload starts with the codec's type id, a varint),
 *         3 link (payload is the 8-byte pointer of the block now holding the value)
 *   T     a link target: holds a moved value, reached only through its link, never listed
 *   slack capacity minus payload length, 0..30; 31 means the length is the int in the block's
 *         last 4 bytes (there are then at least 31 spare bytes to hold it)
 *   tag   the tag of the pointer that owns the block; checked on every access
 *   mark  a participant's mark on its own payload, 0-15 ({@code PayloadWriter#mark}), which the
 *         pile keeps with the payload and never reads; 0 in every value put through Pile
 * </pre>
 *
 * <pre>
 * LiveBlock --> Header:u64, Payload[length], Spare[slack] (with Length:u32 at its end if slack=31)
 * FreeBlock --> Header:u64 (F set), Next:u64, Prev:u64, ..., Footer:u64 (size in granules)
 * </pre>
 *
 * Next and Prev are allocator addresses ({@link Pointers}, no tag; -1 is none) of the neighbours in
 * the free list of the block's size class. The footer lets a block being freed find and merge with
 * a free block before it (boundary tags), so neighbours coalesce at once, with no crawl.
 *
 * <p>The 8-byte granule, rather than a 64-byte cache line, is deliberate: a 32-byte value takes a
 * 40-byte block, where line alignment would take 64. A block under 64 bytes straddles at most two
 * lines, which the adjacent-line prefetcher fetches together, and a 64-byte-aligned layout would
 * cost 60% more memory for the pile's most common values.
 */
final class BlockLayout {
  static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
  static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

  static final int SEGMENT_HEADER_BYTES = 64;
  static final int HEADER_BYTES = 8;
  static final int MIN_BLOCK_GRANULES = 4;
  static final int MIN_BLOCK_BYTES = MIN_BLOCK_GRANULES * Pointers.GRANULE_BYTES;

  static final int NEXT_OFFSET = HEADER_BYTES;
  static final int PREV_OFFSET = NEXT_OFFSET + 8;
  static final int FOOTER_LENGTH = 8;

  static final int SIZE_BITS = Pointers.OFFSET_BITS;
  static final long SIZE_MASK = (1L << SIZE_BITS) - 1;
  static final long FREE = 1L << SIZE_BITS;
  static final long PREV_FREE = FREE << 1;
  static final int KIND_SHIFT = SIZE_BITS + 2;
  static final long KIND_MASK = 3L << KIND_SHIFT;
  static final long TARGET = 1L << (KIND_SHIFT + 2);
  static final int SLACK_SHIFT = KIND_SHIFT + 3;
  static final int SLACK_BITS = 5;
  static final int SLACK_IN_TRAILER = (1 << SLACK_BITS) - 1;
  static final int TAG_SHIFT = SLACK_SHIFT + SLACK_BITS;
  static final int MARK_SHIFT = TAG_SHIFT + Pointers.TAG_BITS;
  static final int MARK_BITS = Long.SIZE - MARK_SHIFT;
  static final int MARK_MAX = (1 << MARK_BITS) - 1;
  static final long MARK_MASK = (long) MARK_MAX << MARK_SHIFT;

  static final int KIND_BYTES = 0;
  static final int KIND_STRING = 1;
  static final int KIND_OBJECT = 2;
  static final int KIND_LINK = 3;

  /**
   * Where the mark sits in a kind this class takes or gives as an int ({@link #liveHeader}, {@link
   * #writeLive}, {@link #kindAndMark}): {@code kind | mark << MARK_IN_KIND}. {@link #kind} leaves
   * it out.
   */
  static final int MARK_IN_KIND = 2;

  static final int KIND_BITS_MASK = 3;

  private BlockLayout() {}

  /** {@code kind}: a KIND constant, with the block's mark above it ({@link #MARK_IN_KIND}). */
  static long liveHeader(int tag, int kind, long sizeGranules, int slack, boolean target) {
    return ((long) tag << TAG_SHIFT)
        | ((long) ((kind >>> MARK_IN_KIND) & MARK_MAX) << MARK_SHIFT)
        | ((long) Math.min(slack, SLACK_IN_TRAILER) << SLACK_SHIFT)
        | (target ? TARGET : 0)
        | ((long) (kind & KIND_BITS_MASK) << KIND_SHIFT)
        | sizeGranules;
  }

  /**
   * A free block's header. Its tag is 0, which no pointer has: when the memory is reused and a new
   * value's payload is being copied over this word, a stale reader may see a mix of old and new
   * bytes, and the old bytes then carry no tag that could match its pointer.
   */
  static long freeHeader(long sizeGranules) {
    return FREE | sizeGranules;
  }

  static long sizeGranules(long header) {
    return header & SIZE_MASK;
  }

  static long sizeBytes(long header) {
    return (header & SIZE_MASK) << Pointers.GRANULE_SHIFT;
  }

  static boolean isFree(long header) {
    return (header & FREE) != 0;
  }

  static boolean isPrevFree(long header) {
    return (header & PREV_FREE) != 0;
  }

  static boolean isTarget(long header) {
    return (header & TARGET) != 0;
  }

  static int kind(long header) {
    return (int) ((header & KIND_MASK) >>> KIND_SHIFT);
  }

  /** The block's kind, with its mark above it ({@link #MARK_IN_KIND}): what a rewrite keeps. */
  static int kindAndMark(long header) {
    return kind(header) | mark(header) << MARK_IN_KIND;
  }

  /** The participant's mark on the block, 0-15. */
  static int mark(long header) {
    return (int) (header >>> MARK_SHIFT);
  }

  static int tag(long header) {
    return (int) (header >>> TAG_SHIFT) & Pointers.TAG_MASK;
  }

  static int slack(long header) {
    return (int) (header >>> SLACK_SHIFT) & SLACK_IN_TRAILER;
  }

  static long capacityBytes(long header) {
    return sizeBytes(header) - HEADER_BYTES;
  }

  /** Granules of the smallest block that holds {@code payloadBytes}. */
  static long granulesFor(long payloadBytes) {
    long bytes = HEADER_BYTES + payloadBytes;
    long granules = (bytes + Pointers.GRANULE_BYTES - 1) >>> Pointers.GRANULE_SHIFT;
    return Math.max(granules, MIN_BLOCK_GRANULES);
  }

  /**
   * The payload length of the live block with {@code header} at {@code offset}. May be garbage (but
   * is then at most the capacity) if read without the segment's write section closed.
   */
  static int length(long header, MemorySegment memory, long offset) {
    long capacity = capacityBytes(header);
    int slack = slack(header);
    if (slack != SLACK_IN_TRAILER) {
      return (int) (capacity - slack);
    }
    int length = memory.get(INT, offset + sizeBytes(header) - 4);
    return length < 0 || length > capacity - 4 ? 0 : length;
  }

  /** Writes a live block's header, and the trailer length when the slack needs it. */
  static void writeLive(
      MemorySegment memory,
      long offset,
      int tag,
      int kind,
      long sizeGranules,
      int length,
      boolean target,
      long prevFreeBit) {
    long capacity = (sizeGranules << Pointers.GRANULE_SHIFT) - HEADER_BYTES;
    int slack = (int) Math.min(capacity - length, SLACK_IN_TRAILER);
    if (slack == SLACK_IN_TRAILER) {
      memory.set(INT, offset + (sizeGranules << Pointers.GRANULE_SHIFT) - 4, length);
    }
    memory.set(WORD, offset, liveHeader(tag, kind, sizeGranules, slack, target) | prevFreeBit);
  }
}
