package dev.cairn.durability;

import dev.cairn.CairnException;

/**
 * An append would need a log file that still holds records newer than the last {@code
 * truncateBefore} of the write-ahead log. The record was not appended and the log is unchanged and
 * still usable. Checkpoint (so that the log before the checkpoint is no longer needed), call {@code
 * truncateBefore}, and retry; or create the log with more or larger files.
 */
public final class LogFullException extends CairnException {
  public LogFullException(String message) {
    super(message);
  }
}
