package dev.cairn.durability.file;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An open file of a {@link FileLayer}: positional reads and writes, {@link #force()}, and size
 * changes with real blocks. Positional calls do not move any file pointer, so one handle may be
 * used by several threads at different positions.
 */
public interface FileHandle extends Closeable {

  /** The path the file was opened as. */
  Path path();

  /** The file's size in bytes. */
  long size() throws IOException;

  /** Writes all of {@code source}'s remaining bytes at {@code position}; consumes them. */
  void write(ByteBuffer source, long position) throws IOException;

  /**
   * Writes all of {@code source} (a native segment or one backed by a byte[]) at {@code position}.
   */
  void write(MemorySegment source, long position) throws IOException;

  /**
   * Reads into {@code target} from {@code position} until it is full or the file ends.
   *
   * @return the number of bytes read (less than requested only at the end of the file)
   */
  int read(ByteBuffer target, long position) throws IOException;

  /**
   * Reads into {@code target} (a native segment or one backed by a byte[]) from {@code position}
   * until it is full or the file ends.
   *
   * @return the number of bytes read (less than {@code target.byteSize()} only at the end of the
   *     file)
   */
  long read(MemorySegment target, long position) throws IOException;

  /**
   * Makes every byte written so far, and the file's size, durable ({@code fdatasync}). After a
   * failure the handle is failed: every later call throws, because the kernel may have dropped the
   * unwritten pages (never retry an fsync).
   */
  void force() throws IOException;

  /**
   * Maps {@code [0, sizeBytes)} of the file copy-on-write into {@code arena} ({@code MAP_PRIVATE}):
   * reads fault pages in from the file on demand, and writes to the mapping stay in this process's
   * memory, never reaching the file. So the file changes only through {@link #write}, which is what
   * lets a pile decide exactly when its data pages become durable (no steal). A page not yet
   * written through the mapping may show later {@link #write}s of the same file; callers only write
   * pages whose bytes equal the mapping's.
   *
   * <p>The file must be at least {@code sizeBytes} long and must not shrink while mapped.
   */
  MemorySegment mapPrivate(long sizeBytes, java.lang.foreign.Arena arena) throws IOException;

  /** Cuts the file to {@code sizeBytes}; never use it on a file that is mapped. */
  void truncate(long sizeBytes) throws IOException;

  /**
   * Grows the file to {@code sizeBytes} by writing zeros, so that every block is allocated now: a
   * later write into the range cannot fail for lack of space, and a mapping of it cannot fault (no
   * sparse files). Does nothing if the file is already that long. Not durable until {@link
   * #force()}.
   */
  void preallocate(long sizeBytes) throws IOException;

  /**
   * Grows the file to {@code sizeBytes} with every block allocated now, as {@link #preallocate}
   * does, but possibly without writing them: the OS may reserve the blocks in the file system's
   * metadata alone ({@code fallocate}), reading as zeros. Cheap for large files; the first write
   * into each such block costs the file system a little journaling at the next force, so a file
   * forced after many small appends (a log) should use {@link #preallocate}. Not durable until
   * {@link #force()}.
   */
  default void reserve(long sizeBytes) throws IOException {
    preallocate(sizeBytes);
  }
}
