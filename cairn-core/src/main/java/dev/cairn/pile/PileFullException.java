package dev.cairn.pile;

/**
 * The memory budget ({@link PileOptions.Builder#maxMemoryBytes(long)}) or the segment table
 * cannot take the requested allocation. The pile is left exactly as it was before the call.
 */
public final class PileFullException extends PileException {
  public PileFullException(String message) {
    super(message);
  }
}
