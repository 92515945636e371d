package dev.cairn.durability.file;

import dev.cairn.durability.DirectoryLockedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The exclusive owner's lock on a directory: an OS file lock ({@link FileChannel#tryLock()}) on the
 * file {@value #LOCK_FILE_NAME} in it, held until {@link #close()} or the process ends. A second
 * owner, in another process or in this JVM, gets {@link DirectoryLockedException} at once instead
 * of corrupting the files.
 *
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=directory-lock}
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * OS file locks belong to the process, so a second tryLock in the same JVM does not return
 * null: it throws OverlappingFileLockException, which is reported as "already open in this
 * JVM". Another process gets null, reported as "in use by another process", with the pid
 * the holder wrote into the lock file (diagnostic only; the lock, not the pid, is the truth).
 * The pid is a record of RECORD_BYTES ("pid=", the pid, spaces, a newline) written over the
 * last holder's in place; the file is cut only if it is longer. Cutting it to nothing first, on
 * every open, made the file system free and allocate its block: about 0.7 ms of a cold open
 * here, against 0.1-0.2 ms for the write in place (docs/probes/lock_record.c).
 * The lock goes away with the process, even after kill -9, so no stale lock can block a
 * restart. The lock file is left in place on close: deleting it would race with a new owner.
 * The lock uses the operating system directly, not a FileLayer: it guards real processes.
 * }</pre>
 */
public final class DirectoryLock implements AutoCloseable {

  public static final String LOCK_FILE_NAME = "cairn.lock";

  /** Bytes of the holder's record in the lock file (see the note). */
  static final int RECORD_BYTES = 32;

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock on {@code directory}, which must exist.
   *
   * @throws DirectoryLockedException if another process or another open in this JVM holds it
   * @throws IOException if the lock file cannot be created or locked
   */
  public static DirectoryLock acquire(Path directory) throws IOException {
    Path file = directory.resolve(LOCK_FILE_NAME);
    FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean success = false;
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        throw new DirectoryLockedException(
            directory,
            "directory "
                + directory
                + " is already open in this JVM (lock file "
                + file
                + "); close the other owner first",
            e);
      }
      if (lock == null) {
        throw new DirectoryLockedException(
            directory,
            "directory "
                + directory
                + " is in use by another process ("
                + holder(file)
                + ", lock file "
                + file
                + ")");
      }
      channel.write(ByteBuffer.wrap(record(currentPid())), 0);
      if (channel.size() > RECORD_BYTES) {
        channel.truncate(RECORD_BYTES); // what a longer record left behind ours
      }
      success = true;
      return new DirectoryLock(directory, channel, lock);
    } finally {
      if (!success) {
        channel.close();
      }
    }
  }

  /** The lock file's record of holder {@code pid}: "pid=", the pid, spaces, a newline. */
  static byte[] record(long pid) {
    byte[] out = new byte[RECORD_BYTES];
    Arrays.fill(out, (byte) ' ');
    byte[] text = ("pid=" + pid).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(text, 0, out, 0, text.length); // at most 23 bytes: a long has 19 digits
    out[RECORD_BYTES - 1] = '\n';
    return out;
  }

  /**
   * This process's id: on Linux read from {@code /proc/self}, a link named by the pid, else {@code
   * ProcessHandle.current()}. Why not always the latter: its first call initializes the JDK's
   * process handling (a native library's state, an executor, a lambda), several milliseconds of
   * every open's start-up that a diagnostic line need not cost.
   */
  static long currentPid() {
    try {
      return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return ProcessHandle.current().pid();
    }
  }

  private static String holder(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
      return text.startsWith("pid=") ? text : "holder unknown";
    } catch (IOException e) {
      return "holder unknown: " + e.getMessage();
    }
  }

  /** The locked directory. */
  public Path directory() {
    return directory;
  }

  /** Whether the lock is still held. */
  public boolean isHeld() {
    return lock.isValid();
  }

  /** Releases the lock. Idempotent. */
  @Override
  public void close() throws IOException {
    channel.close(); // releases the lock too
  }
}
