package dev.cairn.cli;

import dev.cairn.CairnException;
import picocli.CommandLine;

/**
 * A command could not do its work for a reason the user can act on (too little heap, a store that
 * returned wrong values, a damaged pile, a directory another process holds); the message says what
 * happened and what to do, so no stack trace is printed.
 *
 * <p>The exit code is 1 ({@link CommandLine.ExitCode#SOFTWARE}) unless the failure is about how the
 * command was called or what it was pointed at while busy elsewhere, which exits 2 like a bad flag
 * ({@link #usage}).
 */
public final class CommandFailedException extends CairnException {
  private final int exitCode;

  public CommandFailedException(String message, Throwable cause) {
    this(CommandLine.ExitCode.SOFTWARE, message, cause);
  }

  public CommandFailedException(String message) {
    this(CommandLine.ExitCode.SOFTWARE, message, null);
  }

  private CommandFailedException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** A failure that exits 2: the command cannot run as called (say, its directory is in use). */
  public static CommandFailedException usage(String message, Throwable cause) {
    return new CommandFailedException(CommandLine.ExitCode.USAGE, message, cause);
  }

  /** The process exit code this failure maps to. */
  public int exitCode() {
    return exitCode;
  }
}
