package dev.cairn.pile;

/**
 * The pointer addressed a value that has since been deleted, or whose memory now holds another
 * value (the pointer's tag no longer matches), or whose segment was released.
 */
public final class StalePointerException extends PointerException {
  public StalePointerException(long pointer, String message) {
    super(pointer, message);
  }
}
