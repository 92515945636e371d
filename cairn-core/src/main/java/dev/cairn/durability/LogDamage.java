package dev.cairn.durability;

import java.nio.file.Path;

/**
 * What a salvage of a damaged write-ahead log dropped, and where it kept the damaged files. A
 * pile's log is salvaged by {@code PileDirectory.salvage} (and {@code cairn recover}).
 *
 * <p>Bytes are exact: the log from the damaged record to the end of the last valid record found
 * after it. Records are counted, not known: the damaged bytes cannot be parsed, so {@link
 * #readableRecordsDropped()} counts only the valid records found after the damage, and the damaged
 * stretch ({@link #unreadableBytes()}) held at least one more record, the damaged one.
 *
 * @param file the log file where the damage is
 * @param fileOffset the byte offset of the damaged record in {@code file}
 * @param firstDroppedLsn the LSN of the damaged record: the log now ends here, and every record
 *     before it was recovered
 * @param problem what is wrong with the record at {@code firstDroppedLsn}, and what proves it had
 *     been durable
 * @param lastDroppedLsn the LSN of the last valid record found after the damage, or -1 if none was
 *     found
 * @param droppedEndLsn the end of that record (or {@code firstDroppedLsn} if none): the log the
 *     salvage dropped is {@code [firstDroppedLsn, droppedEndLsn)}
 * @param droppedBytes {@code droppedEndLsn - firstDroppedLsn}, exact
 * @param readableRecordsDropped valid records counted in the dropped part (a lower bound on the
 *     records dropped: the damaged record itself is not among them)
 * @param unreadableBytes bytes of the dropped part that no valid record found covers: the damaged
 *     stretch
 * @param copy the directory holding the copy of the log's files taken before the salvage changed
 *     them; never deleted by Cairn
 */
public record LogDamage(
    Path file,
    long fileOffset,
    long firstDroppedLsn,
    String problem,
    long lastDroppedLsn,
    long droppedEndLsn,
    long droppedBytes,
    long readableRecordsDropped,
    long unreadableBytes,
    Path copy) {

  /** One paragraph for people: where the damage was, what was dropped, where the copy is. */
  public String describe() {
    return "the log was damaged in "
        + file
        + " at offset "
        + fileOffset
        + " (lsn "
        + firstDroppedLsn
        + ": "
        + problem
        + "); recovered every record before lsn "
        + firstDroppedLsn
        + " and dropped the log from lsn "
        + firstDroppedLsn
        + " to "
        + droppedEndLsn
        + ": "
        + droppedBytes
        + " bytes, holding "
        + readableRecordsDropped
        + " readable records after the damage (counted) plus the damaged record itself in "
        + unreadableBytes
        + " unreadable bytes; the damaged log files were copied to "
        + copy;
  }
}
