package dev.cairn.pile;

/**
 * {@link Pile#verify()} found an allocator invariant broken. The message names the segment, the
 * offset and the invariant.
 */
public final class PileCorruptionException extends PileException {
  public PileCorruptionException(String message) {
    super(message);
  }
}
