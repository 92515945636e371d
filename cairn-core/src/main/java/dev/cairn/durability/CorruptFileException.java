package dev.cairn.durability;

import dev.cairn.CairnException;
import java.nio.file.Path;

/**
 * A durable file holds bytes that cannot be what Cairn wrote: a checksum, magic number, length or
 * sequence that does not match, in a place that a crash cannot explain (a torn log tail is normal
 * recovery and never raises this). The message names the file, the byte offset and what was wrong.
 *
 * <p>What to check: the storage under the directory (a failing disk or a bad copy), and whether a
 * file from another directory or an older backup was copied in. Recovery from this state needs a
 * backup; Cairn never skips damaged records silently. Damage in the middle of a write-ahead log is
 * the subclass {@link CorruptLogException}, which says how to salvage the records before it.
 */
public sealed class CorruptFileException extends CairnException permits CorruptLogException {
  private static final String RESTORE =
      "check the storage and whether files were copied in from"
          + " elsewhere; restore from a backup";

  private final Path file;
  private final long offset;

  public CorruptFileException(Path file, long offset, String what) {
    this(file, offset, what, RESTORE, null);
  }

  public CorruptFileException(Path file, long offset, String what, Throwable cause) {
    this(file, offset, what, RESTORE, cause);
  }

  /** With {@code advice}, what to do, in place of restoring from a backup. */
  CorruptFileException(Path file, long offset, String what, String advice, Throwable cause) {
    super(
        "corrupt file " + file + " at offset " + offset + ": " + what + " (" + advice + ")", cause);
    this.file = file;
    this.offset = offset;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** The byte offset in {@link #file()} where the damage was found. */
  public long offset() {
    return offset;
  }
}
