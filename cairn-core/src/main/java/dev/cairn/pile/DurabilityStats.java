package dev.cairn.pile;

/**
 * A pile's persistence at one moment: how its last open recovered, where its log stands and how
 * many checkpoints it has taken. A volatile pile's are {@link #VOLATILE}.
 *
 * @param persistent whether the pile has files
 * @param lastCloseClean whether the open found a clean close (its last checkpoint a close's, no log
 *     record after it); true for a volatile pile
 * @param recordsReplayed log records the open's recovery applied
 * @param bytesReplayed bytes of log the open's recovery applied
 * @param openMillis time from the start of the open until the pile was usable
 * @param replayMillis the part of {@code openMillis} spent on the log: finding where it ends,
 *     applying its records since the last checkpoint, undoing unfinished transactions. What a crash
 *     adds to an open, beside the rest, which a clean close's open pays too
 * @param endSearchBytes bytes of log the open read past the log's end, looking for a record that
 *     proves the end had been durable (which would make it damage, not a torn tail): after a crash,
 *     the rest of the log file the log ends in, so at most a file's size ({@link
 *     PileOptions#logFileBytes}); 0 after a clean close, whose end needs no proof
 * @param endSearchMillis the part of {@code replayMillis} that read took
 * @param logEndLsn where the log ends: the position the next record is appended at (0 without a
 *     log)
 * @param durableLsn the log position below which every record is on disk (0 without a log)
 * @param checkpoints checkpoints completed since the open (the open's own included)
 * @param lastCheckpointLsn the log position of the last completed checkpoint
 */
public record DurabilityStats(
    boolean persistent,
    boolean lastCloseClean,
    long recordsReplayed,
    long bytesReplayed,
    long openMillis,
    long replayMillis,
    long endSearchBytes,
    long endSearchMillis,
    long logEndLsn,
    long durableLsn,
    long checkpoints,
    long lastCheckpointLsn) {

  /** The figures of a volatile pile. */
  public static final DurabilityStats VOLATILE =
      new DurabilityStats(false, true, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
