package dev.cairn.pile;

/** Base type of every exception the Pile raises for bad data, bad pointers or bad state. */
public class PileException extends RuntimeException {
  public PileException(String message) {
    super(message);
  }

  public PileException(String message, Throwable cause) {
    super(message, cause);
  }
}
