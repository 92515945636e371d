package dev.cairn.pile;

/**
 * The header of a segment: the first {@link #HEADER_BYTES} bytes of every segment, in memory and in
 * its file {@code seg-NNNNN.dat}; blocks start after it.
 *
 * <pre>
 * SegmentHeader --> Magic:u64 ("CAIRN-SG"), Version:u32, Index:u32, SegmentBytes:u64,
 *                   Zero[36], Crc32c:u32                                  of bytes [0, 60)
 * </pre>
 *
 * <pre>
 *  0               8       12      16              24                                  60  64
 * +---------------+-------+-------+---------------+-----------------------------------+---+
 * |     Magic     |Version| Index | SegmentBytes  |              Zero[36]             |Crc|
 * +---------------+-------+-------+---------------+-----------------------------------+---+
 * </pre>
 *
 * Little-endian. The checksum is checked before any field it covers, so a damaged version is
 * reported as damage, not as a file of a newer Cairn. {@code Version} is {@link #VERSION_CURRENT};
 * any other is a {@link dev.cairn.durability.FormatVersionException}.
 */
final class SegmentHeaderLayout {
  static final long MAGIC = PileFiles.magic("CAIRN-SG");
  static final int VERSION_CURRENT = PileFiles.FORMAT_VERSION;

  static final int MAGIC_OFFSET = 0;
  static final int MAGIC_LENGTH = 8;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  static final int VERSION_LENGTH = 4;
  static final int INDEX_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  static final int INDEX_LENGTH = 4;
  static final int SEGMENT_BYTES_OFFSET = INDEX_OFFSET + INDEX_LENGTH;
  static final int SEGMENT_BYTES_LENGTH = 8;
  static final int ZERO_OFFSET = SEGMENT_BYTES_OFFSET + SEGMENT_BYTES_LENGTH;
  static final int ZERO_LENGTH = 36;
  static final int CRC_OFFSET = ZERO_OFFSET + ZERO_LENGTH;
  static final int CRC_LENGTH = 4;
  static final int HEADER_BYTES = CRC_OFFSET + CRC_LENGTH;

  private SegmentHeaderLayout() {}
}
