package dev.cairn.codec;

import dev.cairn.CairnException;

/**
 * A value's class has no registered codec (on put), or a stored type id names no registered codec
 * (on get).
 */
public final class UnknownTypeException extends CairnException {
  public UnknownTypeException(String message) {
    super(message);
  }
}
