package dev.cairn.durability.log;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.file.SuperblockLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What {@code wal.meta} (a {@link Superblock} whose epoch is the log's epoch) holds in its payload:
 * the log's geometry, and where each recent epoch began.
 *
 * <pre>
 * LogMeta    --> FileBytes:u64, FileCount:u32, StartCount:u32, EpochStart[StartCount]
 * EpochStart --> Epoch:u32, StartLsn:u64      (epochs increase; start LSNs never decrease)
 * </pre>
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why the starts: an incarnation that opens the log at end E writes from E on, so every
 * record it leaves at an LSN >= E is at least its epoch, and any record of an older epoch at
 * or after E is stale: left beyond the end by an incarnation that crashed. Within a scan the
 * previous record's epoch catches such a record, but a scan that starts at a checkpoint in
 * the middle of that stale region has no previous record; minEpochAt(x) -- the epoch of the
 * last start <= x -- is the context it lacks.
 *
 * Upkeep (next): starts after the new end are dropped (they began in a region the new
 * incarnation now owns); of the starts at or before the checkpoint only the last matters;
 * equal starts keep the larger epoch; then the new (epoch, end) is added. Starts only pile up
 * when incarnations crash after making progress without a checkpoint between; past
 * MAX_STARTS the oldest after the checkpoint is dropped, which only weakens the stale check
 * for the LSNs it covered (never reported, never loses a valid record).
 * }</pre>
 */
record LogMeta(long fileBytes, int fileCount, long epoch, long[] epochs, long[] starts) {

  static final int HEADER_BYTES = 16;
  static final int START_BYTES = 12;
  static final int MAX_STARTS = 256;

  /** The payload of a new log: the geometry, no starts yet. */
  static byte[] payload(long fileBytes, int fileCount) {
    return encode(fileBytes, fileCount, new long[0], new long[0]);
  }

  private static byte[] encode(long fileBytes, int fileCount, long[] epochs, long[] starts) {
    ByteBuffer bytes =
        ByteBuffer.allocate(HEADER_BYTES + START_BYTES * epochs.length)
            .order(ByteOrder.LITTLE_ENDIAN);
    bytes.putLong(fileBytes).putInt(fileCount).putInt(epochs.length);
    for (int i = 0; i < epochs.length; i++) {
      bytes.putInt((int) epochs[i]).putLong(starts[i]);
    }
    return bytes.array();
  }

  /** The smallest epoch a valid record at {@code lsn} can have (0 if no start is known). */
  long minEpochAt(long lsn) {
    int i = lastStartAtOrBefore(lsn);
    return i < 0 ? 0 : epochs[i];
  }

  /** The start LSN of the epoch {@link #minEpochAt} returns for {@code lsn}. */
  long startOfMinEpochAt(long lsn) {
    int i = lastStartAtOrBefore(lsn);
    return i < 0 ? 0 : starts[i];
  }

  private int lastStartAtOrBefore(long lsn) {
    int low = 0;
    int high = starts.length - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (starts[mid] <= lsn) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /**
   * The payload for the next incarnation, epoch {@code epoch + 1}, which recovered from {@code
   * fromLsn} to {@code endLsn}.
   */
  byte[] next(long fromLsn, long endLsn) {
    int n = 0;
    long[] e = new long[starts.length + 1];
    long[] s = new long[starts.length + 1];
    for (int i = 0; i < starts.length; i++) {
      if (starts[i] > endLsn) {
        break; // non-decreasing: the rest are after the end too
      }
      if (starts[i] <= fromLsn && n > 0 && s[n - 1] <= fromLsn) {
        n--; // only the last start at or before the checkpoint matters
      }
      if (n > 0 && s[n - 1] == starts[i]) {
        n--; // equal starts: the later epoch wins
      }
      e[n] = epochs[i];
      s[n] = starts[i];
      n++;
    }
    if (n > 0 && s[n - 1] == endLsn) {
      n--;
    }
    e[n] = epoch + 1;
    s[n] = endLsn;
    n++;
    int drop = Math.max(0, n - MAX_STARTS);
    long[] keptEpochs = new long[n - drop];
    long[] keptStarts = new long[n - drop];
    if (drop > 0) {
      // keep the base (first), drop the oldest after it
      keptEpochs[0] = e[0];
      keptStarts[0] = s[0];
      System.arraycopy(e, 1 + drop, keptEpochs, 1, n - drop - 1);
      System.arraycopy(s, 1 + drop, keptStarts, 1, n - drop - 1);
    } else {
      System.arraycopy(e, 0, keptEpochs, 0, n);
      System.arraycopy(s, 0, keptStarts, 0, n);
    }
    return encode(fileBytes, fileCount, keptEpochs, keptStarts);
  }

  static LogMeta of(Path file, Superblock.State state) {
    byte[] payload = state.payload();
    ByteBuffer bytes = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    if (payload.length < HEADER_BYTES) {
      throw corrupt(
          file,
          "log meta payload is " + payload.length + " bytes, expected at least " + HEADER_BYTES);
    }
    long fileBytes = bytes.getLong();
    int fileCount = bytes.getInt();
    int count = bytes.getInt();
    if (fileBytes < LogLayout.MIN_FILE_BYTES
        || fileBytes % LogLayout.FILE_HEADER_BYTES != 0
        || fileCount < LogLayout.MIN_FILE_COUNT
        || fileCount > LogLayout.MAX_FILE_COUNT) {
      throw corrupt(
          file, "log geometry out of range: fileBytes=" + fileBytes + " fileCount=" + fileCount);
    }
    if (count < 0 || count > MAX_STARTS || payload.length != HEADER_BYTES + START_BYTES * count) {
      throw corrupt(
          file, "log meta holds " + count + " epoch starts in " + payload.length + " bytes");
    }
    if (state.epoch() > 0xFFFF_FFFFL - 1) {
      throw corrupt(file, "log epoch " + state.epoch() + " exceeds the 32-bit record epoch");
    }
    long[] epochs = new long[count];
    long[] starts = new long[count];
    for (int i = 0; i < count; i++) {
      epochs[i] = Integer.toUnsignedLong(bytes.getInt());
      starts[i] = bytes.getLong();
      boolean ordered = i == 0 || (epochs[i] > epochs[i - 1] && starts[i] >= starts[i - 1]);
      if (!ordered
          || epochs[i] > state.epoch()
          || starts[i] < 0
          || starts[i] % LogLayout.ALIGNMENT != 0) {
        throw corrupt(
            file,
            "epoch start "
                + i
                + " (epoch "
                + epochs[i]
                + " at lsn "
                + starts[i]
                + ") out of order or range");
      }
    }
    return new LogMeta(fileBytes, fileCount, state.epoch(), epochs, starts);
  }

  private static CorruptFileException corrupt(Path file, String what) {
    return new CorruptFileException(file, SuperblockLayout.PAYLOAD_OFFSET, what);
  }

  static LogMeta read(FileLayer layer, Path directory) throws IOException {
    Path file = directory.resolve(LogLayout.META_FILE_NAME);
    return of(file, Superblock.read(layer, file));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogMeta m
        && m.fileBytes == fileBytes
        && m.fileCount == fileCount
        && m.epoch == epoch
        && Arrays.equals(m.epochs, epochs)
        && Arrays.equals(m.starts, starts);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(epoch);
  }

  @Override
  public String toString() {
    return "LogMeta[fileBytes="
        + fileBytes
        + ", fileCount="
        + fileCount
        + ", epoch="
        + epoch
        + ", epochs="
        + Arrays.toString(epochs)
        + ", starts="
        + Arrays.toString(starts)
        + "]";
  }
}
