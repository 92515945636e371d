package dev.cairn.pile;

import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * Reads a persistent pile's segment files ahead of use ({@link Pile#prefetch}), so that reads after
 * a reopen hit the page cache.
 */
final class SegmentPrefetch {

  private static final int READ_BYTES = 1 << 20;

  private SegmentPrefetch() {}

  /**
   * Reads the files of segments {@code indexes} on a daemon thread, in 1 MiB reads into one reused
   * buffer, until done or {@code stop} says so. Why through the files, not the mapping: a read of
   * the file fills the page cache the mapping faults from, and it never touches the mapped memory,
   * so a segment released or a pile closed meanwhile cannot make it fail.
   */
  static CompletableFuture<Void> start(
      FileLayer layer, Path directory, List<Integer> indexes, BooleanSupplier stop) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("cairn-prefetch " + directory)
        .start(
            () -> {
              try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                ByteBuffer buffer = arena.allocate(READ_BYTES).asByteBuffer();
                for (int index : indexes) {
                  if (stop.getAsBoolean()) {
                    break;
                  }
                  Path file = PileFiles.segmentFile(directory, index);
                  try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
                    long position = 0;
                    int read;
                    do {
                      buffer.clear();
                      read = handle.read(buffer, position);
                      position += Math.max(read, 0);
                    } while (read > 0 && !stop.getAsBoolean());
                  } catch (NoSuchFileException retiredMeanwhile) {
                    // a checkpoint deleted the file of a segment released since the list was made
                  }
                }
                done.complete(null);
              } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
              }
            });
    return done;
  }
}
