package dev.cairn.pile;

/**
 * A checkpoint's metadata file, {@code pile-meta.0} or {@code .1}: the segment table, every
 * stripe's state and free-list heads, the named roots and the participants' states. Written whole
 * into the slot the superblock does not name, forced, then named by the superblock ({@link
 * MetaImage} writes and checks it).
 *
 * <pre>
 * MetaFile --> Header, (Segment:u32, Owner:u32)^TableCount,           Owner = stripe + 1
 *              (StripeState, Head:u64 ^ SizeClasses.COUNT)^Stripes,
 *              Roots[RootsBytes],                                       see RootDirectory
 *              States[StatesBytes],                               see ParticipantRegistry
 *              Crc32c:u32                                           of every byte before it
 * Header   --> Magic:u64 ("CAIRN-PM"), Version:u32, Stripes:u32, SegmentBytes:u64,
 *              CheckpointLsn:u64, TableCount:u32, RootsBytes:u32, StatesBytes:u32, Zero:u32
 * StripeState --> BumpSegment:i64 (-1 none), BumpStart:u64, BumpEnd:u64, TagClock:u64,
 *              ObjectCount:u64, LinkCount:u64, AllocatedBytes:u64, UtilizedBytes:u64,
 *              ListedFreeBytes:u64, ListedPieceBytes:u64                          80 bytes
 * </pre>
 *
 * <pre>
 *  0               8       12      16              24              32      36      40      44  48
 * +---------------+-------+-------+---------------+---------------+-------+-------+-------+---+
 * |     Magic     |Version|Stripes| SegmentBytes  | CheckpointLsn |Table# |RootsB |StatesB| 0 |
 * +---------------+-------+-------+---------------+---------------+-------+-------+-------+---+
 * </pre>
 *
 * Little-endian. The superblock names the file's length and CRC32C, and the file ends with its own;
 * both are checked before any field is believed.
 */
final class MetaLayout {
  static final long MAGIC = PileFiles.magic("CAIRN-PM");
  static final int VERSION_CURRENT = PileFiles.FORMAT_VERSION;

  static final int MAGIC_OFFSET = 0;
  static final int MAGIC_LENGTH = 8;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  static final int VERSION_LENGTH = 4;
  static final int STRIPES_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  static final int STRIPES_LENGTH = 4;
  static final int SEGMENT_BYTES_OFFSET = STRIPES_OFFSET + STRIPES_LENGTH;
  static final int SEGMENT_BYTES_LENGTH = 8;
  static final int CHECKPOINT_LSN_OFFSET = SEGMENT_BYTES_OFFSET + SEGMENT_BYTES_LENGTH;
  static final int CHECKPOINT_LSN_LENGTH = 8;
  static final int TABLE_COUNT_OFFSET = CHECKPOINT_LSN_OFFSET + CHECKPOINT_LSN_LENGTH;
  static final int TABLE_COUNT_LENGTH = 4;
  static final int ROOTS_BYTES_OFFSET = TABLE_COUNT_OFFSET + TABLE_COUNT_LENGTH;
  static final int ROOTS_BYTES_LENGTH = 4;
  static final int STATES_BYTES_OFFSET = ROOTS_BYTES_OFFSET + ROOTS_BYTES_LENGTH;
  static final int STATES_BYTES_LENGTH = 4;
  static final int ZERO_OFFSET = STATES_BYTES_OFFSET + STATES_BYTES_LENGTH;
  static final int ZERO_LENGTH = 4;
  static final int HEADER_BYTES = ZERO_OFFSET + ZERO_LENGTH;

  /** One segment table entry: Segment:u32, Owner:u32 (stripe + 1). */
  static final int TABLE_SEGMENT_OFFSET = 0;

  static final int TABLE_OWNER_OFFSET = TABLE_SEGMENT_OFFSET + 4;
  static final int TABLE_ENTRY_BYTES = TABLE_OWNER_OFFSET + 4;

  /** One stripe: its state, then its free-list heads. */
  static final int STRIPE_BYTES = Stripe.STATE_BYTES + 8 * SizeClasses.COUNT;

  static final int CRC_LENGTH = 4;

  /** Bytes of a file with {@code tableCount} segments, {@code stripes} and the two sections. */
  static long fileBytes(int tableCount, int stripes, long rootsBytes, long statesBytes) {
    return HEADER_BYTES
        + (long) TABLE_ENTRY_BYTES * tableCount
        + (long) stripes * STRIPE_BYTES
        + rootsBytes
        + statesBytes
        + CRC_LENGTH;
  }

  /** Where the stripes start. */
  static long stripesOffset(int tableCount) {
    return HEADER_BYTES + (long) TABLE_ENTRY_BYTES * tableCount;
  }

  private MetaLayout() {}
}
