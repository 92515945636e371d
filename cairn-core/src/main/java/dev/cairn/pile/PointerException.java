package dev.cairn.pile;

/**
 * A pointer that does not address a live value of this pile. See the two subtypes: {@link
 * StalePointerException} for a value that existed and is gone, {@link InvalidPointerException} for
 * a pointer this pile never handed out.
 */
public abstract sealed class PointerException extends PileException
    permits StalePointerException, InvalidPointerException {
  private final long pointer;

  protected PointerException(long pointer, String message) {
    super(message + ": pointer=" + Pointers.describe(pointer));
    this.pointer = pointer;
  }

  /** The offending pointer. */
  public long pointer() {
    return pointer;
  }
}
