package dev.cairn.durability.file;

import dev.cairn.durability.FormatVersionException;

/**
 * The superblock file: two fixed-size slots, written alternately, each forced before the write
 * returns. A reader takes the newest slot whose checksum holds, so a write torn by a crash falls
 * back to the other, older slot (invariant I8).
 *
 * <h2>Format (version 1)</h2>
 *
 * <pre>
 * SuperblockFile --> Slot[0], Slot[1]                         (2 x 4096 bytes, nothing else)
 * Slot           --> Magic:u64, Version:u32, Flags:u32, Epoch:u64, CheckpointLsn:u64,
 *                    PayloadLength:u32, Crc32c:u32, Payload[PayloadLength],
 *                    Zero[4056 - PayloadLength]
 * </pre>
 *
 * <pre>
 *  0               8       12      16              24              32      36      40
 * +---------------+-------+-------+---------------+---------------+-------+-------+---------...
 * |     Magic     |Version| Flags |     Epoch     | CheckpointLsn |PayLen | Crc32c| Payload
 * +---------------+-------+-------+---------------+---------------+-------+-------+---------...
 * </pre>
 *
 * <ul>
 *   <li>All fields little-endian. Slot {@code i} starts at byte {@code i * 4096}; a slot is a page,
 *       so a torn write damages one slot only.
 *   <li>{@code Magic} is the ASCII text {@code CAIRN-SB}. {@code Version} is {@link
 *       #VERSION_CURRENT}; a slot with this magic, a valid checksum and any other version makes the
 *       file unreadable ({@link FormatVersionException}), because it may be newer than the other
 *       slot. The checksum is checked before the version is believed: a slot whose version byte was
 *       damaged is an invalid slot, not a newer one. Every version keeps the slot's checksum where
 *       version 1 has it, over the same prefix.
 *   <li>{@code Flags}: bit 0 ({@link #FLAG_CLEAN_SHUTDOWN}) the owner closed cleanly after writing
 *       this slot; every other bit is reserved and zero.
 *   <li>{@code Epoch} increases by one with every write, across both slots; the valid slot with the
 *       larger epoch is current.
 *   <li>{@code CheckpointLsn}: the log position from which recovery replays.
 *   <li>{@code Payload}: the owner's opaque bytes, at most {@link #MAX_PAYLOAD_BYTES}.
 *   <li>{@code Crc32c} (Castagnoli) covers bytes {@code [0, 36)} and then the payload, in that
 *       order: every field but itself and the zero tail.
 * </ul>
 *
 * A slot is valid when its magic, version and checksum hold, its payload length fits, and its
 * reserved flag bits are zero. An all-zero slot (never written) is simply invalid.
 */
public final class SuperblockLayout {
  public static final int SLOT_BYTES = 4096;
  public static final int SLOT_COUNT = 2;
  public static final int FILE_BYTES = SLOT_BYTES * SLOT_COUNT;

  public static final long MAGIC = FileKind.SUPERBLOCK.magic();
  public static final int VERSION_CURRENT = 1;

  public static final int MAGIC_OFFSET = 0;
  public static final int MAGIC_LENGTH = 8;
  public static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  public static final int VERSION_LENGTH = 4;
  public static final int FLAGS_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  public static final int FLAGS_LENGTH = 4;
  public static final int EPOCH_OFFSET = FLAGS_OFFSET + FLAGS_LENGTH;
  public static final int EPOCH_LENGTH = 8;
  public static final int CHECKPOINT_LSN_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH;
  public static final int CHECKPOINT_LSN_LENGTH = 8;
  public static final int PAYLOAD_LENGTH_OFFSET = CHECKPOINT_LSN_OFFSET + CHECKPOINT_LSN_LENGTH;
  public static final int PAYLOAD_LENGTH_LENGTH = 4;
  public static final int CRC_OFFSET = PAYLOAD_LENGTH_OFFSET + PAYLOAD_LENGTH_LENGTH;
  public static final int CRC_LENGTH = 4;
  public static final int PAYLOAD_OFFSET = CRC_OFFSET + CRC_LENGTH;
  public static final int MAX_PAYLOAD_BYTES = SLOT_BYTES - PAYLOAD_OFFSET;

  public static final int FLAG_CLEAN_SHUTDOWN = 1;
  static final int FLAGS_KNOWN = FLAG_CLEAN_SHUTDOWN;

  private SuperblockLayout() {}

  /** The byte offset of slot {@code slot} in the file. */
  public static long slotOffset(int slot) {
    return (long) slot * SLOT_BYTES;
  }
}
