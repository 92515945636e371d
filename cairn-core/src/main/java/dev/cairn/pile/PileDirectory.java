package dev.cairn.pile;

import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.LogDamage;
import dev.cairn.durability.file.DirectoryLock;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.log.LogLayout;
import dev.cairn.durability.log.LogRecovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Looking at a persistent pile's directory without changing it: for tools ({@code cairn inspect},
 * {@code cairn verify}) and for reading a pile another program wrote; and salvaging a pile whose
 * log is damaged ({@link #salvage}, {@code cairn recover}).
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=inspect}
 */
public final class PileDirectory {

  private PileDirectory() {}

  /**
   * Opens the pile in {@code directory} read-only: it takes the directory's lock, maps the
   * segments, replays the log into memory and writes nothing. Every write throws {@link
   * ReadOnlyPileException}.
   *
   * @throws java.nio.file.NoSuchFileException if the directory holds no pile: it is missing, empty,
   *     holds only other files (the message lists them), or a create of a pile there was
   *     interrupted
   * @throws java.nio.file.NotDirectoryException if {@code directory} is a regular file
   * @throws dev.cairn.durability.CorruptFileException if the directory holds a pile's files without
   *     its superblock {@code pile.sb}
   * @throws dev.cairn.durability.DirectoryLockedException if a process has the pile open
   */
  public static Pile openReadOnly(Path directory, PileOptions options) throws IOException {
    return PersistentStore.open(RealFileLayer.INSTANCE, directory, options, true);
  }

  /**
   * What a pile's directory holds.
   *
   * @param directory the pile's directory
   * @param formatVersion the on-disk format version
   * @param segmentBytes the size of each segment
   * @param stripes the number of allocation stripes
   * @param lastCloseClean whether the pile was closed cleanly (false: it crashed, or is open)
   * @param checkpointLsn where the log resumes after the last checkpoint
   * @param lastCheckpoint when the last checkpoint was written
   * @param logPresent whether the pile has a write-ahead log
   * @param logEndLsn where the log ends
   * @param logRecordsSinceCheckpoint records a recovery would replay
   * @param logBytesSinceCheckpoint bytes of log a recovery would replay
   * @param unfinishedTransactions transactions the log shows begun and never ended (the pile
   *     crashed while they were open): recovery rolls them back, and {@link #stats()} already
   *     leaves them out
   * @param tagBound the tag clock's bound on disk: after a crash the clock restarts there, past
   *     every pointer tag handed out before it; 0 in a file of an earlier build, which recorded
   *     none (a crash then skips the clock by a random amount)
   * @param stats the pile's counters, after that replay
   */
  public record Inspection(
      Path directory,
      int formatVersion,
      long segmentBytes,
      int stripes,
      boolean lastCloseClean,
      long checkpointLsn,
      Instant lastCheckpoint,
      boolean logPresent,
      long logEndLsn,
      long logRecordsSinceCheckpoint,
      long logBytesSinceCheckpoint,
      int unfinishedTransactions,
      long tagBound,
      PileStats stats) {}

  /** Reads the pile in {@code directory} (as {@link #openReadOnly}) and reports on it. */
  public static Inspection inspect(Path directory) throws IOException {
    try (OffHeapPile pile = (OffHeapPile) openReadOnly(directory, PileOptions.defaults())) {
      return inspection(pile);
    }
  }

  /**
   * Checks everything in {@code directory}: superblock, metadata and segment header checksums, the
   * log's records since the checkpoint (each record's CRC32C), every page of every segment file
   * against its CRC32C, then the allocator invariants of every segment ({@link Pile#verify()}).
   *
   * @throws dev.cairn.CairnException describing the first problem: a {@link
   *     dev.cairn.durability.CorruptFileException} names the file and offset, a {@link
   *     PileCorruptionException} the segment, offset and invariant
   */
  public static Inspection verify(Path directory) throws IOException {
    try (OffHeapPile pile = (OffHeapPile) openReadOnly(directory, PileOptions.defaults())) {
      pile.verify(); // every page against its checksum, then the allocator's invariants
      return inspection(pile);
    }
  }

  /**
   * What {@link #salvage} did.
   *
   * @param directory the pile's directory
   * @param damage what was dropped from the damaged log, where the damage was and where the copy of
   *     the damaged log is; null if the log was not damaged and nothing was dropped
   * @param logRecordsReplayed log records recovered (applied) before the damage, or in all
   * @param transactionsRolledBack transactions recovery found unfinished and undid: those open at
   *     the crash, and those whose commit record was dropped
   * @param objectCount values in the pile after the salvage
   */
  public record Salvage(
      Path directory,
      LogDamage damage,
      long logRecordsReplayed,
      int transactionsRolledBack,
      long objectCount) {

    /** Whether the salvage dropped part of a damaged log. */
    public boolean dropped() {
      return damage != null;
    }
  }

  /**
   * Salvages the pile in {@code directory} as {@link #salvage(Path, PileOptions)} does, with
   * default options and the durability that keeps what the pile has: {@link Durability#SYNC} if it
   * has a log, {@link Durability#NONE} if it has none (so that no log is added). For tools ({@code
   * cairn recover}).
   */
  public static Salvage salvage(Path directory) throws IOException {
    boolean hasLog =
        Files.exists(directory.resolve(PileFiles.LOG_DIRECTORY).resolve(LogLayout.META_FILE_NAME));
    return salvage(
        directory,
        PileOptions.builder().durability(hasLog ? Durability.SYNC : Durability.NONE).build());
  }

  /**
   * Opens the pile in {@code directory} salvaging a damaged log, checkpoints what it recovered and
   * closes it. A pile whose log is not damaged is opened and closed as by {@link Pile#open}. A pile
   * whose log is damaged where it had been durable, which {@link Pile#open} refuses with {@link
   * CorruptLogException}, is recovered to a point in time: every write logged before the first
   * damaged record is kept, and that record and everything logged after it are dropped, even
   * records that are intact (they may depend on what was lost); a transaction whose commit was
   * dropped is rolled back. Before the log is changed its files are copied to a directory beside
   * it, {@code wal.damaged-<UTC time>}, which Cairn never deletes. Afterwards the pile opens
   * normally.
   *
   * <p>Values put after the damage are lost, and pointers to them are stale: the application must
   * not keep using pointers it holds from before the salvage without checking them.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=salvage}
   *
   * <p>Thread-safety: takes the directory's lock for its duration, like {@link Pile#open}.
   *
   * @param options as for {@link Pile#open}; a pile with a log should be given a durability with
   *     one ({@link Durability#SYNC} or {@link Durability#PERIODIC}), or the log is retired
   * @throws java.nio.file.NoSuchFileException if the directory holds no pile
   * @throws dev.cairn.durability.DirectoryLockedException if a process has the pile open
   * @throws dev.cairn.durability.CorruptFileException if files other than the log's records are
   *     damaged (a superblock, the checkpoint's metadata or segments, {@code wal.meta}, a missing
   *     log file), which a salvage cannot repair
   * @throws IOException if the files cannot be read or written, or the copy of the damaged log
   *     cannot be made (then nothing was changed)
   */
  public static Salvage salvage(Path directory, PileOptions options) throws IOException {
    Path superblock = directory.resolve(PileFiles.SUPERBLOCK);
    if (!Files.exists(superblock)) {
      throw new NoSuchFileException(superblock.toString(), null, "no pile in " + directory);
    }
    Salvage result;
    try (OffHeapPile pile =
        PersistentStore.open(
            RealFileLayer.INSTANCE, directory, options, false, LogRecovery.SALVAGE)) {
      PersistentStore store = pile.store();
      result =
          new Salvage(
              directory,
              store.salvaged(),
              store.recoveryInfo().recordsReplayed(),
              store.unfinishedTransactions(),
              pile.stats().objectCount());
    }
    return result;
  }

  /**
   * A file of a pile's directory: its path, what it holds, and its size when listed.
   *
   * @param path the file, under the pile's directory ({@code wal/} files under {@code wal})
   * @param kind what the file holds
   * @param bytes its size when {@link #files} listed it
   */
  public record PileFile(Path path, Kind kind, long bytes) {

    /** What a pile's file holds. docs/FORMAT.md, "Persistent pile", describes each. */
    public enum Kind {
      /** {@code pile.sb}: the superblock, the pile's geometry and last checkpoint. */
      SUPERBLOCK,
      /** {@code pile-meta.0} and {@code .1}: checkpoint metadata, written alternately. */
      CHECKPOINT_METADATA,
      /** {@code types.cat}: the catalog of the types the pile's object codecs stored. */
      TYPE_CATALOG,
      /** {@code seg-NNNNN.dat}: one segment's bytes, the values themselves. */
      SEGMENT,
      /** {@code seg-NNNNN.crc}: the page checksums of a segment. */
      PAGE_CHECKSUMS,
      /** {@code wal/wal.meta}: the write-ahead log's own superblock. */
      LOG_METADATA,
      /** {@code wal/wal-NNNN.log}: a file of the write-ahead log's records. */
      LOG,
      /** {@code cairn.lock}: the owner's lock ({@link DirectoryLock}). */
      LOCK
    }
  }

  /**
   * The files of the pile in {@code directory}, by kind (in {@link PileFile.Kind} order), then by
   * name: segments and log files in index order. For tools that size or read a pile's files without
   * knowing their names. Lists names and sizes only: it takes no lock and opens nothing, so a pile
   * that a process has open may change under it. Files a pile does not make, and the temporary
   * files of a create or a checkpoint, are left out.
   *
   * @throws java.nio.file.NoSuchFileException if {@code directory} does not exist
   * @throws java.nio.file.NotDirectoryException if it is not a directory
   */
  public static List<PileFile> files(Path directory) throws IOException {
    List<PileFile> files = new ArrayList<>();
    try (Stream<Path> entries = Files.list(directory)) {
      for (Path entry : entries.toList()) {
        PileFile.Kind kind = kindOf(directory, entry);
        if (kind != null && Files.isRegularFile(entry)) {
          files.add(new PileFile(entry, kind, Files.size(entry)));
        }
      }
    }
    Path log = directory.resolve(PileFiles.LOG_DIRECTORY);
    if (Files.isDirectory(log)) {
      try (Stream<Path> entries = Files.list(log)) {
        for (Path entry : entries.toList()) {
          String name = entry.getFileName().toString();
          PileFile.Kind kind =
              name.equals(LogLayout.META_FILE_NAME)
                  ? PileFile.Kind.LOG_METADATA
                  : isLogFile(name) ? PileFile.Kind.LOG : null;
          if (kind != null && Files.isRegularFile(entry)) {
            files.add(new PileFile(entry, kind, Files.size(entry)));
          }
        }
      }
    }
    files.sort(
        Comparator.comparing(PileFile::kind)
            .thenComparing(file -> file.path().getFileName().toString()));
    return files;
  }

  /** The kind of a file directly in a pile's directory, or null if a pile does not keep it. */
  private static PileFile.Kind kindOf(Path directory, Path entry) {
    String name = entry.getFileName().toString();
    if (name.equals(PileFiles.SUPERBLOCK)) {
      return PileFile.Kind.SUPERBLOCK;
    }
    if (name.equals(PileFiles.metaFile(directory, 0).getFileName().toString())
        || name.equals(PileFiles.metaFile(directory, 1).getFileName().toString())) {
      return PileFile.Kind.CHECKPOINT_METADATA;
    }
    if (name.equals(PileTypeCatalog.FILE_NAME)) {
      return PileFile.Kind.TYPE_CATALOG;
    }
    if (PileFiles.segmentIndexOf(entry) >= 0) {
      return PileFile.Kind.SEGMENT;
    }
    if (PileFiles.pageCrcIndexOf(entry) >= 0) {
      return PileFile.Kind.PAGE_CHECKSUMS;
    }
    if (name.equals(DirectoryLock.LOCK_FILE_NAME)) {
      return PileFile.Kind.LOCK;
    }
    return null;
  }

  /** Whether {@code name} is one the log gives a file of records ({@link LogLayout#fileName}). */
  private static boolean isLogFile(String name) {
    String digits = name.replaceAll("\\D", "");
    return !digits.isEmpty()
        && digits.length() <= 9
        && LogLayout.fileName(Integer.parseInt(digits)).equals(name);
  }

  private static Inspection inspection(OffHeapPile pile) {
    PersistentStore store = pile.store();
    PersistentStore.Recovery recovery = store.recoveryInfo();
    PileFiles.Geometry geometry = store.geometry();
    long checkpointLsn = store.openedState().checkpointLsn();
    return new Inspection(
        store.directory(),
        PileFiles.FORMAT_VERSION,
        geometry.segmentBytes(),
        geometry.stripes(),
        recovery.lastCloseClean(),
        checkpointLsn,
        Instant.ofEpochMilli(geometry.checkpointMillis()),
        store.logEndLsn() > 0 || recovery.recordsReplayed() > 0,
        Math.max(checkpointLsn, store.logEndLsn()),
        recovery.recordsReplayed(),
        recovery.bytesReplayed(),
        store.unfinishedTransactions(),
        store.tagBoundOnDisk(),
        pile.stats());
  }
}
