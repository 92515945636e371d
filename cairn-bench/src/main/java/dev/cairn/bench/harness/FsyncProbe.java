package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * The disk's raw durable-write latency: for about a second, write 4 KiB into a preallocated file
 * and {@code FileChannel.force(false)} (fdatasync), as the pile's log does for each group commit,
 * and report the median. A commit cannot beat it, and a group commit's rate per thread is bounded
 * by its inverse; the bench reports it beside the commit figures so they can be read against it.
 *
 * <p>The file is preallocated and written in place, as the log's files are, so that a force flushes
 * data only, not a growing file's size.
 */
final class FsyncProbe {
  private static final int WRITE_BYTES = 4096;
  private static final int SLOTS = 256; // a 1 MiB file, written round-robin

  private FsyncProbe() {}

  /** Median microseconds of a 4 KiB write plus force, in {@code directory}, over {@code time}. */
  static double medianMicros(Path directory, Duration time) throws IOException {
    Path file = directory.resolve(BenchDirectory.FSYNC_PROBE_FILE);
    Histogram nanos = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
    try (FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      ByteBuffer block = ByteBuffer.allocateDirect(WRITE_BYTES);
      for (int slot = 0; slot < SLOTS; slot++) {
        write(channel, block, slot);
      }
      channel.force(true); // the preallocation, size included, is durable before timing
      long deadline = System.nanoTime() + time.toNanos();
      for (int i = 0; System.nanoTime() < deadline || i < 10; i++) {
        block.putLong(0, i); // new bytes each time: a write of unchanged bytes is still a write
        long start = System.nanoTime();
        write(channel, block, i % SLOTS);
        channel.force(false);
        nanos.recordValue(Math.min(System.nanoTime() - start, nanos.getHighestTrackableValue()));
      }
    } finally {
      Files.deleteIfExists(file);
    }
    return nanos.getValueAtPercentile(50) / 1000.0;
  }

  private static void write(FileChannel channel, ByteBuffer block, int slot) throws IOException {
    block.clear();
    long position = (long) slot * WRITE_BYTES;
    while (block.hasRemaining()) {
      position += channel.write(block, position);
    }
  }
}
