package dev.cairn.pile;

import dev.cairn.codec.CodecRegistry;

/**
 * Settings of a pile. Immutable; build with {@link #builder()}.
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=options}
 *
 * @param segmentBytes size of each native segment, a power of two from 64 KiB to 1 GiB. The
 *     default, 64 MiB, is a trade: large enough that a 100M-value pile needs only ~60 segments and
 *     the per-segment cost (one arena, one mapping) is amortised over 1.6M small values; small
 *     enough that a stripe's partly filled segment wastes little, that an emptied segment can be
 *     returned to the OS, and that zeroing a new one where memory comes from {@code Arena.allocate}
 *     (45-96 ms measured; see {@link dev.cairn.memory.OsMemory}) stays short. It also caps a single
 *     value's size (a value must fit a segment).
 * @param maxMemoryBytes the budget for all segments together; a put that would need more throws
 *     {@link PileFullException}. Unlimited by default.
 * @param stripes number of allocation stripes, a power of two. Each stripe has its own lock, free
 *     lists and segments, so writers on different stripes never contend. Default: the next power of
 *     two at or above twice the available processors.
 * @param codecs codecs for values other than {@code byte[]} and {@code String}
 * @param durability for a persistent pile ({@link Pile#open}): what survives a crash. Default
 *     {@link Durability#SYNC}. Ignored by a volatile pile.
 * @param logFileBytes for a persistent pile created with a log: the size of each write-ahead log
 *     file; the log is a ring of {@code logFileCount} of them. A checkpoint starts when a quarter
 *     of it is in use, and writers wait if a checkpoint cannot keep up (three quarters). Applies
 *     when the log is created. Default: 64 MiB. With {@link Durability#SYNC} the files are filled
 *     with zeros at creation (so that a commit's fdatasync never has new blocks to record); with
 *     {@link Durability#PERIODIC} they are created sparse (its forces are periodic, so block
 *     allocation costs little).
 * @param logFileCount number of log files in the ring. Default: 4 with {@link Durability#SYNC} (256
 *     MiB of log), 16 with {@link Durability#PERIODIC} (1 GiB), and 4 whenever {@code logFileBytes}
 *     is set. Why a larger log for PERIODIC: its writers do not wait for forces and can outrun the
 *     disk, and a larger log leaves checkpoints more time before writers must wait for log space.
 *     Why more files rather than larger ones: after a crash, recovery reads the rest of the log
 *     file in which the log ends, looking for proof that the damage it found there is a torn tail
 *     and not lost data (FORMAT.md, "Recovery: where the log ends"), so a file's size bounds that
 *     read.
 * @param syncIntervalMillis how often {@link Durability#PERIODIC} forces the log (default 10). What
 *     a power loss can lose: the writes of about one interval plus the time of a log force (two
 *     forces when they are slower than the interval). A kill -9 loses less, only what the log had
 *     not yet handed to the OS, which does not depend on this interval; see {@link
 *     Durability#PERIODIC} for both windows and what they depend on.
 * @param checkpointIntervalMillis for a persistent pile with a log: the longest time between
 *     checkpoints while it is written to (default 300,000, five minutes, as PostgreSQL's {@code
 *     checkpoint_timeout}); 0 for none. A checkpoint also starts when a quarter of the log is in
 *     use, whatever the time. What it bounds: the log a restart after a crash replays, so that a
 *     pile written slowly, which takes hours to fill a quarter of its log, does not replay hours of
 *     writes. What it costs: each checkpoint writes the pages changed since the last one, so a
 *     shorter interval writes a page changed often more often. A pile not written to since its last
 *     checkpoint takes none.
 * @param hugePages whether to ask the OS for transparent huge pages (2 MiB) for segments held in
 *     memory (a volatile pile's, and a persistent pile's new ones until a checkpoint maps their
 *     files). One TLB entry then covers 512 times more memory, which speeds up gets in random order
 *     over a large pile; the first touch of each huge page costs more, resident memory grows in 2
 *     MiB steps, and a volatile pile gives freed memory back to the OS only in whole 2 MiB pages.
 *     Off by default (a cache's default options turn it on). Takes effect only where segments come
 *     from {@link dev.cairn.memory.OsMemory} (Linux, native access) and the kernel's transparent
 *     huge pages are {@code madvise} or {@code always}; ignored otherwise.
 * @param openMode for a persistent pile ({@link Pile#open}): whether the open may create a new
 *     pile, must create one, or must find one. Default {@link OpenMode#CREATE_OR_OPEN}. Ignored by
 *     a volatile pile and by {@link PileDirectory#openReadOnly}, which always needs a pile.
 */
public record PileOptions(
    long segmentBytes,
    long maxMemoryBytes,
    int stripes,
    CodecRegistry codecs,
    Durability durability,
    long logFileBytes,
    int logFileCount,
    long syncIntervalMillis,
    long checkpointIntervalMillis,
    boolean hugePages,
    OpenMode openMode) {

  /**
   * What {@link Pile#open} does with the directory it is given, as RocksDB's {@code
   * create_if_missing} and {@code error_if_exists} do. In every mode a directory that holds
   * anything other than a pile (foreign files, or a pile's files without its superblock) is refused
   * and left as it is; see {@link Pile#open}.
   */
  public enum OpenMode {
    /**
     * Opens the pile in the directory, or creates one there if the directory is missing or empty.
     * The default.
     */
    CREATE_OR_OPEN,
    /**
     * Creates a new pile in a missing or empty directory; a directory that holds a pile is refused
     * with {@link java.nio.file.FileAlreadyExistsException} and left untouched (RocksDB's {@code
     * error_if_exists}).
     */
    CREATE_NEW,
    /**
     * Opens the pile in the directory; a missing or empty directory is refused with {@link
     * java.nio.file.NoSuchFileException}, and nothing is created (RocksDB's {@code
     * create_if_missing = false}).
     */
    OPEN_EXISTING
  }

  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  /** The default log file size of a pile created with {@link Durability#SYNC}. */
  public static final long DEFAULT_SYNC_LOG_FILE_BYTES = 64L << 20;

  /** The default log file size of a pile created with {@link Durability#PERIODIC}. */
  public static final long DEFAULT_PERIODIC_LOG_FILE_BYTES = 64L << 20;

  /** The default number of log files of a pile created with {@link Durability#SYNC}. */
  public static final int DEFAULT_SYNC_LOG_FILE_COUNT = 4;

  /**
   * The default number of log files of a pile created with {@link Durability#PERIODIC} at the
   * default file size; with a file size set, {@link #DEFAULT_SYNC_LOG_FILE_COUNT}.
   */
  public static final int DEFAULT_PERIODIC_LOG_FILE_COUNT = 16;

  /** The default of {@link #checkpointIntervalMillis}: five minutes. */
  public static final long DEFAULT_CHECKPOINT_INTERVAL_MILLIS = 5 * 60 * 1000;

  public static final long MIN_SEGMENT_BYTES = 64L << 10;
  public static final long MAX_SEGMENT_BYTES = 1L << 30;

  public PileOptions {
    if (segmentBytes < MIN_SEGMENT_BYTES
        || segmentBytes > MAX_SEGMENT_BYTES
        || Long.bitCount(segmentBytes) != 1) {
      throw new IllegalArgumentException(
          "segmentBytes must be a power of two in [64 KiB, 1 GiB]: segmentBytes=" + segmentBytes);
    }
    if (maxMemoryBytes < segmentBytes) {
      throw new IllegalArgumentException(
          "maxMemoryBytes must hold at least one segment: maxMemoryBytes="
              + maxMemoryBytes
              + " segmentBytes="
              + segmentBytes);
    }
    if (stripes < 1 || stripes > 1024 || Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException(
          "stripes must be a power of two in [1, 1024]: stripes=" + stripes);
    }
    if (codecs == null) {
      throw new IllegalArgumentException("codecs must not be null");
    }
    if (durability == null) {
      throw new IllegalArgumentException("durability must not be null");
    }
    if (logFileBytes < (1L << 20) || logFileBytes % 4096 != 0) {
      throw new IllegalArgumentException(
          "logFileBytes must be a multiple of 4096 and at least 1 MiB: logFileBytes="
              + logFileBytes);
    }
    if (logFileCount < 2 || logFileCount > 10_000) {
      throw new IllegalArgumentException(
          "logFileCount must be in [2, 10000]: logFileCount=" + logFileCount);
    }
    if (syncIntervalMillis < 1) {
      throw new IllegalArgumentException(
          "syncIntervalMillis must be positive: syncIntervalMillis=" + syncIntervalMillis);
    }
    if (checkpointIntervalMillis < 0) {
      throw new IllegalArgumentException(
          "checkpointIntervalMillis must be 0 (none) or positive: checkpointIntervalMillis="
              + checkpointIntervalMillis);
    }
    if (openMode == null) {
      throw new IllegalArgumentException("openMode must not be null");
    }
  }

  /** Default settings: 64 MiB segments, no budget, 2x-cores stripes, built-in codecs. */
  public static PileOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder of {@link PileOptions}. */
  public static final class Builder {
    private long segmentBytes = DEFAULT_SEGMENT_BYTES;
    private long maxMemoryBytes = Long.MAX_VALUE;
    private int stripes = defaultStripes();
    private CodecRegistry codecs = CodecRegistry.builtIn();
    private Durability durability = Durability.SYNC;
    private long logFileBytes; // 0: the default for the durability
    private int logFileCount;
    private boolean logFileCountSet; // false: the default for the durability
    private long syncIntervalMillis = 10;
    private long checkpointIntervalMillis = DEFAULT_CHECKPOINT_INTERVAL_MILLIS;
    private boolean hugePages;
    private OpenMode openMode = OpenMode.CREATE_OR_OPEN;

    private Builder() {}

    public Builder segmentBytes(long segmentBytes) {
      this.segmentBytes = segmentBytes;
      return this;
    }

    public Builder maxMemoryBytes(long maxMemoryBytes) {
      this.maxMemoryBytes = maxMemoryBytes;
      return this;
    }

    public Builder stripes(int stripes) {
      this.stripes = stripes;
      return this;
    }

    public Builder codecs(CodecRegistry codecs) {
      this.codecs = codecs;
      return this;
    }

    public Builder durability(Durability durability) {
      this.durability = durability;
      return this;
    }

    public Builder logFileBytes(long logFileBytes) {
      this.logFileBytes = logFileBytes;
      return this;
    }

    public Builder logFileCount(int logFileCount) {
      this.logFileCount = logFileCount;
      this.logFileCountSet = true;
      return this;
    }

    public Builder syncIntervalMillis(long syncIntervalMillis) {
      this.syncIntervalMillis = syncIntervalMillis;
      return this;
    }

    public Builder checkpointIntervalMillis(long checkpointIntervalMillis) {
      this.checkpointIntervalMillis = checkpointIntervalMillis;
      return this;
    }

    public Builder hugePages(boolean hugePages) {
      this.hugePages = hugePages;
      return this;
    }

    /** See {@link PileOptions#openMode()}. */
    public Builder openMode(OpenMode openMode) {
      this.openMode = openMode;
      return this;
    }

    public PileOptions build() {
      long fileBytes =
          logFileBytes != 0
              ? logFileBytes
              : durability == Durability.SYNC
                  ? DEFAULT_SYNC_LOG_FILE_BYTES
                  : DEFAULT_PERIODIC_LOG_FILE_BYTES;
      int fileCount =
          logFileCountSet
              ? logFileCount
              : durability != Durability.SYNC && logFileBytes == 0
                  ? DEFAULT_PERIODIC_LOG_FILE_COUNT
                  : DEFAULT_SYNC_LOG_FILE_COUNT;
      return new PileOptions(
          segmentBytes,
          maxMemoryBytes,
          stripes,
          codecs,
          durability,
          fileBytes,
          fileCount,
          syncIntervalMillis,
          checkpointIntervalMillis,
          hugePages,
          openMode);
    }

    private static int defaultStripes() {
      int wanted = Math.max(2, 2 * Runtime.getRuntime().availableProcessors());
      return Math.min(1024, Integer.highestOneBit(wanted - 1) << 1);
    }
  }
}
