package dev.cairn.pile;

import dev.cairn.CairnException;

/**
 * Base type of the exceptions the pile itself raises: a bad pointer, a full, closed or read-only
 * pile, a broken allocator invariant. A persistent pile's file problems (a damaged, locked or
 * unwritable file) are the exceptions of {@code dev.cairn.durability}, and a value that does not
 * encode or decode those of {@code dev.cairn.codec}; all of them are {@link CairnException}s.
 */
public class PileException extends CairnException {
  public PileException(String message) {
    super(message);
  }

  public PileException(String message, Throwable cause) {
    super(message, cause);
  }
}
