package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.util.Locale;

/**
 * How much log {@code cairn bench --recovery} leaves for recovery to replay, and the log geometry
 * that lets it pile up: a pile starts a background checkpoint (which empties the log) once the log
 * holds a quarter of its capacity, so the capacity must exceed four times the target. The files are
 * {@link #logFileBytes()} each (256 MiB at most, as a large pile would have), and {@link
 * #logFileCount()} of them give four times the target plus one file of margin.
 *
 * <p>The log is preallocated (zeros written), so a run writes about five times the target to disk
 * before the fill even starts, and needs that much free space in {@code --dir}.
 *
 * @param logBytes the log to replay, in bytes
 */
public record RecoveryPlan(long logBytes) {

  public static final long MIN_LOG_BYTES = 1L << 20;

  /** 16 GiB of log: 80 GiB preallocated, and minutes to fill. */
  public static final long MAX_LOG_BYTES = 16L << 30;

  private static final long MAX_FILE_BYTES = 256L << 20;
  private static final long MIN_FILE_BYTES = 1L << 20;
  private static final long FILE_ALIGNMENT = 4096;

  /** The share of the log's capacity at which the pile checkpoints: see PersistentStore. */
  private static final int CHECKPOINT_TRIGGER_DIVISOR = 4;

  /**
   * @throws IllegalArgumentException if the size is out of range
   */
  public RecoveryPlan {
    if (logBytes < MIN_LOG_BYTES || logBytes > MAX_LOG_BYTES) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "log-gb must be in [%.4f, %d]: log-gb=%.4f",
              (double) MIN_LOG_BYTES / (1L << 30),
              MAX_LOG_BYTES >> 30,
              (double) logBytes / (1L << 30)));
    }
  }

  /** A log of {@code gibibytes} GiB (2^30 bytes); fractions are allowed. */
  public static RecoveryPlan ofGibibytes(double gibibytes) {
    if (!(gibibytes > 0) || Double.isInfinite(gibibytes)) {
      throw new IllegalArgumentException("log-gb must be positive: log-gb=" + gibibytes);
    }
    return new RecoveryPlan((long) Math.min(Long.MAX_VALUE / 2.0, gibibytes * (1L << 30)));
  }

  /** Each log file's size: a quarter of the target, between 1 MiB and 256 MiB, 4 KiB aligned. */
  public long logFileBytes() {
    long quarter = logBytes / CHECKPOINT_TRIGGER_DIVISOR;
    long aligned = (quarter + FILE_ALIGNMENT - 1) / FILE_ALIGNMENT * FILE_ALIGNMENT;
    return Math.clamp(aligned, MIN_FILE_BYTES, MAX_FILE_BYTES);
  }

  /**
   * The options of the crashed pile, for the filler that creates it and the open that recovers it
   * alike: durability periodic (a log record per put, no wait), this plan's log geometry, and the
   * codecs of {@code kind}.
   */
  public PileOptions pileOptions(BenchValueKind kind) {
    return PileOptions.builder()
        .durability(Durability.PERIODIC)
        .logFileBytes(logFileBytes())
        .logFileCount(logFileCount())
        .codecs(kind.codecs())
        .build();
  }

  /**
   * Files in the ring: capacity of four times the target plus one file, so that the checkpoint
   * trigger (a quarter of the capacity) lies a quarter file beyond the target.
   */
  public int logFileCount() {
    long files = CHECKPOINT_TRIGGER_DIVISOR * logBytes / logFileBytes() + 1;
    return (int) Math.max(2, files + 1); // + 1: a ring file's header is not log capacity
  }
}
