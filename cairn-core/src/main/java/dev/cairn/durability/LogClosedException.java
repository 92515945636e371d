package dev.cairn.durability;

import dev.cairn.pile.PileException;

/** The write-ahead log was closed; no record can be appended or awaited any more. */
public final class LogClosedException extends PileException {
  public LogClosedException() {
    super("write-ahead log is closed");
  }
}
