package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.LogOptions;
import dev.cairn.durability.log.LogReader;
import dev.cairn.durability.log.LogRecovery;
import dev.cairn.durability.log.RecordVisitor;
import dev.cairn.durability.log.ScanResult;
import dev.cairn.durability.log.WriteAheadLog;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Restores a persistent pile's memory at open: the checkpoint's metadata and segment files, the
 * log's records since the checkpoint, and the undo of transactions the log left unfinished. Used
 * once, by {@link PersistentStore#open}, on the opening thread, before the pile is used.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Recovery at open: newest valid superblock (PersistentStore.open), its metadata file (CRC
 * checked: readMeta), map every segment it lists (headers checked; pages against their
 * checksums when first read: load), replay the log from C (Journal records: table changes,
 * ranges, counters, heads; participants' and roots' records: replay), free the allocations of
 * transactions with no end record (undoUnfinished: logged, in the room LogAdmission's undo rule
 * kept for it; unlogged, then checkpointed before open returns, if a log written without that
 * room has none), then checkpoint (PersistentStore.recover). Time is bounded by the log since
 * C. A read-only open does the same in memory and writes nothing.
 *
 * A checkpoint cut short after it wrote pages in place (checkpointWasCut) leaves pages that may
 * not match their checksums until the replay rewrites them: the replay then takes them as they
 * are (RedoReplay.checkBeforeRewrite). Whether it must is told by the files:
 *   CC1 A checkpoint writes the metadata slot the superblock does not name, forced, before its
 *       first page in place. So from the moment a page may differ from its checksum, that slot
 *       holds a valid metadata file with a checkpoint LSN at or past the current one, until a
 *       later checkpoint writes the slot again.
 *   CC2 That later write goes over the old bytes and is forced only after: a crash in it
 *       leaves a torn file that tells nothing, while the pages the cut checkpoint wrote still
 *       differ from their checksums (the open whose checkpoint it was rewrote them in memory
 *       only). So an open that found the cut (cutBehind) records it in the superblock
 *       (PilePayloadLayout.FLAG_CUT_CHECKPOINT, Checkpointer.recordCutCheckpoint) before its
 *       first checkpoint, and the flag stays until a checkpoint completes: superblock writes
 *       that keep the checkpoint keep the payload (TagReservations), and the checkpoint that
 *       completes has written every page the replay rewrote, with its checksum, and clears it.
 *       A crash in between finds the flag, whatever the metadata slot holds.
 *
 * Why this class holds the pile itself, not only its segment table: its one job is to restore
 * the pile's whole state (segment table, stripes' counters and free lists, roots, participants)
 * and to undo allocations through the pile's own free path.
 * }</pre>
 */
final class PileRecovery {

  private final FileLayer layer;
  private final Path directory;
  private final OffHeapPile pile;
  private final long segmentBytes;
  private final boolean readOnly;
  private final RedoReplay replay;
  // allocations of transactions with no commit or end record yet, by transaction id
  private final Map<Long, List<long[]>> unfinished = new HashMap<>();
  private boolean cutBehind; // see trustRewrittenPages

  PileRecovery(
      FileLayer layer, Path directory, OffHeapPile pile, PileOptions options, boolean readOnly) {
    this.layer = layer;
    this.directory = directory;
    this.pile = pile;
    this.segmentBytes = options.segmentBytes();
    this.readOnly = readOnly;
    this.replay =
        new RedoReplay(
            pile.segmentTable(), pile.stripes(), options.segmentBytes(), options.hugePages());
  }

  // =========================================================================================
  // the checkpoint

  /**
   * Refuses files a checkpoint without a log left half written: the superblock's {@link
   * PilePayloadLayout#FLAG_UNLOGGED_CHECKPOINT}.
   */
  static void refuseUnloggedCheckpointCut(Path superblockFile, byte[] payload) {
    int flags = Geometry.flagsOf(payload);
    if ((flags & PilePayloadLayout.FLAG_UNLOGGED_CHECKPOINT) != 0) {
      throw new CorruptFileException(
          superblockFile,
          PilePayloadLayout.FLAGS_OFFSET,
          "a checkpoint of a pile without a log (durability NONE) was interrupted by a crash while"
              + " it wrote segment files in place; they hold a mix of two states and no log can"
              + " repair them");
    }
  }

  /**
   * Whether a checkpoint after the current one was cut short once it could have written pages in
   * place: it writes the metadata slot the superblock does not name, forced, before its first
   * in-place page, so a valid metadata file there with a checkpoint LSN at or past the current one
   * says it may have. Such pages may not match their checksums (the checkpoint wrote the one and
   * not the other) until the log's replay rewrites them (RedoReplay.checkBeforeRewrite).
   */
  static boolean checkpointWasCut(
      FileLayer layer, Path directory, Geometry geometry, long checkpointLsn) throws IOException {
    Path file = PileFiles.metaFile(directory, 1 - geometry.metaSlot());
    MemorySegment bytes;
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      long size = handle.size();
      if (size < MetaLayout.HEADER_BYTES + MetaLayout.CRC_LENGTH
          || size
              > MetaLayout.fileBytes(
                  Pointers.MAX_SEGMENTS,
                  geometry.stripes(),
                  RootDirectory.MAX_SECTION_BYTES,
                  ParticipantRegistry.MAX_SECTION_BYTES)) {
        return false;
      }
      bytes = MemorySegment.ofArray(new byte[(int) size]);
      if (handle.read(bytes, 0) < size) {
        return false;
      }
    } catch (NoSuchFileException never) {
      return false;
    }
    long end = bytes.byteSize() - MetaLayout.CRC_LENGTH;
    return bytes.get(Journal.U64, MetaLayout.MAGIC_OFFSET) == MetaLayout.MAGIC
        && bytes.get(Journal.U32, end) == PileFiles.crc(bytes.asSlice(0, end))
        && bytes.get(Journal.U64, MetaLayout.CHECKPOINT_LSN_OFFSET) >= checkpointLsn;
  }

  /**
   * Whether the checkpoint {@code state} names was followed by one cut short once it could have
   * written pages in place: the superblock's flag says so (an earlier open found the cut, CC2), or
   * the metadata slot it does not name ({@link #checkpointWasCut}, CC1). Never after a clean close.
   */
  static boolean cutBehind(
      FileLayer layer, Path directory, Superblock.State state, Geometry geometry)
      throws IOException {
    if (state.cleanShutdown()) {
      return false;
    }
    return (Geometry.flagsOf(state.payload()) & PilePayloadLayout.FLAG_CUT_CHECKPOINT) != 0
        || checkpointWasCut(layer, directory, geometry, state.checkpointLsn());
  }

  /** See {@link #cutBehind}: set before the first record is replayed. */
  void trustRewrittenPages(boolean trust) {
    cutBehind = trust;
    replay.trustRewrittenPages(trust);
    pile.regions().trustRewrittenPages(trust); // the participants' replay rewrites regions
  }

  /** Whether this recovery follows a checkpoint cut short while it wrote pages in place. */
  boolean cutBehind() {
    return cutBehind;
  }

  /** The metadata file of the current checkpoint, checked against the superblock. */
  static MemorySegment readMeta(
      FileLayer layer, Path directory, Geometry geometry, long checkpointLsn) throws IOException {
    Path file = PileFiles.metaFile(directory, geometry.metaSlot());
    MemorySegment bytes = MemorySegment.ofArray(new byte[geometry.metaLength()]);
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      long read = handle.read(bytes, 0);
      if (read < bytes.byteSize()) {
        throw new CorruptFileException(
            file,
            read,
            "metadata file truncated: " + read + " bytes, the superblock says " + bytes.byteSize());
      }
    } catch (NoSuchFileException e) {
      throw new CorruptFileException(
          file, 0, "metadata file of the current checkpoint is missing", e);
    }
    if (PileFiles.crc(bytes) != geometry.metaCrc()) {
      throw new CorruptFileException(file, 0, "metadata checksum does not match the superblock's");
    }
    MetaImage.check(file, bytes, geometry, checkpointLsn);
    return bytes;
  }

  /** Maps every segment the metadata lists and restores every stripe's state. */
  void load(Path metaFile, MemorySegment meta) throws IOException {
    int tableCount = meta.get(Journal.U32, MetaLayout.TABLE_COUNT_OFFSET);
    int[] segments = new int[tableCount];
    for (int i = 0; i < tableCount; i++) {
      segments[i] =
          meta.get(Journal.U32, MetaLayout.HEADER_BYTES + (long) i * MetaLayout.TABLE_ENTRY_BYTES);
    }
    OpenReadAhead.start(layer, directory, segments);
    long at = MetaLayout.HEADER_BYTES;
    for (int i = 0; i < tableCount; i++, at += MetaLayout.TABLE_ENTRY_BYTES) {
      int index = meta.get(Journal.U32, at);
      int owner = meta.get(Journal.U32, at + MetaLayout.TABLE_OWNER_OFFSET);
      pile.segmentTable().install(mapSegment(index), Stripe.byId(pile.stripes(), owner - 1));
    }
    for (int s = 0; s < pile.stripeCount(); s++, at += MetaLayout.STRIPE_BYTES) {
      Stripe stripe = pile.stripe(s);
      stripe.readState(meta, at);
      for (int c = 0; c < SizeClasses.COUNT; c++) {
        stripe.restoreHead(c, meta.get(Journal.U64, at + Stripe.STATE_BYTES + 8L * c));
      }
    }
    int rootsBytes = meta.get(Journal.U32, MetaLayout.ROOTS_BYTES_OFFSET);
    pile.rootDirectory().load(metaFile, meta, at, rootsBytes);
    pile.participants()
        .open(
            metaFile,
            meta,
            at + rootsBytes,
            meta.get(Journal.U32, MetaLayout.STATES_BYTES_OFFSET),
            meta.get(Journal.U64, MetaLayout.CHECKPOINT_LSN_OFFSET),
            readOnly,
            directory);
  }

  private NativeSegment mapSegment(int index) throws IOException {
    Path file = PileFiles.segmentFile(directory, index);
    Arena arena = Arena.ofShared();
    boolean success = false;
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ_WRITE)) {
      // the header by a plain read: a fault through the mapping would read ahead megabytes
      MemorySegment header = MemorySegment.ofArray(new byte[BlockLayout.SEGMENT_HEADER_BYTES]);
      handle.read(header, 0);
      PileFiles.checkSegmentHeader(file, header, index, segmentBytes);
      MemorySegment memory = handle.mapPrivate(segmentBytes, arena);
      NativeSegment segment = NativeSegment.of(index, arena, memory);
      segment.trackDirtyPages();
      segment.setHasFile(true);
      // each page is checked against its checksum when first read, not here: the open stays
      // instant, and no read returns a page damaged on disk (PageCheck)
      PageCheck.attach(segment, new SegmentChecksums(layer, directory, index, segmentBytes));
      success = true;
      return segment;
    } catch (NoSuchFileException e) {
      throw new CorruptFileException(
          file, 0, "segment file listed by the checkpoint is missing", e);
    } catch (EOFException e) {
      throw new CorruptFileException(file, 0, "segment file is truncated: " + e.getMessage(), e);
    } finally {
      if (!success) {
        arena.close();
      }
    }
  }

  // =========================================================================================
  // the log

  /** A read-only open: replays the log in {@code logDirectory} from {@code fromLsn}, in memory. */
  ScanResult scanLog(Path logDirectory, long fromLsn) throws IOException {
    try (LogReader reader = LogReader.open(layer, logDirectory)) {
      return reader.scan(fromLsn, replayer);
    }
  }

  /**
   * Opens the log in {@code logDirectory}, replaying it from the checkpoint of {@code state}; a
   * clean close checkpointed at the log's end, so the scan need not look past it.
   *
   * @throws CorruptLogException if the log is damaged where it had been durable, with advice
   */
  WriteAheadLog openLog(
      Path logDirectory, LogOptions logOptions, Superblock.State state, LogRecovery logRecovery)
      throws IOException {
    try {
      return WriteAheadLog.open(
          layer,
          logDirectory,
          logOptions,
          state.checkpointLsn(),
          state.cleanShutdown() ? state.checkpointLsn() : -1,
          logRecovery,
          replayer);
    } catch (CorruptLogException e) {
      throw e.withAdvice(
          "check the storage; restore from a backup, or salvage the pile with"
              + " `cairn recover "
              + directory
              + "` or PileDirectory.salvage(directory, options),"
              + " which recovers every write before lsn "
              + e.lsn()
              + ", drops that record and"
              + " everything logged after it, and keeps a copy of the damaged log");
    }
  }

  /** The log's replay callback: {@link #replay}. A class, not this::replay (OffHeapPile). */
  private final RecordVisitor replayer =
      new RecordVisitor() {
        @Override
        public void accept(long lsn, long endLsn, int type, MemorySegment payload) {
          replay(lsn, type, payload);
        }
      };

  /** Applies one log record to the pile (the log's replay callback). */
  private void replay(long lsn, int type, MemorySegment payload) {
    try {
      switch (type) {
        case Journal.TYPE_OP -> replay.applyOp(payload);
        case Journal.TYPE_PURGE -> replay.applyPurge();
        case Journal.TYPE_TX_ALLOC -> {
          replay.applyOp(payload.asSlice(RedoLayout.TX_ALLOC_PREFIX_BYTES));
          unfinished
              .computeIfAbsent(
                  payload.get(Journal.U64, RedoLayout.TX_ID_OFFSET), id -> new ArrayList<>())
              .add(
                  new long[] {
                    payload.get(Journal.U32, RedoLayout.TX_ALLOC_KIND_OFFSET),
                    payload.get(Journal.U64, RedoLayout.TX_ALLOC_POINTER_OFFSET)
                  });
        }
        case Journal.TYPE_TX_COMMIT -> {
          int count = payload.get(Journal.U32, RedoLayout.TX_COMMIT_COUNT_OFFSET);
          int attachments = payload.get(Journal.U32, RedoLayout.TX_COMMIT_ATTACHMENTS_OFFSET);
          long at = RedoLayout.TX_COMMIT_PREFIX_BYTES;
          for (int i = 0; i < count; i++) {
            long length =
                Integer.toUnsignedLong(
                    payload.get(Journal.U32, at + RedoLayout.TX_COMMIT_OP_LENGTH_OFFSET));
            replay.applyOp(payload.asSlice(at + RedoLayout.TX_COMMIT_OP_HEADER_BYTES, length));
            at += RedoLayout.TX_COMMIT_OP_HEADER_BYTES + length;
          }
          for (int i = 0; i < attachments; i++) {
            at += pile.participants().replay(lsn, payload.asSlice(at), readOnly, directory);
          }
          unfinished.remove(payload.get(Journal.U64, RedoLayout.TX_ID_OFFSET));
        }
        case Journal.TYPE_PARTICIPANT ->
            pile.participants().replay(lsn, payload, readOnly, directory);
        case Journal.TYPE_PARTICIPANT_OP -> { // the pile's part first, as it was written
          replay.applyOp(payload.asSlice(ParticipantRegistry.recordBytes(payload)));
          pile.participants().replay(lsn, payload, readOnly, directory);
        }
        case Journal.TYPE_TX_END ->
            unfinished.remove(payload.get(Journal.U64, RedoLayout.TX_ID_OFFSET));
        case Journal.TYPE_ROOT -> pile.rootDirectory().replay(payload);
        // (replay runs while the log opens, before the store holds it: the directory is named)
        default ->
            throw new CorruptFileException(directory, lsn, "unknown pile record type " + type);
      }
    } catch (IndexOutOfBoundsException | PileCorruptionException e) {
      throw new CorruptFileException(
          directory.resolve(PileFiles.LOG_DIRECTORY),
          lsn,
          "log record at LSN " + lsn + " does not apply to the pile: " + e.getMessage(),
          e);
    }
  }

  // =========================================================================================
  // unfinished transactions

  /** The log the undo of the transactions found unfinished takes (see LogAdmission). */
  long undoBytes() {
    long bytes = 0;
    for (List<long[]> allocations : unfinished.values()) {
      bytes += LogAdmission.undoBytesFor(allocations.size());
    }
    return bytes;
  }

  /**
   * Frees what the transactions found unfinished allocated, last allocation first; returns how many
   * transactions that was.
   */
  int undoUnfinished() {
    for (List<long[]> allocations : unfinished.values()) {
      LongList puts = new LongList();
      LongList targets = new LongList();
      for (long[] allocation : allocations) {
        (allocation[0] == Journal.TX_TARGET ? targets : puts).add(allocation[1]);
      }
      pile.transactions().releaseAll(puts, Journal.TX_PUT);
      pile.transactions().releaseAll(targets, Journal.TX_TARGET);
    }
    int count = unfinished.size();
    unfinished.clear();
    return count;
  }
}
