package dev.cairn.durability.file;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import jdk.jfr.FlightRecorder;

/**
 * The {@link FileLayer} of the operating system, on {@link FileChannel}.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * force           FileChannel.force(false): fdatasync on Linux. It flushes the data and the
 *                 metadata needed to read it back (the size, the block map), not timestamps.
 *                 Preallocated, reused files therefore need no journal commit per force.
 * syncDirectory   FileChannel.open(dir, READ).force(true): fsync of the directory, which makes
 *                 creations, renames and deletions in it durable (Linux; other systems may
 *                 refuse to open a directory, which is then reported as an IOException).
 * preallocate     writes zeros in 1 MiB chunks, so every block is really allocated: no sparse
 *                 file, no SIGBUS under a mapping, no ENOSPC on a later write into the range.
 * reserve         fallocate(2) through FFM when native access is enabled (NativeFiles): the same
 *                 guarantees without writing the zeros; preallocate where that is unavailable.
 * rename          Files.move(ATOMIC_MOVE, REPLACE_EXISTING): rename(2).
 * failed force    the handle remembers the failure and throws from then on (never retry).
 * mapPrivate      FileChannel.map(PRIVATE, arena). When native access is enabled for Cairn's
 *                 module (--enable-native-access), the mapping is handed out as a plain native
 *                 segment over the same address, size and arena (MemorySegment.reinterpret).
 *                 Why: the JDK's memory-access code keeps one type profile per access method for
 *                 the whole JVM. A pile's reads see native segments (volatile piles), heap
 *                 segments (copies, codecs) and, without this, mapped segments: three classes
 *                 make those sites megamorphic, and every access then pays virtual calls (a
 *                 scan of a persistent pile in a JVM that has used a volatile pile can run more
 *                 than twice as slow). The view is as safe as the
 *                 mapping: bounds-checked against the same size, closed with the same arena.
 *                 Without native access the mapped segment itself is returned (no warning is
 *                 printed).
 * }</pre>
 */
public final class RealFileLayer implements FileLayer {

  private static final int ZERO_CHUNK_BYTES = 1 << 20;

  /**
   * Whether this module may call restricted FFM methods without a warning: then mappings are handed
   * out as plain native segments (see the implementation note).
   */
  static final boolean NATIVE_ACCESS = RealFileLayer.class.getModule().isNativeAccessEnabled();

  /** The shared instance; the class holds no state. */
  public static final RealFileLayer INSTANCE = new RealFileLayer();

  private RealFileLayer() {}

  @Override
  public FileHandle open(Path file, OpenMode mode) throws IOException {
    Objects.requireNonNull(file, "file");
    FileChannel channel =
        switch (mode) {
          case READ -> FileChannel.open(file, StandardOpenOption.READ);
          case READ_WRITE ->
              FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
          case CREATE ->
              FileChannel.open(
                  file,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.CREATE);
          case CREATE_NEW ->
              FileChannel.open(
                  file,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.CREATE_NEW);
        };
    return new ChannelHandle(file, channel);
  }

  @Override
  public boolean exists(Path path) {
    return Files.exists(path);
  }

  @Override
  public boolean isDirectory(Path path) {
    return Files.isDirectory(path);
  }

  @Override
  public List<Path> list(Path directory) throws IOException {
    // a directory stream, not Files.list: a stream pipeline's classes and lambdas cost an open
    // several milliseconds of start-up, and an open lists its directories
    List<Path> sorted = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        sorted.add(entry);
      }
    }
    sorted.sort(null);
    return sorted;
  }

  @Override
  public void createDirectories(Path directory) throws IOException {
    Files.createDirectories(directory);
  }

  @Override
  public void delete(Path file) throws IOException {
    Files.deleteIfExists(file);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void syncDirectory(Path directory) throws IOException {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    }
  }

  private static final class ChannelHandle implements FileHandle {
    private final Path path;
    private final FileChannel channel;
    private volatile IOException forceFailure;

    ChannelHandle(Path path, FileChannel channel) {
      this.path = path;
      this.channel = channel;
    }

    private void checkUsable() throws IOException {
      IOException failure = forceFailure;
      if (failure != null) {
        throw new IOException(
            "file " + path + " failed an earlier fsync; it cannot be used", failure);
      }
    }

    @Override
    public Path path() {
      return path;
    }

    @Override
    public long size() throws IOException {
      checkUsable();
      return channel.size();
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
      checkUsable();
      long at = position;
      while (source.hasRemaining()) {
        at += channel.write(source, at);
      }
    }

    @Override
    public void write(MemorySegment source, long position) throws IOException {
      write(source.asByteBuffer(), position);
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
      checkUsable();
      int total = 0;
      while (target.hasRemaining()) {
        int n = channel.read(target, position + total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      return total;
    }

    @Override
    public long read(MemorySegment target, long position) throws IOException {
      long total = 0;
      long size = target.byteSize();
      while (total < size) {
        int chunk = (int) Math.min(size - total, Integer.MAX_VALUE - 8);
        int n = read(target.asSlice(total, chunk).asByteBuffer(), position + total);
        total += n;
        if (n < chunk) {
          break;
        }
      }
      return total;
    }

    @Override
    public void force() throws IOException {
      checkUsable();
      // JFR: recorded only if slow and enabled; made only while JFR runs, since JFR's first event
      // in a JVM costs about a quarter of a second (dev.cairn.pile.FlightRecording)
      FileForceEvent event = FlightRecorder.isInitialized() ? new FileForceEvent() : null;
      if (event != null) {
        event.begin();
      }
      try {
        channel.force(false);
      } catch (IOException e) {
        forceFailure = e;
        throw e;
      }
      if (event != null) {
        event.end();
      }
      if (event != null && event.shouldCommit()) {
        event.file = path.toString();
        event.commit();
      }
    }

    @Override
    public MemorySegment mapPrivate(long sizeBytes, java.lang.foreign.Arena arena)
        throws IOException {
      checkUsable();
      long size = channel.size();
      if (size < sizeBytes) { // a mapping past the end would fault (SIGBUS) instead of throwing
        throw new EOFException(
            "cannot map " + sizeBytes + " bytes of " + path + ": the file has " + size);
      }
      MemorySegment mapped = channel.map(FileChannel.MapMode.PRIVATE, 0, sizeBytes, arena);
      return NATIVE_ACCESS ? asPlainNative(mapped, arena) : mapped;
    }

    @Override
    public void truncate(long sizeBytes) throws IOException {
      checkUsable();
      channel.truncate(sizeBytes);
    }

    @Override
    public void reserve(long sizeBytes) throws IOException {
      checkUsable();
      if (channel.size() >= sizeBytes) {
        return;
      }
      if (NativeFiles.available() && NativeFiles.allocate(path, sizeBytes)) {
        if (channel.size() != sizeBytes) {
          throw new EOFException(
              "reserving " + path + " to " + sizeBytes + " bytes left " + channel.size());
        }
        return;
      }
      preallocate(sizeBytes); // no fallocate here: zeros, written
    }

    @Override
    public void preallocate(long sizeBytes) throws IOException {
      checkUsable();
      long size = channel.size();
      if (size >= sizeBytes) {
        return;
      }
      ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK_BYTES, sizeBytes - size));
      while (size < sizeBytes) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), sizeBytes - size));
        write(zeros, size);
        size += zeros.limit();
      }
      if (channel.size() != sizeBytes) {
        throw new EOFException(
            "preallocating " + path + " to " + sizeBytes + " bytes left " + channel.size());
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** {@code mapped} as a native segment of the same address, size and lifetime. */
  // reinterpret is restricted, and meant here: the same memory, size and arena as mapped; called
  // only when this module has native access (NATIVE_ACCESS)
  @SuppressWarnings("restricted")
  static MemorySegment asPlainNative(MemorySegment mapped, java.lang.foreign.Arena arena) {
    return MemorySegment.ofAddress(mapped.address()).reinterpret(mapped.byteSize(), arena, null);
  }
}
