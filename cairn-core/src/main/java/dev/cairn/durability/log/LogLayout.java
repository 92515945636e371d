package dev.cairn.durability.log;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.FileKind;
import dev.cairn.durability.file.SuperblockLayout;

/**
 * The write-ahead log on disk: a ring of fixed-size, preallocated log files plus a small
 * superblock-format file ({@code wal.meta}) holding the log's epoch, its geometry and where each
 * recent epoch began.
 *
 * <h2>wal.meta (version 1)</h2>
 *
 * A {@link SuperblockLayout superblock} file whose {@code Epoch} is the log's epoch: every open for
 * writing writes it once, forced, before anything is appended. Its payload:
 *
 * <pre>
 * LogMeta    --> FileBytes:u64, FileCount:u32, StartCount:u32, EpochStart[StartCount]
 * EpochStart --> Epoch:u32, StartLsn:u64        (epochs increase, start LSNs never decrease)
 * </pre>
 *
 * An {@code EpochStart} says that the incarnation of that epoch began appending at {@code
 * StartLsn}, so no valid record at or after it has a smaller epoch. At most 256 are kept (see
 * {@code LogMeta} for the upkeep).
 *
 * <h2>Addressing</h2>
 *
 * An LSN (log sequence number) is a byte position in the logical log, a stream that never restarts.
 * Records are 8-byte aligned and may span files. Every log file holds {@code dataBytes = fileBytes
 * - 4096} bytes of that stream after its header, and the file with sequence number {@code s} holds
 * LSNs {@code [s * dataBytes, (s + 1) * dataBytes)} in slot {@code s mod fileCount} (the file
 * {@code wal-<slot, 4 digits>.log}). So LSN {@code x} lives in slot {@code (x / dataBytes) mod
 * fileCount} at byte {@code 4096 + x mod dataBytes}. Files are reused in place: once the log is
 * truncated past a file, the slot's header is rewritten for sequence {@code s + fileCount} when the
 * log reaches it. No file is created, renamed or resized after the log is created, so a force never
 * has metadata to write.
 *
 * <h2>File header (version 1)</h2>
 *
 * <pre>
 * LogFile    --> FileHeader, Zero[4096 - 48], Data[dataBytes]
 * FileHeader --> Magic:u64, Version:u32, Epoch:u32, FileBytes:u64, Sequence:u64, FirstLsn:u64,
 *                FileCount:u32, Crc32c:u32
 * </pre>
 *
 * <pre>
 *  0               8       12      16              24              32              40      44      48
 * +---------------+-------+-------+---------------+---------------+---------------+-------+-------+
 * |     Magic     |Version| Epoch |   FileBytes   |   Sequence    |   FirstLsn    | Count | Crc32c|
 * +---------------+-------+-------+---------------+---------------+---------------+-------+-------+
 * </pre>
 *
 * <ul>
 *   <li>{@code Magic} is the ASCII text {@code CAIRN-WL}; {@code Version} is {@link
 *       #VERSION_CURRENT} (any other version, in a header whose checksum holds, is {@link
 *       FormatVersionException}; the checksum is checked first, so a damaged version byte is
 *       reported as damage).
 *   <li>{@code Epoch}: the log epoch that (re)initialized the file for this sequence. Records in
 *       the file never have a smaller epoch.
 *   <li>{@code Sequence}: the file's sequence number {@code s}; {@link #SEQUENCE_UNUSED} (all ones)
 *       for a slot never used yet. {@code FirstLsn} is {@code s * dataBytes} (all ones if unused).
 *   <li>{@code FileBytes} and {@code FileCount} repeat the log's geometry.
 *   <li>{@code Crc32c} covers bytes {@code [0, 44)}. The rest of the 4096-byte header page is zero,
 *       so records start page-aligned.
 * </ul>
 *
 * <h2>Record (version 1)</h2>
 *
 * <pre>
 * Record --> Length:u32, Crc32c:u32, Lsn:u64, Epoch:u32, DurableLag:u32, Type:u8,
 *            Payload[Length], Pad[0-7]                        (the next record starts 8-aligned)
 * </pre>
 *
 * <pre>
 *  0       4       8               16      20      24  25
 * +-------+-------+---------------+-------+-------+---+-------------------------+-----+
 * |Length | Crc32c|      Lsn      | Epoch |DurLag |Typ| Payload[Length]         | Pad |
 * +-------+-------+---------------+-------+-------+---+-------------------------+-----+
 * </pre>
 *
 * <ul>
 *   <li>All fields little-endian. A record's size is {@link #frameBytes(int)} {@code = align8(25 +
 *       Length)}; the record ending at LSN {@code e} is followed by the next at {@code e}. {@code
 *       Pad} bytes are zero and not checksummed.
 *   <li>{@code Lsn} is the record's own start position, which is how a record from an older pass
 *       over a reused file is told from a current one.
 *   <li>{@code Epoch}: the epoch of the log incarnation that wrote it. Every open of the log for
 *       writing takes a new epoch (stored in {@code wal.meta} before anything is appended), so
 *       bytes left beyond the end of the log by an earlier incarnation have a smaller epoch than
 *       anything written after them.
 *   <li>{@code DurableLag}: the record's LSN minus the log's durable LSN when it was appended,
 *       saturated at {@code 2^32 - 1}. So the record proves that everything before {@code Lsn -
 *       DurableLag} was durable: the basis for telling corruption from a torn tail.
 *   <li>{@code Type}: 0 is never valid (so zeroed space is never a record); 1 ({@link #TYPE_SKIP})
 *       is a void record, left by an append whose caller's payload could not be read after its
 *       space was reserved, valid but never delivered; 2-15 are reserved for the log; 16-255 are
 *       the caller's.
 *   <li>{@code Crc32c} covers {@code Length}, then {@code Lsn} through the end of the payload.
 * </ul>
 *
 * <h2>Validity and the end of the log</h2>
 *
 * A record at LSN {@code p} is valid if its file's header is valid for sequence {@code p /
 * dataBytes} (and so is every file it spans), {@code Lsn = p}, {@code Type} is 1 or at least 16,
 * {@code Length <= MAX_PAYLOAD_BYTES}, the checksum holds, and its {@code Epoch} is at most the
 * log's and at least each of: the file header's epoch, the previous record's epoch, and the epoch
 * of the last {@code EpochStart} at or before {@code p}. A scan from a checkpoint LSN reads valid
 * records until the first invalid one, at LSN {@code p}. That is the torn or stale tail, the normal
 * end of the log, unless some other valid record (at any position in the current file or a later
 * one) has {@code Lsn - DurableLag > p}: then the bytes at {@code p} were once durable, and the log
 * is corrupt there ({@link CorruptFileException} naming file and offset). A power loss can only
 * damage bytes that were never forced, and no valid record can claim those were durable, so a torn
 * tail is never mistaken for corruption; damage to the last records that no later record vouches
 * for looks like a torn tail (a caller that knows the log was durable further can pass that LSN,
 * and a shorter log is then reported as corrupt).
 */
public final class LogLayout {
  public static final long MAGIC = FileKind.LOG.magic();
  public static final int VERSION_CURRENT = 1;

  // ------------------------------------------------------------------ file header

  public static final int FILE_HEADER_BYTES = 4096;

  public static final int MAGIC_OFFSET = 0;
  public static final int MAGIC_LENGTH = 8;
  public static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
  public static final int VERSION_LENGTH = 4;
  public static final int FILE_EPOCH_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
  public static final int FILE_EPOCH_LENGTH = 4;
  public static final int FILE_BYTES_OFFSET = FILE_EPOCH_OFFSET + FILE_EPOCH_LENGTH;
  public static final int FILE_BYTES_LENGTH = 8;
  public static final int SEQUENCE_OFFSET = FILE_BYTES_OFFSET + FILE_BYTES_LENGTH;
  public static final int SEQUENCE_LENGTH = 8;
  public static final int FIRST_LSN_OFFSET = SEQUENCE_OFFSET + SEQUENCE_LENGTH;
  public static final int FIRST_LSN_LENGTH = 8;
  public static final int FILE_COUNT_OFFSET = FIRST_LSN_OFFSET + FIRST_LSN_LENGTH;
  public static final int FILE_COUNT_LENGTH = 4;
  public static final int FILE_CRC_OFFSET = FILE_COUNT_OFFSET + FILE_COUNT_LENGTH;
  public static final int FILE_CRC_LENGTH = 4;
  public static final int FILE_HEADER_USED_BYTES = FILE_CRC_OFFSET + FILE_CRC_LENGTH;

  /** The {@code Sequence} (and {@code FirstLsn}) of a slot that was never used. */
  public static final long SEQUENCE_UNUSED = -1L;

  // ------------------------------------------------------------------ record

  public static final int LENGTH_OFFSET = 0;
  public static final int LENGTH_LENGTH = 4;
  public static final int CRC_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH;
  public static final int CRC_LENGTH = 4;
  public static final int LSN_OFFSET = CRC_OFFSET + CRC_LENGTH;
  public static final int LSN_LENGTH = 8;
  public static final int EPOCH_OFFSET = LSN_OFFSET + LSN_LENGTH;
  public static final int EPOCH_LENGTH = 4;
  public static final int DURABLE_LAG_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH;
  public static final int DURABLE_LAG_LENGTH = 4;
  public static final int TYPE_OFFSET = DURABLE_LAG_OFFSET + DURABLE_LAG_LENGTH;
  public static final int TYPE_LENGTH = 1;
  public static final int PAYLOAD_OFFSET = TYPE_OFFSET + TYPE_LENGTH;

  /** Bytes of a record before its payload. */
  public static final int RECORD_HEADER_BYTES = PAYLOAD_OFFSET;

  public static final int ALIGNMENT = 8;

  /** Type 0: never a record, so zeroed space never parses. */
  public static final int TYPE_NONE = 0;

  /** A void record: its space was reserved by an append that then failed; readers skip it. */
  public static final int TYPE_SKIP = 1;

  /** The smallest type a caller may use; 1-15 are reserved for the log. */
  public static final int FIRST_USER_TYPE = 16;

  public static final int MAX_TYPE = 255;

  /** The largest payload a reader accepts (a writer's is also bounded by its buffer). */
  public static final int MAX_PAYLOAD_BYTES = 64 << 20;

  public static final long MAX_DURABLE_LAG = 0xFFFF_FFFFL;

  // ------------------------------------------------------------------ geometry

  public static final long MIN_FILE_BYTES = 2L * FILE_HEADER_BYTES;
  public static final int MIN_FILE_COUNT = 2;
  public static final int MAX_FILE_COUNT = 10_000;

  /**
   * The name of the file in slot {@code slot}: {@code wal-} and the slot in at least four decimal
   * digits. Built by hand: {@code String.format} loads the formatter and the locale data, which
   * cost a fresh JVM about 8 ms of its first open.
   */
  public static String fileName(int slot) {
    if (slot < 0) {
      throw new IllegalArgumentException("a log slot is not negative: " + slot);
    }
    String digits = Integer.toString(slot);
    return "wal-" + "0000".substring(Math.min(4, digits.length())) + digits + ".log";
  }

  /** The log's superblock-format file: epoch and geometry. */
  public static final String META_FILE_NAME = "wal.meta";

  private LogLayout() {}

  /** The bytes a record with a {@code payloadBytes} payload takes, padding included. */
  public static long frameBytes(long payloadBytes) {
    return (RECORD_HEADER_BYTES + payloadBytes + ALIGNMENT - 1) & -ALIGNMENT;
  }
}
