package dev.cairn.pile;

/**
 * The payloads of a persistent pile's log records (record types in {@link Journal}): what a stripe
 * operation wrote, a transaction's allocations and commit, a named root, a participant's record.
 * All little-endian; the log's own frame ({@link dev.cairn.durability.log.LogLayout}) checks each
 * record's length and CRC32C before any of this is read.
 *
 * <pre>
 * OpRecord  --> StripeWord:u32, HeadCount:u32, TableCount:u32, RangeCount:u32,
 *               ChangedState,
 *               (SizeClass:u32, Head:u64)^HeadCount,
 *               (Segment:u32, Owner:u32)^TableCount           Owner = stripe + 1, 0: retired
 *               (Segment:u32, Length:u32, Offset:u64, Bytes[Length])^RangeCount
 * StripeWord --> the stripe's id | COMPACT_STATE (bit 31, always set)
 * ChangedState --> FieldMask:u16, Value:uleb128^popcount(FieldMask)
 * TxAlloc   --> TxId:u64, Kind:u32 (0 put, 1 update target), Zero:u32, Pointer:u64, OpRecord
 * TxCommit  --> TxId:u64, Count:u32, Attachments:u32,
 *               (Length:u32, Zero:u32, OpRecord[Length])^Count,
 *               (ParticipantHeader, Payload)^Attachments
 * TxEnd     --> TxId:u64
 * RootRecord --> Pointer:u64 (0: removed), NameLength:u16, Name:utf8[NameLength]
 * ParticipantHeader --> Participant:u8, Type:u8, Zero:u16, Length:u32       then Payload[Length]
 * </pre>
 *
 * <pre>
 * OpRecord prefix        TxAlloc prefix                  TxCommit prefix
 *  0     4     8    12   16     0       8    12   16      24     0       8     12    16
 * +-----+-----+-----+-----+     +-------+----+----+-------+      +-------+-----+-----+
 * |Strip|Heads|Table|Range|     | TxId  |Kind| 0  |Pointer|      | TxId  |Count|Atts |
 * +-----+-----+-----+-----+     +-------+----+----+-------+      +-------+-----+-----+
 * </pre>
 */
final class RedoLayout {

  // ------------------------------------------------------------------ OpRecord

  static final int STRIPE_WORD_OFFSET = 0;
  static final int HEAD_COUNT_OFFSET = STRIPE_WORD_OFFSET + 4;
  static final int TABLE_COUNT_OFFSET = HEAD_COUNT_OFFSET + 4;
  static final int RANGE_COUNT_OFFSET = TABLE_COUNT_OFFSET + 4;

  /** Bytes of an op record before its state. */
  static final int OP_PREFIX_BYTES = RANGE_COUNT_OFFSET + 4;

  /** Flag in StripeWord: the state is a field mask and the changed values. */
  static final int COMPACT_STATE = 1 << 31;

  static final int FIELD_MASK_BYTES = 2;

  static final int HEAD_SIZE_CLASS_OFFSET = 0;
  static final int HEAD_VALUE_OFFSET = HEAD_SIZE_CLASS_OFFSET + 4;
  static final int HEAD_ENTRY_BYTES = HEAD_VALUE_OFFSET + 8;

  static final int TABLE_SEGMENT_OFFSET = 0;
  static final int TABLE_OWNER_OFFSET = TABLE_SEGMENT_OFFSET + 4;
  static final int TABLE_ENTRY_BYTES = TABLE_OWNER_OFFSET + 4;

  static final int RANGE_SEGMENT_OFFSET = 0;
  static final int RANGE_LENGTH_OFFSET = RANGE_SEGMENT_OFFSET + 4;
  static final int RANGE_OFFSET_OFFSET = RANGE_LENGTH_OFFSET + 4;
  static final int RANGE_HEADER_BYTES = RANGE_OFFSET_OFFSET + 8;

  // ------------------------------------------------------------------ transactions

  static final int TX_ID_OFFSET = 0;
  static final int TX_ALLOC_KIND_OFFSET = TX_ID_OFFSET + 8;
  static final int TX_ALLOC_ZERO_OFFSET = TX_ALLOC_KIND_OFFSET + 4;
  static final int TX_ALLOC_POINTER_OFFSET = TX_ALLOC_ZERO_OFFSET + 4;
  static final int TX_ALLOC_PREFIX_BYTES = TX_ALLOC_POINTER_OFFSET + 8;

  static final int TX_COMMIT_COUNT_OFFSET = TX_ID_OFFSET + 8;
  static final int TX_COMMIT_ATTACHMENTS_OFFSET = TX_COMMIT_COUNT_OFFSET + 4;
  static final int TX_COMMIT_PREFIX_BYTES = TX_COMMIT_ATTACHMENTS_OFFSET + 4;

  /** Before each op record of a commit: Length:u32, Zero:u32. */
  static final int TX_COMMIT_OP_LENGTH_OFFSET = 0;

  static final int TX_COMMIT_OP_HEADER_BYTES = TX_COMMIT_OP_LENGTH_OFFSET + 8;

  static final int TX_END_BYTES = TX_ID_OFFSET + 8;

  // ------------------------------------------------------------------ roots, participants

  static final int ROOT_POINTER_OFFSET = 0;
  static final int ROOT_NAME_LENGTH_OFFSET = ROOT_POINTER_OFFSET + 8;
  static final int ROOT_NAME_OFFSET = ROOT_NAME_LENGTH_OFFSET + 2;

  static final int PARTICIPANT_ID_OFFSET = 0;
  static final int PARTICIPANT_TYPE_OFFSET = PARTICIPANT_ID_OFFSET + 1;
  static final int PARTICIPANT_ZERO_OFFSET = PARTICIPANT_TYPE_OFFSET + 1;
  static final int PARTICIPANT_LENGTH_OFFSET = PARTICIPANT_ZERO_OFFSET + 2;
  static final int PARTICIPANT_HEADER_BYTES = PARTICIPANT_LENGTH_OFFSET + 4;

  private RedoLayout() {}
}
