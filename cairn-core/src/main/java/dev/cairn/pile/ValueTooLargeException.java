package dev.cairn.pile;

/**
 * A value was refused for its size before anything was written: no block of the pile can hold it
 * ({@link Limit#SEGMENT}: a block lies within one segment), or, in a pile with a write-ahead log,
 * one log record cannot carry it ({@link Limit#LOG_RECORD}: each write is one record, and a record
 * is at most an eighth of the log and the log's 16 MiB buffer). The segment is checked first, so a
 * value larger than both is refused for the segment. The message names the value's size, the limit
 * and the way out: larger segments ({@link PileOptions.Builder#segmentBytes(long)}), or for the
 * log, durability {@link Durability#NONE} or a value split in parts.
 *
 * <p>An {@link IllegalArgumentException}, as the pile raised for it before this type existed, so a
 * caller that catches that still catches this.
 */
public final class ValueTooLargeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** What the value did not fit. */
  public enum Limit {
    /** The room of one segment: its size less the segment's and the block's headers. */
    SEGMENT,
    /** The value one log record can carry, in a pile with a log. */
    LOG_RECORD
  }

  private final long sizeBytes;
  private final long limitBytes;
  private final Limit limit;

  public ValueTooLargeException(String message, long sizeBytes, long limitBytes, Limit limit) {
    super(message);
    this.sizeBytes = sizeBytes;
    this.limitBytes = limitBytes;
    this.limit = limit;
  }

  /** The bytes the refused value needed: its payload, and any extra room asked for. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The largest payload the limit allows, in bytes. */
  public long limitBytes() {
    return limitBytes;
  }

  /** Which limit refused the value. */
  public Limit limit() {
    return limit;
  }
}
