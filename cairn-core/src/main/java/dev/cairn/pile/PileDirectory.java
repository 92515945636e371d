package dev.cairn.pile;

import dev.cairn.durability.RealFileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Looking at a persistent pile's directory without changing it: for tools ({@code cairn
 * inspect}, {@code cairn verify}) and for reading a pile another program wrote.
 *
 * {@snippet :
 * PileDirectory.Inspection info = PileDirectory.inspect(Path.of("data/users"));
 * System.out.println(info.stats().objectCount() + " values, clean close: " + info.lastCloseClean());
 * }
 */
public final class PileDirectory {

  private PileDirectory() {}

  /**
   * Opens the pile in {@code directory} read-only: it takes the directory's lock, maps the
   * segments, replays the log into memory and writes nothing. Every write throws {@link
   * IllegalStateException}.
   *
   * @throws java.nio.file.NoSuchFileException if the directory holds no pile
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
   * Checks everything in {@code directory}: superblock, metadata and segment header
   * checksums, the log's records since the checkpoint (each record's CRC32C), every page of
   * every segment file against its CRC32C, then the allocator invariants of every segment
   * ({@link Pile#verify()}).
   *
   * @throws dev.cairn.pile.PileException describing the first problem: a {@link
   *     dev.cairn.durability.CorruptFileException} names the file and offset, a {@link
   *     PileCorruptionException} the segment, offset and invariant
   */
  public static Inspection verify(Path directory) throws IOException {
    try (OffHeapPile pile = (OffHeapPile) openReadOnly(directory, PileOptions.defaults())) {
      pile.store().verifyPageChecksums();
      pile.verify();
      return inspection(pile);
    }
  }

  private static Inspection inspection(OffHeapPile pile) {
    PersistentStore store = pile.store();
    PersistentStore.Recovery recovery = store.recoveryInfo();
    PileFiles.Geometry geometry = store.geometry();
    long checkpointLsn = store.openedState().checkpointLsn();
    return new Inspection(store.directory(), PileFiles.FORMAT_VERSION, geometry.segmentBytes(),
        geometry.stripes(), recovery.lastCloseClean(), checkpointLsn,
        Instant.ofEpochMilli(geometry.checkpointMillis()),
        store.logEndLsn() > 0 || recovery.recordsReplayed() > 0,
        Math.max(checkpointLsn, store.logEndLsn()), recovery.recordsReplayed(),
        recovery.bytesReplayed(), store.unfinishedTransactions(), store.tagBoundOnDisk(),
        pile.stats());
  }
}
