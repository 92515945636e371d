package dev.cairn.pile;

import java.nio.file.Path;

/**
 * A write to a pile opened read-only ({@link PileDirectory#openReadOnly}, as {@code cairn inspect}
 * and {@code cairn verify} open it): a put, update, delete or transaction, or a put of an object
 * type the pile has not stored before, which would add its schema to the pile's catalog. Nothing
 * was changed, in memory or on disk. Open the pile with {@link Pile#open} to write to it.
 */
public final class ReadOnlyPileException extends PileException {
  private final Path directory;

  /** {@code refused}: what was refused, such as {@code "cannot store new type com.acme.Order"}. */
  public ReadOnlyPileException(Path directory, String refused) {
    super(
        "the pile in "
            + directory
            + " is open read-only: "
            + refused
            + "; open it with Pile.open to write");
    this.directory = directory;
  }

  /** The directory of the read-only pile. */
  public Path directory() {
    return directory;
  }
}
