package dev.cairn.durability;

import dev.cairn.CairnException;

/** The write-ahead log was closed; no record can be appended or awaited any more. */
public final class LogClosedException extends CairnException {
  public LogClosedException() {
    super("write-ahead log is closed");
  }
}
