package dev.cairn.pile;

/** The pile was closed; its memory is released and no operation can run on it any more. */
public final class PileClosedException extends PileException {
  public PileClosedException() {
    super("pile is closed");
  }

  /** For a structure over a pile that says what was closed: "cache is closed", say. */
  public PileClosedException(String message) {
    super(message);
  }

  public PileClosedException(Throwable cause) {
    super("pile is closed", cause);
  }
}
