package dev.cairn.pile;

/**
 * The payload of a pile's superblock ({@code pile.sb}, a {@link
 * dev.cairn.durability.file.SuperblockLayout superblock} file): the pile's fixed geometry, its tag
 * key and tag clock bounds, and which metadata file the current checkpoint wrote ({@link
 * PileFiles.Geometry} reads and writes it).
 *
 * <pre>
 * Geometry --> Version:u32, Stripes:u32, SegmentBytes:u64, TagKey:u64, MetaSlot:u32,
 *              MetaLength:u32, MetaCrc32c:u32, Flags:u32, CheckpointMillis:u64, TagBound:u64,
 *              TagOrigin:u64
 * </pre>
 *
 * <pre>
 *  0       4       8               16              24      28      32      36      40
 * +-------+-------+---------------+---------------+-------+-------+-------+-------+
 * |Version|Stripes| SegmentBytes  |    TagKey     | Slot  |MetaLen|MetaCrc| Flags |
 * +-------+-------+---------------+---------------+-------+-------+-------+-------+
 *  40              48              56              64
 * +---------------+---------------+---------------+
 * |CheckpointMilli|   TagBound    |   TagOrigin   |
 * +---------------+---------------+---------------+
 * </pre>
 *
 * Little-endian. The superblock's own checksum covers it. {@code Flags} bit 0 ({@link
 * #FLAG_UNLOGGED_CHECKPOINT}): a checkpoint without a log is writing segment pages in place. Bit 1
 * ({@link #FLAG_CUT_CHECKPOINT}): a checkpoint after the current one was cut short while it wrote
 * pages in place, as an open found it (PileRecovery CC2).
 */
final class PilePayloadLayout {
  static final int VERSION_CURRENT = PileFiles.FORMAT_VERSION;

  static final int VERSION_OFFSET = 0;
  static final int VERSION_LENGTH = 4;
  static final int STRIPES_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  static final int STRIPES_LENGTH = 4;
  static final int SEGMENT_BYTES_OFFSET = STRIPES_OFFSET + STRIPES_LENGTH;
  static final int SEGMENT_BYTES_LENGTH = 8;
  static final int TAG_KEY_OFFSET = SEGMENT_BYTES_OFFSET + SEGMENT_BYTES_LENGTH;
  static final int TAG_KEY_LENGTH = 8;
  static final int META_SLOT_OFFSET = TAG_KEY_OFFSET + TAG_KEY_LENGTH;
  static final int META_SLOT_LENGTH = 4;
  static final int META_LENGTH_OFFSET = META_SLOT_OFFSET + META_SLOT_LENGTH;
  static final int META_LENGTH_LENGTH = 4;
  static final int META_CRC_OFFSET = META_LENGTH_OFFSET + META_LENGTH_LENGTH;
  static final int META_CRC_LENGTH = 4;
  static final int FLAGS_OFFSET = META_CRC_OFFSET + META_CRC_LENGTH;
  static final int FLAGS_LENGTH = 4;
  static final int CHECKPOINT_MILLIS_OFFSET = FLAGS_OFFSET + FLAGS_LENGTH;
  static final int CHECKPOINT_MILLIS_LENGTH = 8;
  static final int TAG_BOUND_OFFSET = CHECKPOINT_MILLIS_OFFSET + CHECKPOINT_MILLIS_LENGTH;
  static final int TAG_BOUND_LENGTH = 8;
  static final int TAG_ORIGIN_OFFSET = TAG_BOUND_OFFSET + TAG_BOUND_LENGTH;
  static final int TAG_ORIGIN_LENGTH = 8;
  static final int PAYLOAD_BYTES = TAG_ORIGIN_OFFSET + TAG_ORIGIN_LENGTH;

  /** Flags bit 0: a checkpoint without a log is writing segment pages in place. */
  static final int FLAG_UNLOGGED_CHECKPOINT = 1;

  /**
   * Flags bit 1: a checkpoint after the current one was cut short while it wrote pages in place, so
   * pages may differ from their checksums until the log's replay from the current checkpoint
   * rewrites them. Written by the open that found the cut, before its first checkpoint overwrites
   * the metadata file that told it; gone once a checkpoint completes (PileRecovery CC2).
   */
  static final int FLAG_CUT_CHECKPOINT = 2;

  private PilePayloadLayout() {}
}
