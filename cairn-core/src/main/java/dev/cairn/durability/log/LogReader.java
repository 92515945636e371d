package dev.cairn.durability.log;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.file.FileLayer;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a write-ahead log without changing it: for tools, for tests, and to look before recovering.
 * {@link WriteAheadLog#open} runs the same scan before it appends.
 *
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=log-reader}
 *
 * <p>Not thread-safe; one scan at a time.
 */
public final class LogReader implements AutoCloseable {
  private final LogFiles files;

  private LogReader(LogFiles files) {
    this.files = files;
  }

  /**
   * Opens the log in {@code directory} for reading.
   *
   * @throws NoSuchFileException if the directory holds no log ({@code wal.meta} is missing)
   * @throws CorruptFileException if {@code wal.meta} or a log file is damaged or missing
   * @throws FormatVersionException if a file is of another format version or kind
   */
  public static LogReader open(FileLayer layer, Path directory) throws IOException {
    LogMeta meta = LogMeta.read(layer, directory);
    return new LogReader(LogFiles.open(layer, directory, meta, false));
  }

  /** Scans from {@code fromLsn}; see {@link #scan(long, long, RecordVisitor)}. */
  public ScanResult scan(long fromLsn, RecordVisitor visitor) throws IOException {
    return scan(fromLsn, -1, visitor);
  }

  /**
   * Reads every valid record from {@code fromLsn} (a record boundary, such as a checkpoint LSN) to
   * the end of the log, in order.
   *
   * @param knownDurableLsn an LSN the caller knows was durable (for example from a clean shutdown),
   *     or -1: a log that ends before it is reported as corrupt
   * @return where the log ends and why
   * @throws CorruptFileException if the log is damaged where it had been durable: an invalid record
   *     that a later valid record proves was once durable, a file needed at {@code fromLsn} that
   *     does not hold it, or an end before {@code knownDurableLsn}
   * @throws IllegalArgumentException if {@code fromLsn} is negative or not a multiple of 8
   */
  public ScanResult scan(long fromLsn, long knownDurableLsn, RecordVisitor visitor)
      throws IOException {
    try (LogScanner scanner = new LogScanner(files)) {
      return scanner.scan(fromLsn, knownDurableLsn, visitor);
    }
  }

  /** The log's current epoch (that of its last open for writing). */
  public long epoch() {
    return files.metaEpoch;
  }

  /** The size of each log file, header included. */
  public long fileBytes() {
    return files.fileBytes;
  }

  /** The number of log files. */
  public int fileCount() {
    return files.fileCount;
  }

  /** The path of the log file holding {@code lsn}. */
  public Path fileOf(long lsn) {
    return files.pathOfLsn(lsn);
  }

  /** The byte offset of {@code lsn} in {@link #fileOf(long)}. */
  public long fileOffsetOf(long lsn) {
    return files.fileOffset(lsn);
  }

  @Override
  public void close() throws IOException {
    files.close();
  }
}
