package dev.cairn.durability.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file system as the durability code sees it: a seam through which every durable byte and every
 * directory change passes, so that tests can substitute a disk that loses power (Lucene's {@code
 * MockDirectoryWrapper}, RocksDB's {@code FaultInjectionTestFS}).
 *
 * <p>The contract is POSIX's, stated where it matters for durability:
 *
 * <ul>
 *   <li>Bytes written through a {@link FileHandle} are durable only after {@link
 *       FileHandle#force()} returns. Until then a power loss may keep, drop or tear them, page by
 *       page.
 *   <li>Creating, renaming or deleting a file is durable only after {@link #syncDirectory(Path)} of
 *       its directory returns.
 *   <li>A failed force is final: the handle throws from then on, and the bytes it covered are in an
 *       unknown state.
 * </ul>
 *
 * <p>Implementations are thread-safe. {@link RealFileLayer} is the production implementation.
 */
public interface FileLayer {

  /** How {@link #open(Path, OpenMode)} treats a missing or existing file. */
  enum OpenMode {
    /** Read only; the file must exist. */
    READ,
    /** Read and write; the file must exist. */
    READ_WRITE,
    /** Read and write; created empty if missing. */
    CREATE,
    /** Read and write; created empty, and the file must not exist yet. */
    CREATE_NEW
  }

  /**
   * Opens {@code file}.
   *
   * @throws java.nio.file.NoSuchFileException if the mode needs an existing file and there is none
   * @throws java.nio.file.FileAlreadyExistsException for {@link OpenMode#CREATE_NEW} on an existing
   *     file
   */
  FileHandle open(Path file, OpenMode mode) throws IOException;

  /** Whether {@code path} exists. */
  boolean exists(Path path) throws IOException;

  /**
   * Whether {@code path} is a directory: false if it is missing or a file. The default asks {@link
   * #list}.
   */
  default boolean isDirectory(Path path) throws IOException {
    if (!exists(path)) {
      return false;
    }
    try {
      list(path);
      return true;
    } catch (java.nio.file.NotDirectoryException | java.nio.file.NoSuchFileException e) {
      return false;
    }
  }

  /** The entries of {@code directory}, sorted by name. */
  List<Path> list(Path directory) throws IOException;

  /** Creates {@code directory} and any missing parents; durable after {@link #syncDirectory}. */
  void createDirectories(Path directory) throws IOException;

  /**
   * Deletes {@code file}, or an empty directory, if it exists; durable after {@link #syncDirectory}
   * of its parent.
   */
  void delete(Path file) throws IOException;

  /**
   * Renames {@code source} to {@code target} in the same directory, atomically replacing any
   * existing {@code target}: a reader sees the old target or the new one, never neither. Durable
   * after {@link #syncDirectory} of the directory.
   */
  void rename(Path source, Path target) throws IOException;

  /** Makes the creations, renames and deletions in {@code directory} durable. */
  void syncDirectory(Path directory) throws IOException;
}
