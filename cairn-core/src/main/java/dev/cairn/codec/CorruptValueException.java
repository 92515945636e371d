package dev.cairn.codec;

import dev.cairn.CairnException;

/** Stored bytes do not decode: a length, a type id or a field is out of range. */
public final class CorruptValueException extends CairnException {
  public CorruptValueException(String message) {
    super(message);
  }

  /** With the exception that decoding the bytes raised. */
  public CorruptValueException(String message, Throwable cause) {
    super(message, cause);
  }
}
