package dev.cairn.pile;

import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.LogOptions;
import dev.cairn.durability.log.LogSync;
import dev.cairn.durability.log.WriteAheadLog;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The making of a new persistent pile's files in an empty directory, in the order that lets a crash
 * at any step be told from a pile and undone (DirectoryContents, C1-C4): the create marker first,
 * then the metadata, the type catalog and the log, the superblock last, and the marker removed once
 * the pile exists. {@link PersistentStore}'s open calls it when it finds no pile.
 */
final class PileCreation {
  private PileCreation() {}

  /**
   * A new pile in {@code directory}, which is empty (DirectoryContents checked it under the lock):
   * the marker first, then the metadata, the type catalog and the log, the superblock last (see
   * DirectoryContents, C1-C4). A failure removes everything this create made.
   *
   * @throws FileSystemException if a file cannot be created (a full disk, say): the message names
   *     the directory, the cause and the bytes a new pile needs
   */
  static void create(FileLayer layer, Path directory, PileOptions options) throws IOException {
    boolean success = false;
    boolean creatingLog = false;
    try {
      DirectoryContents.writeMarker(layer, directory);
      long tagKey = new SecureRandom().nextLong() | 1;
      Geometry geometry =
          new Geometry(
              options.stripes(),
              options.segmentBytes(),
              tagKey,
              0,
              0,
              0,
              System.currentTimeMillis(),
              TagClock.randomOrigin());
      MemorySegment meta = MetaImage.empty(options.stripes(), options.segmentBytes());
      Checkpointer.writeMetaFile(layer, PileFiles.metaFile(directory, 0), meta);
      PileTypeCatalog.create(layer, directory);
      geometry =
          geometry.withMeta(
              0, (int) meta.byteSize(), PileFiles.crc(meta), geometry.checkpointMillis());
      layer.syncDirectory(directory);
      if (options.durability() != Durability.NONE) {
        creatingLog = true; // its exception names the log's bytes itself
        WriteAheadLog.create(
            layer, directory.resolve(PileFiles.LOG_DIRECTORY), logOptions(options));
      }
      Superblock.create(layer, directory.resolve(PileFiles.SUPERBLOCK), 0, true, geometry.encode())
          .close();
      success = true;
    } catch (IOException e) {
      String removed = removeCreated(layer, directory);
      long logBytes = options.logFileBytes() * options.logFileCount();
      String advice =
          options.durability() == Durability.NONE
              ? ""
              : (creatingLog
                      ? ""
                      : " A new pile needs about "
                          + logBytes
                          + " bytes there, nearly"
                          + " all of it for its write-ahead log ("
                          + options.logFileCount()
                          + " files of "
                          + options.logFileBytes()
                          + " bytes).")
                  + " Free disk space, or make the log smaller with PileOptions.logFileBytes and"
                  + " logFileCount.";
      FileSystemException failed =
          new FileSystemException(
              directory.toString(),
              null,
              "could not create a pile: " + e.getMessage() + ". " + removed + advice);
      failed.initCause(e);
      throw failed;
    } finally {
      if (!success) {
        removeCreated(layer, directory); // a no-op after the catch above
      }
    }
    DirectoryContents.removeMarker(layer, directory); // the pile exists from here on
  }

  /** After a failed create: deletes what it made; says whether that worked. */
  private static String removeCreated(FileLayer layer, Path directory) {
    try {
      if (layer.exists(directory.resolve(DirectoryContents.CREATE_MARKER))) {
        DirectoryContents.removeMadeByCreate(layer, directory);
      }
      return "Everything this create made was removed.";
    } catch (IOException | RuntimeException e) {
      return "Removing what this create made failed too ("
          + e.getMessage()
          + "); the next open"
          + " removes it and creates the pile again.";
    }
  }

  /** Creates the missing directories of {@code directory}, each one's name durable. */
  static void createDirectoriesDurably(FileLayer layer, Path directory) throws IOException {
    Path absolute = directory.toAbsolutePath();
    List<Path> missing = new ArrayList<>();
    for (Path p = absolute; p != null && !layer.exists(p); p = p.getParent()) {
      missing.add(p);
    }
    layer.createDirectories(absolute);
    for (Path p : missing) {
      if (p.getParent() != null) {
        layer.syncDirectory(p.getParent());
      }
    }
  }

  /** The log's settings for a pile's options: at its creation, and at every open. */
  static LogOptions logOptions(PileOptions options) {
    return LogOptions.builder()
        .fileBytes(options.logFileBytes())
        .fileCount(options.logFileCount())
        .bufferBytes(16 << 20)
        .mode(options.durability() == Durability.SYNC ? LogSync.ON_COMMIT : LogSync.PERIODIC)
        .period(options.syncIntervalMillis(), TimeUnit.MILLISECONDS)
        .build();
  }
}
