package dev.cairn.pile;

import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.log.LogLayout;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Reads ahead, on a short-lived thread of its own, the small pieces that the open of a persistent
 * pile then reads one after another: the header of each segment file, then the log's {@code
 * wal.meta} and the header of each log file.
 *
 * <p>Why: from a cold page cache (after a reboot) each of these is a read from the disk, and the
 * open waited for them one at a time, about thirty in a row, between the mapping and decoding it
 * does itself. Read ahead, they are in the page cache when the open reads them, and the disk's
 * latency overlaps the open's own work instead of adding to it.
 *
 * <p>Only a hint: it changes nothing, keeps no handle open, and ignores every failure, which the
 * open's own reads meet again and report. Only on the real file system: a {@link FileLayer} under
 * test may count or fail operations, and a second thread would make its faults land at random.
 */
final class OpenReadAhead {
  /** A page: the segment header and a log file's header each lie in the first. */
  private static final int HEAD_BYTES = 4096;

  /** At most this many log files are looked for (a log has 16 by default). */
  private static final int MAX_LOG_FILES = 1024;

  private OpenReadAhead() {}

  /**
   * Starts reading ahead the headers of {@code segments} in {@code directory}, then the log in
   * {@code directory}'s {@code wal/}; returns at once. Does nothing unless {@code layer} is the
   * real file system.
   */
  static void start(FileLayer layer, Path directory, int[] segments) {
    if (!(layer instanceof RealFileLayer)) {
      return;
    }
    // a thread of its own, not OwnThread's pool: a restart that only reads would otherwise set up
    // the pool (its classes, a lambda) for this alone, milliseconds of a cold JVM's open; and a
    // class rather than a lambda for the same reason
    Thread reader =
        new Thread(new Reader(layer, directory, segments), "cairn-read-ahead " + directory);
    reader.setDaemon(true);
    reader.start();
  }

  /** The read-ahead's task. */
  private record Reader(FileLayer layer, Path directory, int[] segments) implements Runnable {
    @Override
    public void run() {
      read(layer, directory, segments);
    }
  }

  /**
   * Reads the first page of each file {@link #start} names, here; returns how many it read. Never
   * throws for a file it cannot read.
   */
  static int read(FileLayer layer, Path directory, int[] segments) {
    MemorySegment head = MemorySegment.ofArray(new byte[HEAD_BYTES]);
    int read = 0;
    for (int index : segments) {
      read += readHead(layer, PileFiles.segmentFile(directory, index), head) ? 1 : 0;
    }
    Path log = directory.resolve(PileFiles.LOG_DIRECTORY);
    read += readHead(layer, log.resolve(LogLayout.META_FILE_NAME), head) ? 1 : 0;
    for (int slot = 0; slot < MAX_LOG_FILES; slot++) {
      if (!readHead(layer, log.resolve(LogLayout.fileName(slot)), head)) {
        break; // the first slot missing: the log has no more files
      }
      read++;
    }
    return read;
  }

  /** Reads the first page of {@code file}; false if it could not. */
  private static boolean readHead(FileLayer layer, Path file, MemorySegment head) {
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      handle.read(head, 0);
      return true;
    } catch (IOException | RuntimeException e) {
      return false; // the open's own read of it says what is wrong
    }
  }
}
