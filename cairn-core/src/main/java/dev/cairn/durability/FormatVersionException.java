package dev.cairn.durability;

import dev.cairn.CairnException;
import java.nio.file.Path;

/**
 * A file is not in a format this version of Cairn reads: another kind of Cairn file (for example a
 * write-ahead log where a superblock was expected), or the right kind in another format version.
 * Nothing was changed on disk.
 */
public final class FormatVersionException extends CairnException {
  private final Path file;
  private final int actual;
  private final int supported;

  /**
   * The file is the right kind, in format version {@code actual}; this Cairn reads {@code
   * supported}.
   */
  public FormatVersionException(Path file, int actual, int supported) {
    super(
        "unsupported format version in "
            + file
            + ": the file has version "
            + actual
            + ", this Cairn reads version "
            + supported
            + (actual > supported
                ? " (it was written by a newer Cairn)"
                : " (no migration exists)"));
    this.file = file;
    this.actual = actual;
    this.supported = supported;
  }

  /** The file is another kind of file altogether; {@code detail} says which, when known. */
  public FormatVersionException(Path file, String detail, int supported) {
    super("wrong kind of file " + file + ": " + detail);
    this.file = file;
    this.actual = -1;
    this.supported = supported;
  }

  public Path file() {
    return file;
  }

  /** The version found, or -1 if the file is another kind of file. */
  public int actual() {
    return actual;
  }

  public int supported() {
    return supported;
  }
}
