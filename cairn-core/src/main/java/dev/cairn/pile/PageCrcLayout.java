package dev.cairn.pile;

/**
 * A page checksum file, {@code seg-NNNNN.crc}: the CRC32C of every 4 KiB page of its segment file,
 * as the checkpoint that last wrote the page wrote it.
 *
 * <pre>
 * PageCrcFile --> Magic:u64 ("CAIRN-PC"), Version:u32, Segment:u32, PageCount:u32,
 *                 HeaderCrc32c:u32                                        of bytes [0, 20)
 *                 Crc32c:u32 ^ PageCount              page p's at {@link #pageCrcOffset}(p)
 * </pre>
 *
 * <pre>
 *  0               8       12      16      20      24
 * +---------------+-------+-------+-------+-------+------------------------+
 * |     Magic     |Version|Segment| Pages |HdrCrc | Crc32c ^ PageCount ... |
 * +---------------+-------+-------+-------+-------+------------------------+
 * </pre>
 *
 * Little-endian; the header's checksum is checked before its other fields.
 */
final class PageCrcLayout {
  static final long MAGIC = PileFiles.magic("CAIRN-PC");
  static final int VERSION_CURRENT = PileFiles.FORMAT_VERSION;

  static final int MAGIC_OFFSET = 0;
  static final int MAGIC_LENGTH = 8;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  static final int VERSION_LENGTH = 4;
  static final int SEGMENT_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  static final int SEGMENT_LENGTH = 4;
  static final int PAGE_COUNT_OFFSET = SEGMENT_OFFSET + SEGMENT_LENGTH;
  static final int PAGE_COUNT_LENGTH = 4;
  static final int HEADER_CRC_OFFSET = PAGE_COUNT_OFFSET + PAGE_COUNT_LENGTH;
  static final int HEADER_CRC_LENGTH = 4;
  static final int HEADER_BYTES = HEADER_CRC_OFFSET + HEADER_CRC_LENGTH;
  static final int PAGE_CRC_LENGTH = 4;

  /** Where page {@code page}'s checksum is. */
  static long pageCrcOffset(long page) {
    return HEADER_BYTES + PAGE_CRC_LENGTH * page;
  }

  private PageCrcLayout() {}
}
