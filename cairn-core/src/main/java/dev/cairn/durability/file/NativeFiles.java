package dev.cairn.durability.file;

import dev.cairn.memory.NativeCalls;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * {@code fallocate(2)}, where Cairn may call native code: on Linux, with native access enabled for
 * Cairn's module ({@code --enable-native-access}). Elsewhere {@link #available()} is false and
 * {@link RealFileLayer} writes zeros instead.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why: the alternative lays a new 64 MiB segment file out by writing 64 MiB of zeros and
 * forcing them, in the checkpoint that first writes the segment. On the VM of
 * docs/BENCHMARKS.md that burst of I/O stops the whole machine, every thread of every process,
 * for about 20 ms (docs/probes/sleep_jitter.c), the longest put stall when checkpoints come a
 * second apart (docs/BENCHMARKS.md: "Segment files fallocated or written with zeros").
 * fallocate reserves the same blocks in the file system's metadata alone: a later
 * write into the range cannot fail for lack of space, and reads (a mapping's too) see zeros.
 *
 * How: FileChannel does not show its descriptor, so the file is opened once more by path
 * (open(2), O_WRONLY | O_CLOEXEC), fallocated (mode 0, which also extends the size) and closed.
 * The caller's channel sees the new size at once; force() on it makes size and blocks durable.
 *
 * Not for the write-ahead log: fallocated blocks stay "unwritten" until first written, and the
 * first write into each then costs the file system a journal commit at the next fdatasync, as
 * a sparse file's does, which a commit in ON_COMMIT mode would wait for through the log's whole
 * first lap (why such logs are written with zeros: docs/DURABILITY.md). Segment files are
 * written at checkpoints only, where one more journal commit per force is small.
 *
 * Constants: O_WRONLY = 1 and O_CLOEXEC = 0x80000 are those of Linux on x86-64 and AArch64;
 * EOPNOTSUPP = 95 and ENOSYS = 38 (file systems without fallocate) make allocate() return
 * false, and the caller falls back to writing zeros. Any other errno (ENOSPC = 28 above all)
 * is an IOException naming the file.
 * }</pre>
 */
final class NativeFiles {
  /**
   * System property: {@code -Dcairn.fallocate=false} makes {@link #available()} false (zeros are
   * written instead), so that benchmarks can compare both in one build.
   */
  static final String DISABLE_PROPERTY = "cairn.fallocate";

  private static final int O_WRONLY = 1;
  private static final int O_CLOEXEC = 0x80000;
  private static final int EOPNOTSUPP = 95;
  private static final int ENOSYS = 38;

  private static final MethodHandle OPEN;
  private static final MethodHandle FALLOCATE;
  private static final MethodHandle CLOSE;

  static {
    MethodHandle open = null;
    MethodHandle fallocate = null;
    MethodHandle close = null;
    if (NativeCalls.unavailableBecause() == null
        && Boolean.parseBoolean(System.getProperty(DISABLE_PROPERTY, "true"))) {
      try {
        open =
            NativeCalls.bindWithErrno(
                "open",
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        fallocate =
            NativeCalls.bindWithErrno(
                "fallocate",
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG));
        close =
            NativeCalls.bind(
                "close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
      } catch (RuntimeException | Error e) {
        open = null; // not bound: callers write zeros
      }
    }
    OPEN = open;
    FALLOCATE = open == null ? null : fallocate;
    CLOSE = open == null ? null : close;
  }

  private NativeFiles() {}

  /** Whether {@link #allocate} can be tried here. */
  static boolean available() {
    return OPEN != null;
  }

  /**
   * Reserves the blocks of {@code file} up to {@code sizeBytes}, growing it to that size if it is
   * shorter. Returns false, having changed nothing, if the file system has no fallocate.
   *
   * @throws IOException if the file cannot be opened or the space cannot be reserved (a full disk
   *     above all)
   * @throws IllegalStateException if {@link #available()} is false
   */
  static boolean allocate(Path file, long sizeBytes) throws IOException {
    if (!available()) {
      throw new IllegalStateException("fallocate is not available here");
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = NativeCalls.callState(arena);
      MemorySegment path = arena.allocateFrom(file.toString());
      int fd = (int) OPEN.invokeExact(state, path, O_WRONLY | O_CLOEXEC);
      if (fd < 0) {
        throw new IOException(
            "cannot open " + file + " to reserve its space: errno " + errno(state));
      }
      try {
        int result = (int) FALLOCATE.invokeExact(state, fd, 0, 0L, sizeBytes);
        if (result != 0) {
          int error = errno(state);
          if (error == EOPNOTSUPP || error == ENOSYS) {
            return false;
          }
          throw new IOException(
              "cannot reserve "
                  + sizeBytes
                  + " bytes for "
                  + file
                  + ": errno "
                  + error
                  + (error == 28 ? " (no space left on device)" : ""));
        }
        return true;
      } finally {
        int ignored = (int) CLOSE.invokeExact(fd); // opened for fallocate only: nothing to flush
      }
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) { // invokeExact declares Throwable; the handles throw nothing else
      throw new IllegalStateException("fallocate call failed: " + e, e);
    }
  }

  private static int errno(MemorySegment state) {
    return NativeCalls.errno(state);
  }
}
