package dev.cairn.durability.log;

import static dev.cairn.durability.log.LogLayout.FILE_BYTES_OFFSET;
import static dev.cairn.durability.log.LogLayout.FILE_COUNT_OFFSET;
import static dev.cairn.durability.log.LogLayout.FILE_CRC_OFFSET;
import static dev.cairn.durability.log.LogLayout.FILE_EPOCH_OFFSET;
import static dev.cairn.durability.log.LogLayout.FILE_HEADER_BYTES;
import static dev.cairn.durability.log.LogLayout.FIRST_LSN_OFFSET;
import static dev.cairn.durability.log.LogLayout.MAGIC;
import static dev.cairn.durability.log.LogLayout.MAGIC_OFFSET;
import static dev.cairn.durability.log.LogLayout.SEQUENCE_OFFSET;
import static dev.cairn.durability.log.LogLayout.SEQUENCE_UNUSED;
import static dev.cairn.durability.log.LogLayout.VERSION_CURRENT;
import static dev.cairn.durability.log.LogLayout.VERSION_OFFSET;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileKind;
import dev.cairn.durability.file.FileLayer;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The ring of log files of one log: their handles, their parsed headers, and the mapping from LSN
 * to (slot, offset). Shared by {@link LogReader} and {@link WriteAheadLog}; not thread-safe (the
 * writer touches headers from its flusher thread only, after recovery).
 */
final class LogFiles implements AutoCloseable {

  /** A slot's header as read (or as last written). */
  record Header(boolean valid, long sequence, int epoch, String problem) {
    static Header invalid(String problem) {
      return new Header(false, SEQUENCE_UNUSED, 0, problem);
    }

    boolean holds(long seq) {
      return valid && sequence == seq;
    }

    /**
     * Whether the header was written whole and damaged since: Cairn's magic with a checksum that
     * does not hold. A header lies in one 512-byte sector, which a power loss leaves old or new,
     * never torn, so this is damage on disk, not a write cut short.
     */
    boolean damaged() {
      return !valid && problem.startsWith(CHECKSUM_MISMATCH);
    }

    String describe() {
      if (!valid) {
        return "an invalid header (" + problem + ")";
      }
      return sequence == SEQUENCE_UNUSED ? "an unused slot" : "sequence " + sequence;
    }
  }

  private static final String CHECKSUM_MISMATCH = "header checksum mismatch";

  final FileLayer layer;
  final Path directory;
  final long fileBytes;
  final int fileCount;
  final long dataBytes;

  /** The log's epoch as stored in wal.meta when the files were opened. */
  final long metaEpoch;

  /** wal.meta as read when the files were opened. */
  final LogMeta meta;

  private final FileHandle[] handles;
  private final Header[] headers;

  /**
   * Second handles on the same files, opened on first use, for committers that write and force
   * their own records (WriteAheadLog.syncInline). Why separate: a FileChannel used by a thread that
   * gets interrupted is closed for good; an interrupted committer must not close the writer's
   * handles, only these, which are then dropped and reopened.
   */
  private final FileHandle[] committerHandles;

  private LogFiles(
      FileLayer layer, Path directory, LogMeta meta, FileHandle[] handles, Header[] headers) {
    this.layer = layer;
    this.directory = directory;
    this.meta = meta;
    this.fileBytes = meta.fileBytes();
    this.fileCount = meta.fileCount();
    this.dataBytes = fileBytes - FILE_HEADER_BYTES;
    this.metaEpoch = meta.epoch();
    this.handles = handles;
    this.headers = headers;
    this.committerHandles = new FileHandle[handles.length];
  }

  /**
   * Opens every slot file and reads its header.
   *
   * @throws CorruptFileException if a file is missing or has the wrong size
   * @throws FormatVersionException if a file is a log file of another format version
   */
  static LogFiles open(FileLayer layer, Path directory, LogMeta meta, boolean write)
      throws IOException {
    long fileBytes = meta.fileBytes();
    int fileCount = meta.fileCount();
    long metaEpoch = meta.epoch();
    FileHandle[] handles = new FileHandle[fileCount];
    Header[] headers = new Header[fileCount];
    try {
      for (int slot = 0; slot < fileCount; slot++) {
        Path path = directory.resolve(LogLayout.fileName(slot));
        try {
          handles[slot] =
              layer.open(path, write ? FileLayer.OpenMode.READ_WRITE : FileLayer.OpenMode.READ);
        } catch (NoSuchFileException e) {
          throw new CorruptFileException(
              path,
              0,
              "log file is missing; "
                  + LogLayout.META_FILE_NAME
                  + " says the log has "
                  + fileCount
                  + " files",
              e);
        }
        long size = handles[slot].size();
        if (size != fileBytes) {
          throw new CorruptFileException(
              path,
              size,
              "log file is " + size + " bytes; this log's files are " + fileBytes + " bytes");
        }
        headers[slot] = readHeader(handles[slot], path, slot, fileBytes, fileCount, metaEpoch);
      }
      return new LogFiles(layer, directory, meta, handles, headers);
    } catch (Throwable t) {
      closeAll(handles, t);
      throw t;
    }
  }

  Path path(int slot) {
    return directory.resolve(LogLayout.fileName(slot));
  }

  long sequenceOf(long lsn) {
    return lsn / dataBytes;
  }

  int slotOf(long sequence) {
    return (int) (sequence % fileCount);
  }

  int slotOfLsn(long lsn) {
    return slotOf(sequenceOf(lsn));
  }

  /** The byte offset of {@code lsn} in its file. */
  long fileOffset(long lsn) {
    return FILE_HEADER_BYTES + lsn % dataBytes;
  }

  /** The path of the file holding {@code lsn}. */
  Path pathOfLsn(long lsn) {
    return path(slotOfLsn(lsn));
  }

  Header header(int slot) {
    return headers[slot];
  }

  FileHandle handle(int slot) {
    return handles[slot];
  }

  /**
   * Slot {@code slot}'s committer handle (see {@link #committerHandles}), opened if needed. Used
   * only under the log's flush lock.
   */
  FileHandle committerHandle(int slot) throws IOException {
    FileHandle handle = committerHandles[slot];
    if (handle == null) {
      handle = layer.open(path(slot), FileLayer.OpenMode.READ_WRITE);
      committerHandles[slot] = handle;
    }
    return handle;
  }

  /**
   * Opens every slot's committer handle not open yet; false if the OS refused one (too many open
   * files, say), in which case committers leave the writing to the writer.
   */
  boolean openCommitterHandles() {
    try {
      for (int slot = 0; slot < committerHandles.length; slot++) {
        committerHandle(slot);
      }
      return true;
    } catch (IOException e) {
      dropCommitterHandles();
      return false;
    }
  }

  /** Closes the committer handles, quietly (one may already be closed by an interrupt). */
  void dropCommitterHandles() {
    for (int slot = 0; slot < committerHandles.length; slot++) {
      FileHandle handle = committerHandles[slot];
      committerHandles[slot] = null;
      if (handle != null) {
        try {
          handle.close();
        } catch (IOException ignored) {
          // it only served writes that the writer's own handles will repeat
        }
      }
    }
  }

  /** Whether the file for {@code sequence} is in place (its slot's header names it). */
  boolean holds(long sequence) {
    return headers[slotOf(sequence)].holds(sequence);
  }

  /** The end of the run of held files starting at the file holding {@code lsn}. */
  long heldEnd(long lsn) {
    long seq = sequenceOf(lsn);
    long first = seq;
    while (seq - first < fileCount && holds(seq)) {
      seq++;
    }
    return seq * dataBytes;
  }

  /**
   * Reads {@code target.byteSize()} bytes of the logical log from {@code lsn}. Every file touched
   * must be held ({@link #heldEnd}); the caller checks.
   */
  void read(long lsn, MemorySegment target) throws IOException {
    long done = 0;
    long size = target.byteSize();
    while (done < size) {
      long at = lsn + done;
      int slot = slotOfLsn(at);
      long inFile = Math.min(size - done, dataBytes - at % dataBytes);
      long n = handles[slot].read(target.asSlice(done, inFile), fileOffset(at));
      if (n != inFile) {
        throw new CorruptFileException(
            path(slot),
            fileOffset(at) + n,
            "log file ends early: read " + n + " of " + inFile + " bytes");
      }
      done += inFile;
    }
  }

  /**
   * Writes the header of {@code sequence} into its slot (not forced) and records it as held. Writer
   * only.
   */
  void writeHeader(long sequence, int epoch) throws IOException {
    int slot = slotOf(sequence);
    handles[slot].write(encodeHeader(sequence, epoch, fileBytes, fileCount, dataBytes), 0);
    headers[slot] = new Header(true, sequence, epoch, null);
  }

  /**
   * Makes {@code lsn} the end of the log for good (a salvage): zeroes the file holding its sequence
   * from {@code lsn} on, and turns every slot that could hold a record after it (an invalid header,
   * or a later sequence) into an unused slot of zeros; forces each file it changed. Slots holding
   * an earlier sequence, or none, keep their bytes: nothing in them follows {@code lsn}. Writer
   * only, before appending.
   */
  void dropFrom(long lsn) throws IOException {
    long sequence = sequenceOf(lsn);
    ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
    for (int slot = 0; slot < fileCount; slot++) {
      Header header = headers[slot];
      if (header.holds(sequence)) {
        zero(slot, fileOffset(lsn), zeros);
      } else if (!header.valid()
          || (header.sequence() != SEQUENCE_UNUSED && header.sequence() > sequence)) {
        handles[slot].write(encodeHeader(SEQUENCE_UNUSED, 0, fileBytes, fileCount, dataBytes), 0);
        zero(slot, FILE_HEADER_BYTES, zeros);
        headers[slot] = new Header(true, SEQUENCE_UNUSED, 0, null);
      } else {
        continue;
      }
      handles[slot].force();
    }
  }

  private void zero(int slot, long from, ByteBuffer zeros) throws IOException {
    for (long at = from; at < fileBytes; ) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), fileBytes - at));
      int n = zeros.remaining();
      handles[slot].write(zeros, at);
      at += n;
    }
  }

  /** Forces slot {@code slot}'s file. */
  void force(int slot) throws IOException {
    handles[slot].force();
  }

  static ByteBuffer encodeHeader(
      long sequence, int epoch, long fileBytes, int fileCount, long dataBytes) {
    ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(MAGIC_OFFSET, MAGIC);
    header.putInt(VERSION_OFFSET, VERSION_CURRENT);
    header.putInt(FILE_EPOCH_OFFSET, epoch);
    header.putLong(FILE_BYTES_OFFSET, fileBytes);
    header.putLong(SEQUENCE_OFFSET, sequence);
    header.putLong(
        FIRST_LSN_OFFSET, sequence == SEQUENCE_UNUSED ? SEQUENCE_UNUSED : sequence * dataBytes);
    header.putInt(FILE_COUNT_OFFSET, fileCount);
    header.putInt(FILE_CRC_OFFSET, headerCrc(header));
    return header;
  }

  /**
   * Whether {@code header} is a whole log file header (magic and checksum hold) for a sequence, not
   * an unused slot: the file has held records. Used where the geometry is not known.
   */
  static boolean isUsedHeader(ByteBuffer header) {
    return header.getLong(MAGIC_OFFSET) == MAGIC
        && header.getInt(FILE_CRC_OFFSET) == headerCrc(header)
        && header.getLong(SEQUENCE_OFFSET) != SEQUENCE_UNUSED;
  }

  private static int headerCrc(ByteBuffer header) {
    CRC32C crc = new CRC32C();
    crc.update(header.array(), header.arrayOffset(), FILE_CRC_OFFSET);
    return (int) crc.getValue();
  }

  private static Header readHeader(
      FileHandle handle, Path path, int slot, long fileBytes, int fileCount, long metaEpoch)
      throws IOException {
    ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    if (handle.read(header, 0) != FILE_HEADER_BYTES) {
      return Header.invalid("file shorter than its header");
    }
    return decodeHeader(header, path, slot, fileBytes, fileCount, metaEpoch);
  }

  static Header decodeHeader(
      ByteBuffer header, Path path, int slot, long fileBytes, int fileCount, long metaEpoch) {
    long magic = header.getLong(MAGIC_OFFSET);
    if (magic == 0) {
      return Header.invalid("zeroed");
    }
    if (magic != MAGIC) {
      return Header.invalid("magic is " + FileKind.describe(magic));
    }
    // the checksum before any field it covers: a damaged version byte is damage, not a file of
    // a newer Cairn
    int stored = header.getInt(FILE_CRC_OFFSET);
    int computed = headerCrc(header);
    if (stored != computed) {
      return Header.invalid(
          String.format(
              java.util.Locale.ROOT,
              CHECKSUM_MISMATCH + " (stored 0x%08x, computed 0x%08x)",
              stored,
              computed));
    }
    int version = header.getInt(VERSION_OFFSET);
    if (version != VERSION_CURRENT) {
      throw new FormatVersionException(path, version, VERSION_CURRENT);
    }
    long headerFileBytes = header.getLong(FILE_BYTES_OFFSET);
    int headerFileCount = header.getInt(FILE_COUNT_OFFSET);
    if (headerFileBytes != fileBytes || headerFileCount != fileCount) {
      return Header.invalid(
          "header is for a log of "
              + headerFileCount
              + " files of "
              + headerFileBytes
              + " bytes, not "
              + fileCount
              + " of "
              + fileBytes);
    }
    long sequence = header.getLong(SEQUENCE_OFFSET);
    long firstLsn = header.getLong(FIRST_LSN_OFFSET);
    long epoch = Integer.toUnsignedLong(header.getInt(FILE_EPOCH_OFFSET));
    if (epoch > metaEpoch) {
      return Header.invalid("header epoch " + epoch + " is newer than the log's " + metaEpoch);
    }
    if (sequence == SEQUENCE_UNUSED) {
      return firstLsn == SEQUENCE_UNUSED
          ? new Header(true, SEQUENCE_UNUSED, (int) epoch, null)
          : Header.invalid("unused slot with first lsn " + firstLsn);
    }
    long dataBytes = fileBytes - FILE_HEADER_BYTES;
    if (sequence < 0 || sequence % fileCount != slot || firstLsn != sequence * dataBytes) {
      return Header.invalid(
          "sequence " + sequence + " and first lsn " + firstLsn + " do not belong in slot " + slot);
    }
    return new Header(true, sequence, (int) epoch, null);
  }

  @Override
  public void close() throws IOException {
    IOException first = new IOException("closing log files of " + directory);
    dropCommitterHandles();
    closeAll(handles, first);
    if (first.getSuppressed().length > 0) {
      throw first;
    }
  }

  /** Closes every handle, adding any failure to {@code failure} as suppressed. */
  static void closeAll(FileHandle[] handles, Throwable failure) {
    for (FileHandle handle : handles) {
      if (handle == null) {
        continue;
      }
      try {
        handle.close();
      } catch (IOException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
