package dev.cairn.durability;

import dev.cairn.CairnException;
import java.nio.file.Path;

/**
 * Another owner holds the directory's lock: another process, or another open in this JVM. Two
 * owners writing one directory would corrupt it, so the second one is refused.
 */
public final class DirectoryLockedException extends CairnException {
  private final Path directory;

  public DirectoryLockedException(Path directory, String message) {
    super(message);
    this.directory = directory;
  }

  public DirectoryLockedException(Path directory, String message, Throwable cause) {
    super(message, cause);
    this.directory = directory;
  }

  public Path directory() {
    return directory;
  }
}
