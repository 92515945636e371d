package dev.cairn.cli;

/**
 * A command could not do its work for a reason the user can act on (too little heap, a store that
 * returned wrong values); the message says what happened and what to do, so no stack trace is
 * printed.
 */
public final class CommandFailedException extends RuntimeException {
  public CommandFailedException(String message, Throwable cause) {
    super(message, cause);
  }

  public CommandFailedException(String message) {
    super(message);
  }
}
