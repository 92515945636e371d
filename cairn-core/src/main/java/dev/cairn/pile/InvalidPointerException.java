package dev.cairn.pile;

/**
 * The pointer was never handed out by this pile: its segment or offset is out of range, or it does
 * not point at the start of a block.
 */
public final class InvalidPointerException extends PointerException {
  public InvalidPointerException(long pointer, String message) {
    super(pointer, message);
  }
}
