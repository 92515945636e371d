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
 */
public record ScanResult(
    long fromLsn, long endLsn, long records, long lastEpoch, String endReason) {}
