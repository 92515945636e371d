package dev.cairn.durability.log;

import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.LogDamage;

/**
 * What recovery does when a write-ahead log is damaged where it had been durable (a {@link
 * CorruptLogException}). A torn tail, which any crash may leave, is normal recovery in both modes.
 * The two modes are RocksDB's {@code kAbsoluteConsistency} and {@code kPointInTimeRecovery}.
 */
public enum LogRecovery {
  /** Refuse the log: {@link CorruptLogException}, and nothing is changed. The default. */
  STRICT,
  /**
   * Point-in-time salvage: recover every record before the first damaged one and drop that record
   * and everything after it, even records that are valid (they may depend on what was lost). Before
   * anything is changed, the log's files are copied to a directory beside the log's, {@code <log
   * directory>.damaged-<UTC time>}, which is never deleted. Then the dropped part of the log is
   * zeroed, so that the next open, strict again, ends the log where the salvage did. What was
   * dropped is reported as a {@link LogDamage} ({@link WriteAheadLog#salvaged()}).
   */
  SALVAGE
}
