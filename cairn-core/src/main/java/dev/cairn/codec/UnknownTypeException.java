package dev.cairn.codec;

/**
 * A value's class has no registered codec (on put), or a stored type id names no registered codec
 * (on get).
 */
public final class UnknownTypeException extends IllegalArgumentException {
  public UnknownTypeException(String message) {
    super(message);
  }
}
