package dev.cairn.cli;

import dev.cairn.durability.DirectoryLockedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Runs a read of a pile's directory for {@code inspect}, {@code verify} and {@code recover} (which
 * also writes: it salvages), and turns the ways it can fail to start into {@link
 * CommandFailedException}s with their exit codes: no pile there (1), the directory in use by
 * another process (2), the files unreadable (1). What the read finds wrong inside the pile is left
 * to the caller: {@code inspect} and {@code recover} report it as a failure, {@code verify} as its
 * result.
 */
final class PileDirectoryAccess {

  /** A read of the pile in {@code directory}, such as {@code PileDirectory::inspect}. */
  @FunctionalInterface
  interface Read<T> {
    T apply(Path directory) throws IOException;
  }

  private PileDirectoryAccess() {}

  static <T> T read(Path directory, Read<T> read) {
    try {
      return read.apply(directory);
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      throw new CommandFailedException(noPile(directory), e);
    } catch (DirectoryLockedException e) {
      // a pile is opened by one owner at a time, readers included: wait for the owner to close
      throw CommandFailedException.usage(
          e.getMessage() + "; run this again once that process has closed the pile", e);
    } catch (IOException e) {
      throw new CommandFailedException("cannot read " + directory + ": " + e, e);
    }
  }

  /** Why {@code directory} holds no pile, in the most useful terms available. */
  private static String noPile(Path directory) {
    if (!Files.exists(directory)) {
      return "no pile in " + directory + ": the directory does not exist";
    }
    if (!Files.isDirectory(directory)) {
      return "no pile in " + directory + ": it is a file, not a pile's directory";
    }
    return "no pile in "
        + directory
        + ": it has no superblock (pile.sb); a pile's directory"
        + " is the one given to Pile.open";
  }
}
