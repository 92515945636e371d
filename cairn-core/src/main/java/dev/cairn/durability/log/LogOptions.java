package dev.cairn.durability.log;

import dev.cairn.durability.LogFullException;
import java.util.concurrent.TimeUnit;

/**
 * Settings of a {@link WriteAheadLog}. Immutable; build with {@link #builder()}.
 *
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=log-options}
 *
 * @param fileBytes size of each log file including its 4 KiB header, a multiple of 4096, at least 8
 *     KiB. Applies when the log is created; an existing log keeps its own geometry.
 * @param fileCount number of log files in the ring, 2 to 10,000. With {@code fileBytes} it bounds
 *     the log between two checkpoints: an append that needs more throws {@link LogFullException}.
 *     Applies when the log is created.
 * @param bufferBytes the in-memory ring that appenders copy into and the flusher writes from, a
 *     power of two from 4 KiB to 1 GiB. It bounds a single record (payload at most {@code
 *     bufferBytes - 32}) and how far appenders can run ahead of the disk.
 * @param mode when the log forces on its own, and what {@link WriteAheadLog#commit} waits for
 * @param periodNanos the force period of {@link LogSync#PERIODIC}
 * @param writeDelayNanos how long buffered records may wait before the flusher hands them to the
 *     operating system when nobody waits for them and the buffer is less than a quarter full
 */
public record LogOptions(
    long fileBytes,
    int fileCount,
    int bufferBytes,
    LogSync mode,
    long periodNanos,
    long writeDelayNanos) {

  public static final long DEFAULT_FILE_BYTES = 64L << 20;
  public static final int DEFAULT_FILE_COUNT = 4;
  public static final int DEFAULT_BUFFER_BYTES = 4 << 20;
  public static final int MIN_BUFFER_BYTES = 4096;
  public static final int MAX_BUFFER_BYTES = 1 << 30;
  public static final long DEFAULT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  public static final long DEFAULT_WRITE_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  public LogOptions {
    if (fileBytes < LogLayout.MIN_FILE_BYTES || fileBytes % LogLayout.FILE_HEADER_BYTES != 0) {
      throw new IllegalArgumentException(
          "fileBytes must be a multiple of 4096 and at least 8192: fileBytes=" + fileBytes);
    }
    if (fileCount < LogLayout.MIN_FILE_COUNT || fileCount > LogLayout.MAX_FILE_COUNT) {
      throw new IllegalArgumentException("fileCount must be in [2, 10000]: fileCount=" + fileCount);
    }
    if (bufferBytes < MIN_BUFFER_BYTES
        || bufferBytes > MAX_BUFFER_BYTES
        || Integer.bitCount(bufferBytes) != 1) {
      throw new IllegalArgumentException(
          "bufferBytes must be a power of two in [4 KiB, 1 GiB]: bufferBytes=" + bufferBytes);
    }
    if (mode == null) {
      throw new IllegalArgumentException("mode must not be null");
    }
    if (periodNanos <= 0) {
      throw new IllegalArgumentException(
          "periodNanos must be positive: periodNanos=" + periodNanos);
    }
    if (writeDelayNanos < 0) {
      throw new IllegalArgumentException(
          "writeDelayNanos must not be negative: writeDelayNanos=" + writeDelayNanos);
    }
  }

  /** The largest payload one record can carry with this buffer. */
  public int maxPayloadBytes() {
    return Math.min(bufferBytes - 32, LogLayout.MAX_PAYLOAD_BYTES);
  }

  /** Default settings: 4 files of 64 MiB, a 4 MiB buffer, {@link LogSync#ON_COMMIT}. */
  public static LogOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder of {@link LogOptions}. */
  public static final class Builder {
    private long fileBytes = DEFAULT_FILE_BYTES;
    private int fileCount = DEFAULT_FILE_COUNT;
    private int bufferBytes = DEFAULT_BUFFER_BYTES;
    private LogSync mode = LogSync.ON_COMMIT;
    private long periodNanos = DEFAULT_PERIOD_NANOS;
    private long writeDelayNanos = DEFAULT_WRITE_DELAY_NANOS;

    private Builder() {}

    public Builder fileBytes(long fileBytes) {
      this.fileBytes = fileBytes;
      return this;
    }

    public Builder fileCount(int fileCount) {
      this.fileCount = fileCount;
      return this;
    }

    public Builder bufferBytes(int bufferBytes) {
      this.bufferBytes = bufferBytes;
      return this;
    }

    public Builder mode(LogSync mode) {
      this.mode = mode;
      return this;
    }

    public Builder period(long period, TimeUnit unit) {
      this.periodNanos = unit.toNanos(period);
      return this;
    }

    public Builder writeDelay(long delay, TimeUnit unit) {
      this.writeDelayNanos = unit.toNanos(delay);
      return this;
    }

    public LogOptions build() {
      return new LogOptions(fileBytes, fileCount, bufferBytes, mode, periodNanos, writeDelayNanos);
    }
  }
}
