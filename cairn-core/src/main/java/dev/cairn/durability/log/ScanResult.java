package dev.cairn.durability.log;

/**
 * The outcome of scanning a log: where it ended, and why.
 *
 * @param fromLsn where the scan started
 * @param endLsn the end of the last valid record (or {@code fromLsn} if none): where the log
 *     continues
 * @param records how many valid records were read
 * @param lastEpoch the epoch of the last valid record, or 0 if none
 * @param endReason what was found at {@code endLsn}: zeroed space, a stale or torn record, the end
 *     of the files in use, and so on; for diagnostics
 * @param endSearchBytes bytes of log the scan read past {@code endLsn}, looking for a record that
 *     proves the end was durable (FORMAT.md, "Recovery: where the log ends"): at most the rest of
 *     the end's file, plus any file whose header is damaged or names a later sequence; 0 when the
 *     caller knew that the log ended there (a clean shutdown's checkpoint)
 * @param endSearchNanos the time that read took
 */
public record ScanResult(
    long fromLsn,
    long endLsn,
    long records,
    long lastEpoch,
    String endReason,
    long endSearchBytes,
    long endSearchNanos) {}
