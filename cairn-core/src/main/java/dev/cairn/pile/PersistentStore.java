package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.DirectoryLock;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.DurabilityMode;
import dev.cairn.durability.FileHandle;
import dev.cairn.durability.FileLayer;
import dev.cairn.durability.LogDamage;
import dev.cairn.durability.LogLayout;
import dev.cairn.durability.LogOptions;
import dev.cairn.durability.LogReader;
import dev.cairn.durability.LogRecovery;
import dev.cairn.durability.ScanResult;
import dev.cairn.durability.RealFileLayer;
import dev.cairn.durability.Superblock;
import dev.cairn.durability.WriteAheadLog;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The files behind a persistent pile: opening and recovery, the redo log, checkpoints, close.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Files change only at checkpoints (no steal). Segments are mapped copy-on-write
 * (FileHandle.mapPrivate): what the pile writes stays in memory until a checkpoint copies the
 * dirty pages into the files with pwrite. A segment born since the last checkpoint is plain
 * anonymous memory until a checkpoint gives it a file. So the files always hold a state the log
 * can roll forward from, and in NONE mode (no log) the state of the last checkpoint itself.
 *
 * Redo log (PERIODIC, SYNC): each stripe operation appends one record (Journal) with the
 * after-images of what it wrote, before its stripe's lock is released; in SYNC mode the
 * operation then waits for the record to be forced (group commit in WriteAheadLog).
 *
 * Checkpoint at LSN C (one at a time, on the checkpointer thread or the caller's):
 *   1. C = the log's end. Everything written before C has its record before C.
 *   2. Under all stripe locks and the table lock (microseconds): encode the segment table and
 *      every stripe's counters and free-list heads; take the segments retired so far.
 *   3. Per segment, per batch of up to 256 pages under the owning stripe's lock: copy dirty
 *      pages to a staging buffer and clear their marks; note the log's end E. Then, unlocked:
 *      force the log to E (WAL rule: no page reaches a file before the records that made it),
 *      pwrite the pages, force the file. Writers run between batches.
 *   4. Write the metadata file not named by the superblock, force it, then the superblock
 *      (checkpoint LSN C, metadata slot and CRC), forced: the checkpoint is now the current
 *      one. Truncate the log before C. Release the segments retired before step 2 and delete
 *      their files: only now may their indexes be reused.
 *   The pages of step 3 may hold changes made after C; replaying the log from C over them
 *   rewrites every byte changed since C, in order, so recovery is correct whatever mix of
 *   old and new pages, torn or not, the files hold when power fails.
 *   In NONE mode there is no log to repair such a mix, so a checkpoint writes one instant's
 *   state: under all stripe locks it also copies every dirty page (SegmentWriter.snapshot,
 *   up to UNLOGGED_SNAPSHOT_MAX_BYTES; past that it holds the locks throughout), then lets
 *   writers go on while it writes the copies, and marks the superblock while it writes pages
 *   in place; an open that finds that mark refuses the pile (the files are a mix of two
 *   states).
 *
 * Recovery at open: newest valid superblock, its metadata file (CRC checked), map every
 * segment it lists (headers checked), replay the log from C (Journal records: table changes,
 * ranges, counters, heads), free the allocations of transactions with no end record (logged, in
 * the room admitTransaction kept for it; unlogged, then checkpointed before open returns, if a
 * log written without that room has none), then checkpoint. Time is bounded by the log since
 * C. A read-only open does the same in memory and writes nothing.
 * }</pre>
 */
final class PersistentStore implements WriteHooks {

  private static final int FLAG_UNLOGGED_CHECKPOINT = 1;

  private final FileLayer layer;
  private final Path directory;
  private final PileOptions options;
  private final DirectoryLock lock;
  private final Superblock superblock;
  private final boolean logging;
  private final boolean readOnly;
  private final ReentrantLock checkpointLock = new ReentrantLock();
  private final List<NativeSegment> retired = new ArrayList<>(); // guarded by itself
  private final AtomicBoolean checkpointWanted = new AtomicBoolean();
  private final Object signal = new Object();

  private OffHeapPile pile;
  private RedoReplay replay;
  private WriteAheadLog log; // null when the pile runs without a log
  private Geometry geometry; // guarded by checkpointLock
  private volatile long lastCheckpointLsn;
  private volatile RuntimeException failure;
  private volatile boolean closing;
  private Thread checkpointer;
  private long maxRecordBytes;
  private long triggerBytes = Long.MAX_VALUE;
  private long reserveBytes; // log kept free for records of writers already admitted
  private final java.util.concurrent.atomic.AtomicLong reservedBytes =
      new java.util.concurrent.atomic.AtomicLong();
  private SegmentWriter segmentWriter; // checkpointing thread only
  private long checkpoints;
  private Recovery recovery;
  private LogRecovery logRecovery = LogRecovery.STRICT;
  private LogDamage salvaged; // what a salvage dropped from a damaged log, or null
  private volatile boolean inUseMarked = true;
  private boolean orphansPending = true; // guarded by checkpointLock
  private PileTypeCatalog catalog;
  // recovery: allocations of transactions with no commit or end record yet, by transaction id
  private final java.util.Map<Long, List<long[]>> unfinished = new java.util.HashMap<>();
  private int unfinishedTransactions;
  // transactions that allocated and have not ended: id -> the log's end before their first record
  private final ConcurrentHashMap<Long, Long> openTransactions = new ConcurrentHashMap<>();
  // log kept free for the rollback of every open transaction (admitTransaction), and each one's
  private final java.util.concurrent.atomic.AtomicLong undoReservedBytes =
      new java.util.concurrent.atomic.AtomicLong();
  private final ConcurrentHashMap<Long, Long> undoReservations = new ConcurrentHashMap<>();
  private boolean keepUndoSpace = true; // false only in tests that play an earlier build
  private boolean appendsSuppressed; // recovery's undo of a log too full to take it
  private long logEndLsn;
  private Superblock.State openedState;
  // the tag bound (see reserveTags): what the next superblock write records, guarded by the
  // superblock's monitor; and what the durable superblock records
  private long tagBound;
  private volatile long durableTagBound;
  // a background tag reservation under way, opened when it has ended; null when none runs
  private final AtomicReference<CountDownLatch> tagReservation = new AtomicReference<>();
  private final TagReserver tagReserver = new TagReserver();
  private final String tagReserverName;

  /**
   * What opening found.
   *
   * @param lastCloseClean whether the pile was closed cleanly before this open: its last
   *     checkpoint was a clean close's, and no log record follows it
   * @param recordsReplayed log records applied by recovery
   * @param bytesReplayed bytes of log applied
   * @param openMillis time from the start of open until the pile was usable
   */
  record Recovery(boolean lastCloseClean, long recordsReplayed, long bytesReplayed,
      long openMillis) {}

  private PersistentStore(FileLayer layer, Path directory, PileOptions options,
      DirectoryLock lock, Superblock superblock, boolean readOnly) {
    this.layer = layer;
    this.directory = directory;
    this.tagReserverName = "cairn-tag-reservation " + directory;
    this.options = options;
    this.lock = lock;
    this.superblock = superblock;
    this.readOnly = readOnly;
    this.logging = options.durability() != Durability.NONE && !readOnly;
  }

  // =========================================================================================
  // open

  static OffHeapPile open(FileLayer layer, Path directory, PileOptions options)
      throws IOException {
    return open(layer, directory, options, false);
  }

  /**
   * Opens the pile in {@code directory}. Read-only: the directory must hold a pile; the log is
   * replayed into memory only, nothing is written, and every write to the pile throws.
   */
  static OffHeapPile open(FileLayer layer, Path directory, PileOptions options, boolean readOnly)
      throws IOException {
    return open(layer, directory, options, readOnly, LogRecovery.STRICT);
  }

  /**
   * Opens the pile as {@link #open(FileLayer, Path, PileOptions, boolean)} does; {@code
   * logRecovery} says what to do with a log damaged where it had been durable ({@link
   * PileDirectory#salvage}).
   */
  static OffHeapPile open(FileLayer layer, Path directory, PileOptions options, boolean readOnly,
      LogRecovery logRecovery) throws IOException {
    return open(layer, directory, options, readOnly, logRecovery, ParticipantRegistry.NONE);
  }

  /** Opens the pile read-write with {@code participants} registered (see LogParticipant). */
  static OffHeapPile open(FileLayer layer, Path directory, PileOptions options,
      ParticipantRegistry participants) throws IOException {
    return open(layer, directory, options, false, LogRecovery.STRICT, participants);
  }

  private static OffHeapPile open(FileLayer layer, Path directory, PileOptions options,
      boolean readOnly, LogRecovery logRecovery, ParticipantRegistry participants)
      throws IOException {
    long started = System.nanoTime();
    Path superblockFile = directory.resolve(PileFiles.SUPERBLOCK);
    PileOptions.OpenMode mode = readOnly ? PileOptions.OpenMode.OPEN_EXISTING : options.openMode();
    // judged before anything changes, the lock file included: a refused directory stays as it was
    DirectoryContents found = DirectoryContents.of(layer, directory);
    found.check(mode, readOnly);
    if (found.kind() == DirectoryContents.Kind.MISSING) {
      createDirectoriesDurably(layer, directory);
    }
    DirectoryLock lock = layer instanceof RealFileLayer ? DirectoryLock.acquire(directory) : null;
    Superblock superblock = null;
    PersistentStore store = null;
    PileTypeCatalog catalog = null;
    boolean success = false;
    try {
      // again under the lock: another process may have created a pile here meanwhile
      DirectoryContents contents = DirectoryContents.of(layer, directory);
      contents.check(mode, readOnly);
      if (contents.kind() != DirectoryContents.Kind.PILE) { // empty, or a create of ours crashed
        contents.removeLeftoversOfACreate(layer);
        create(layer, directory, options);
      } else if (!readOnly) {
        contents.removeLeftoversOfACreate(layer); // a marker a finished create left
      }
      Superblock.State state;
      if (readOnly) {
        state = Superblock.read(layer, superblockFile);
      } else {
        superblock = Superblock.open(layer, superblockFile);
        state = superblock.current();
      }
      Geometry geometry = Geometry.decode(superblockFile, state.payload());
      if ((readFlags(state.payload()) & FLAG_UNLOGGED_CHECKPOINT) != 0) {
        throw new CorruptFileException(superblockFile, 36, "a checkpoint of a pile without a"
            + " log (durability NONE) was interrupted by a crash while it wrote segment files in"
            + " place; they hold a mix of two states and no log can repair them");
      }
      catalog = new PileTypeCatalog(layer, directory, readOnly);
      PileOptions effective = PileOptions.builder()
          .segmentBytes(geometry.segmentBytes())
          .stripes(geometry.stripes())
          .maxMemoryBytes(Math.max(options.maxMemoryBytes(), geometry.segmentBytes()))
          .codecs(options.codecs().withCatalog(catalog))
          .durability(options.durability())
          .logFileBytes(options.logFileBytes())
          .logFileCount(options.logFileCount())
          .syncIntervalMillis(options.syncIntervalMillis())
          .hugePages(options.hugePages())
          .build();
      store = new PersistentStore(layer, directory, effective, lock, superblock, readOnly);
      store.catalog = catalog;
      store.logRecovery = logRecovery;
      store.geometry = geometry;
      store.openedState = state;
      store.lastCheckpointLsn = state.checkpointLsn();
      OffHeapPile pile = new OffHeapPile(effective, store, geometry.tagKey(), geometry.tagOrigin(),
          participants);
      store.pile = pile;
      store.replay = new RedoReplay(pile.segmentTable(), pile.stripes(), store);
      store.replay.trustRewrittenPages(!state.cleanShutdown()
          && checkpointWasCut(layer, directory, geometry, state.checkpointLsn()));
      store.load(PileFiles.metaFile(directory, geometry.metaSlot()),
          readMeta(layer, directory, geometry, state.checkpointLsn()));
      store.recover(state, started);
      success = true;
      return pile;
    } finally {
      if (!success) {
        if (store != null) {
          store.abandon();
        } else {
          if (catalog != null) {
            catalog.close();
          }
          if (superblock != null) {
            superblock.close();
          }
          if (lock != null) {
            lock.close();
          }
        }
      }
    }
  }

  /**
   * A new pile in {@code directory}, which is empty (DirectoryContents checked it under the
   * lock): the marker first, then the metadata, the type catalog and the log, the superblock
   * last (see DirectoryContents, C1-C4). A failure removes everything this create made.
   *
   * @throws FileSystemException if a file cannot be created (a full disk, say): the message
   *     names the directory, the cause and the bytes a new pile needs
   */
  private static void create(FileLayer layer, Path directory, PileOptions options)
      throws IOException {
    boolean success = false;
    boolean creatingLog = false;
    try {
      DirectoryContents.writeMarker(layer, directory);
      long tagKey = new SecureRandom().nextLong() | 1;
      Geometry geometry = new Geometry(options.stripes(), options.segmentBytes(), tagKey, 0, 0,
          0, System.currentTimeMillis(), TagClock.randomOrigin());
      MemorySegment meta = MetaImage.empty(options.stripes(), options.segmentBytes());
      writeMetaFile(layer, PileFiles.metaFile(directory, 0), meta);
      PileTypeCatalog.create(layer, directory);
      geometry = geometry.withMeta(0, (int) meta.byteSize(), PileFiles.crc(meta), geometry
          .checkpointMillis());
      layer.syncDirectory(directory);
      if (options.durability() != Durability.NONE) {
        creatingLog = true; // its exception names the log's bytes itself
        WriteAheadLog.create(layer, directory.resolve(PileFiles.LOG_DIRECTORY),
            logOptions(options));
      }
      Superblock.create(layer, directory.resolve(PileFiles.SUPERBLOCK), 0, true,
          geometry.encode()).close();
      success = true;
    } catch (IOException e) {
      String removed = removeCreated(layer, directory);
      long logBytes = options.logFileBytes() * options.logFileCount();
      String advice = options.durability() == Durability.NONE ? ""
          : (creatingLog ? "" : " A new pile needs about " + logBytes + " bytes there, nearly"
              + " all of it for its write-ahead log (" + options.logFileCount() + " files of "
              + options.logFileBytes() + " bytes).")
              + " Free disk space, or make the log smaller with PileOptions.logFileBytes and"
              + " logFileCount.";
      FileSystemException failed = new FileSystemException(directory.toString(), null,
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
      return "Removing what this create made failed too (" + e.getMessage() + "); the next open"
          + " removes it and creates the pile again.";
    }
  }

  /** Creates the missing directories of {@code directory}, each one's name durable. */
  private static void createDirectoriesDurably(FileLayer layer, Path directory)
      throws IOException {
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

  /** The log's settings for a pile's options. */
  private static LogOptions logOptions(PileOptions options) {
    return LogOptions.builder()
        .fileBytes(options.logFileBytes())
        .fileCount(options.logFileCount())
        .bufferBytes(16 << 20)
        .mode(options.durability() == Durability.SYNC
            ? DurabilityMode.SYNC : DurabilityMode.PERIODIC)
        .period(options.syncIntervalMillis(), TimeUnit.MILLISECONDS)
        .build();
  }

  /**
   * Whether a checkpoint after the current one was cut short once it could have written pages
   * in place: it writes the metadata slot the superblock does not name, forced, before its first
   * in-place page, so a valid metadata file there with a checkpoint LSN at or past the current
   * one says it may have. Such pages may not match their checksums (the checkpoint wrote the one
   * and not the other) until the log's replay rewrites them (RedoReplay.checkBeforeRewrite).
   */
  private static boolean checkpointWasCut(FileLayer layer, Path directory, Geometry geometry,
      long checkpointLsn) throws IOException {
    Path file = PileFiles.metaFile(directory, 1 - geometry.metaSlot());
    MemorySegment bytes;
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      long size = handle.size();
      if (size < PileFiles.META_HEADER_BYTES + 4 || size > PileFiles.metaBytes(
          Pointers.MAX_SEGMENTS, geometry.stripes(), RootDirectory.MAX_SECTION_BYTES,
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
    long end = bytes.byteSize() - 4;
    return bytes.get(Journal.U64, 0) == PileFiles.META_MAGIC
        && bytes.get(Journal.U32, end) == PileFiles.crc(bytes.asSlice(0, end))
        && bytes.get(Journal.U64, 24) >= checkpointLsn;
  }

  private static int readFlags(byte[] payload) {
    return MemorySegment.ofArray(payload).get(Journal.U32, 36);
  }

  private static MemorySegment readMeta(FileLayer layer, Path directory, Geometry geometry,
      long checkpointLsn) throws IOException {
    Path file = PileFiles.metaFile(directory, geometry.metaSlot());
    MemorySegment bytes = MemorySegment.ofArray(new byte[geometry.metaLength()]);
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      long read = handle.read(bytes, 0);
      if (read < bytes.byteSize()) {
        throw new CorruptFileException(file, read, "metadata file truncated: " + read
            + " bytes, the superblock says " + bytes.byteSize());
      }
    } catch (NoSuchFileException e) {
      throw new CorruptFileException(file, 0, "metadata file of the current checkpoint is missing",
          e);
    }
    if (PileFiles.crc(bytes) != geometry.metaCrc()) {
      throw new CorruptFileException(file, 0, "metadata checksum does not match the superblock's");
    }
    MetaImage.check(file, bytes, geometry, checkpointLsn);
    return bytes;
  }

  /** Maps every segment the metadata lists and restores every stripe's state. */
  private void load(Path metaFile, MemorySegment meta) throws IOException {
    int tableCount = meta.get(Journal.U32, 32);
    long at = PileFiles.META_HEADER_BYTES;
    for (int i = 0; i < tableCount; i++, at += 8) {
      int index = meta.get(Journal.U32, at);
      int owner = meta.get(Journal.U32, at + 4);
      pile.segmentTable().install(mapSegment(index), pile.stripe(owner - 1));
    }
    for (int s = 0; s < pile.stripeCount(); s++, at += PileFiles.META_STRIPE_BYTES) {
      Stripe stripe = pile.stripe(s);
      stripe.readState(meta, at);
      for (int c = 0; c < SizeClasses.COUNT; c++) {
        stripe.restoreHead(c, meta.get(Journal.U64, at + Stripe.STATE_BYTES + 8L * c));
      }
    }
    int rootsBytes = meta.get(Journal.U32, PileFiles.META_ROOTS_BYTES_OFFSET);
    pile.rootDirectory().load(metaFile, meta, at, rootsBytes);
    pile.participants().open(metaFile, meta, at + rootsBytes,
        meta.get(Journal.U32, PileFiles.META_STATES_BYTES_OFFSET), meta.get(Journal.U64, 24),
        readOnly, directory);
  }

  private NativeSegment mapSegment(int index) throws IOException {
    Path file = PileFiles.segmentFile(directory, index);
    Arena arena = Arena.ofShared();
    boolean success = false;
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ_WRITE)) {
      // the header by a plain read: a fault through the mapping would read ahead megabytes
      MemorySegment header = MemorySegment.ofArray(new byte[BlockLayout.SEGMENT_HEADER_BYTES]);
      handle.read(header, 0);
      PileFiles.checkSegmentHeader(file, header, index, options.segmentBytes());
      MemorySegment memory = handle.mapPrivate(options.segmentBytes(), arena);
      NativeSegment segment = NativeSegment.of(index, arena, memory);
      segment.trackDirtyPages();
      segment.setHasFile(true);
      // each page is checked against its checksum when first read, not here: the open stays
      // instant, and no read returns a page damaged on disk (PageCheck)
      PageCheck.attach(segment, new SegmentChecksums(layer, directory, index,
          options.segmentBytes()));
      success = true;
      return segment;
    } catch (NoSuchFileException e) {
      throw new CorruptFileException(file, 0, "segment file listed by the checkpoint is missing",
          e);
    } catch (EOFException e) {
      throw new CorruptFileException(file, 0, "segment file is truncated: " + e.getMessage(), e);
    } finally {
      if (!success) {
        arena.close();
      }
    }
  }

  /** Replays the log if there is one, checkpoints, and starts the checkpointer. */
  private void recover(Superblock.State state, long started) throws IOException {
    Path logDirectory = directory.resolve(PileFiles.LOG_DIRECTORY);
    boolean logExists = layer.exists(logDirectory.resolve(LogLayout.META_FILE_NAME));
    long records = 0;
    long bytes = 0;
    long bound = Geometry.tagBoundOf(directory.resolve(PileFiles.SUPERBLOCK), state.payload());
    durableTagBound = bound; // what the file says; a read-only open (inspect) stops at that
    if (readOnly) {
      if (logExists) {
        try (LogReader reader = LogReader.open(layer, logDirectory)) {
          ScanResult scan = reader.scan(state.checkpointLsn(), this::replay);
          records = scan.records();
          bytes = scan.endLsn() - scan.fromLsn();
          logEndLsn = scan.endLsn();
        }
      }
      // undone in memory only (nothing is logged or written): the view read-write recovery
      // will produce from the same files
      undoUnfinished();
      pile.participants().recovered();
      recovery = new Recovery(state.cleanShutdown() && records == 0, records, bytes,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      return;
    }
    if (logging || logExists) {
      LogOptions logOptions = logOptions(options);
      maxRecordBytes = logOptions.maxPayloadBytes();
      // a clean close checkpointed at the log's end: the scan need not look past it
      try {
        log = WriteAheadLog.open(layer, logDirectory, logOptions, state.checkpointLsn(),
            state.cleanShutdown() ? state.checkpointLsn() : -1, logRecovery, this::replay);
      } catch (CorruptLogException e) {
        throw e.withAdvice("check the storage; restore from a backup, or salvage the pile with"
            + " `cairn recover " + directory + "` or PileDirectory.salvage(directory, options),"
            + " which recovers every write before lsn " + e.lsn() + ", drops that record and"
            + " everything logged after it, and keeps a copy of the damaged log");
      }
      salvaged = log.salvaged();
      records = log.recovery().records();
      bytes = log.recovery().endLsn() - log.recovery().fromLsn();
      long capacity = log.capacityBytes();
      triggerBytes = capacity / 4;
      reserveBytes = capacity / 4;
      maxRecordBytes = Math.min(maxRecordBytes, capacity / 8); // a record always fits the reserve
    }
    // Transactions that never ended: their undo is logged like any write, in the room the
    // undo rule kept for it (see admitTransaction). A log written without that room (by an
    // earlier build) may not hold it: then the undo is not logged, and the checkpoint below
    // writes it to the files before the pile is used. A crash before that checkpoint is
    // durable replays the same log and undoes the same allocations again.
    long undoBytes = 0;
    for (List<long[]> allocations : unfinished.values()) {
      undoBytes += undoBytesFor(allocations.size());
    }
    boolean undoUnlogged = log != null && logging && undoBytes > log.remainingBytes();
    appendsSuppressed = undoUnlogged;
    try {
      undoUnfinished();
    } finally {
      appendsSuppressed = false;
    }
    pile.participants().recovered();
    synchronized (superblock) {
      tagBound = bound;
    }
    if (!state.cleanShutdown()) {
      // after the replay restored every stripe's clock. Puts lost to the crash handed out tags
      // up to the clock at the crash, which only the bound covers
      if (bound > 0) {
        pile.tagClock().atLeast(bound);
      } else {
        pile.tagClock().skipAfterCrash(); // a file of an earlier build, which recorded no bound
      }
      long wanted = pile.tagClock().current() + TAG_RESERVATION;
      OwnThread.run("cairn-tag-reservation " + directory, () -> reserveTags(wanted, wanted));
    }
    if (records > 0 || !state.cleanShutdown()) {
      if (logging && !undoUnlogged) {
        // the log, forced by its open, holds the recovered state: the checkpoint that makes
        // the files hold it too can run in the background, so open returns after the replay
        requestCheckpoint();
      } else {
        checkpoint(false); // no log after this open: the files must hold it before use
      }
    } else {
      inUseMarked = false; // after a clean close: said by the first write (instant reopen)
    }
    if (!logging && log != null) { // a log left by a run with one: recovered, now retired
      log.close();
      log = null;
      if (segmentWriter != null) {
        segmentWriter.close();
        segmentWriter = null; // it forced that log; without one it must not
      }
    }
    recovery = new Recovery(state.cleanShutdown() && records == 0, records, bytes,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    if (log != null) {
      checkpointer = Thread.ofPlatform().daemon().name("cairn-checkpointer " + directory)
          .start(this::checkpointLoop);
    }
  }

  /** Frees what the transactions found unfinished allocated, last allocation first. */
  private void undoUnfinished() {
    for (List<long[]> allocations : unfinished.values()) {
      LongList puts = new LongList();
      LongList targets = new LongList();
      for (long[] allocation : allocations) {
        (allocation[0] == Journal.TX_TARGET ? targets : puts).add(allocation[1]);
      }
      pile.transactions().releaseAll(puts, Journal.TX_PUT);
      pile.transactions().releaseAll(targets, Journal.TX_TARGET);
    }
    unfinishedTransactions = unfinished.size();
    unfinished.clear();
  }

  private void replay(long lsn, long end, int type, MemorySegment payload) {
    try {
      switch (type) {
        case Journal.TYPE_OP -> replay.applyOp(payload);
        case Journal.TYPE_PURGE -> replay.applyPurge();
        case Journal.TYPE_TX_ALLOC -> {
          replay.applyOp(payload.asSlice(Journal.TX_ALLOC_PREFIX_BYTES));
          unfinished.computeIfAbsent(payload.get(Journal.U64, 0), id -> new ArrayList<>())
              .add(new long[] {payload.get(Journal.U32, 8), payload.get(Journal.U64, 16)});
        }
        case Journal.TYPE_TX_COMMIT -> {
          int count = payload.get(Journal.U32, 8);
          int attachments = payload.get(Journal.U32, 12);
          long at = Journal.TX_COMMIT_PREFIX_BYTES;
          for (int i = 0; i < count; i++) {
            long length = Integer.toUnsignedLong(payload.get(Journal.U32, at));
            replay.applyOp(payload.asSlice(at + 8, length));
            at += 8 + length;
          }
          for (int i = 0; i < attachments; i++) {
            at += pile.participants().replay(lsn, payload.asSlice(at), readOnly, directory);
          }
          unfinished.remove(payload.get(Journal.U64, 0));
        }
        case Journal.TYPE_PARTICIPANT ->
            pile.participants().replay(lsn, payload, readOnly, directory);
        case Journal.TYPE_PARTICIPANT_OP -> { // the pile's part first, as it was written
          replay.applyOp(payload.asSlice(ParticipantRegistry.recordBytes(payload)));
          pile.participants().replay(lsn, payload, readOnly, directory);
        }
        case Journal.TYPE_TX_END -> unfinished.remove(payload.get(Journal.U64, 0));
        case Journal.TYPE_ROOT -> pile.rootDirectory().replay(payload);
        default -> throw new CorruptFileException(log == null ? directory : directory
            .resolve(PileFiles.LOG_DIRECTORY), lsn, "unknown pile record type " + type);
      }
    } catch (IndexOutOfBoundsException | PileCorruptionException e) {
      throw new CorruptFileException(directory.resolve(PileFiles.LOG_DIRECTORY), lsn,
          "log record at LSN " + lsn + " does not apply to the pile: " + e.getMessage(), e);
    }
  }

  /**
   * Reads the files of segments {@code indexes} on a daemon thread, in 1 MiB reads into one
   * reused buffer, until done or {@code stop} says so. Why through the files, not the mapping:
   * a read of the file fills the page cache the mapping faults from, and it never touches the
   * mapped memory, so a segment released or a pile closed meanwhile cannot make it fail.
   */
  CompletableFuture<Void> prefetch(
      List<Integer> indexes, BooleanSupplier stop) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofPlatform().daemon().name("cairn-prefetch " + directory).start(() -> {
      ByteBuffer buffer = ByteBuffer.allocateDirect(PREFETCH_READ_BYTES);
      try {
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

  private static final int PREFETCH_READ_BYTES = 1 << 20;

  /** A segment for replay of a record that created it: zeroed memory, no file yet. */
  NativeSegment freshSegment(int index) {
    NativeSegment segment =
        NativeSegment.allocate(index, options.segmentBytes(), options.hugePages());
    segment.trackDirtyPages();
    return segment;
  }

  private void deleteOrphanSegmentFiles() throws IOException {
    for (Path file : layer.list(directory)) {
      int index = Math.max(PileFiles.segmentIndexOf(file), PileFiles.pageCrcIndexOf(file));
      if (index >= 0 && pile.segmentTable().segmentAt(index) == null
          && !pile.segmentTable().isRetired(index)) {
        layer.delete(file);
      }
    }
  }

  // =========================================================================================
  // the write path

  @Override
  public boolean logging() {
    return logging;
  }

  /** The largest value a record can carry: the log buffer less room for the rest of an op. */
  @Override
  public long maxValueBytes() {
    return log == null ? Long.MAX_VALUE : maxRecordBytes - Journal.SMALL_RECORD_BYTES;
  }

  /**
   * Before a write: fails fast if the pile failed, and reserves room in the log for the write's
   * record (about {@code recordBytes}), waiting while a checkpoint frees space. The log frees
   * space only when a checkpoint lets it reuse a whole file, and many writers may pass here at
   * once, so admission counts what was reserved and not yet released ({@link #release()}).
   *
   * @param pinsTheLog the write belongs to a transaction that has allocated already, whose first
   *     record keeps checkpoints from truncating the log: it may use the reserve
   * @throws PileFullException if no checkpoint freed enough log for a minute: an open
   *     transaction holds the log (it cannot be truncated past the transaction's first record),
   *     or the disk cannot keep up; nothing was written
   */
  long admit(long recordBytes, boolean pinsTheLog) {
    return admit(recordBytes, pinsTheLog, 0);
  }

  @Override
  public long admit(long recordBytes) {
    return admit(recordBytes, false, 0);
  }

  /**
   * A bound on the log a transaction's rollback takes per allocation (a put, or an update's
   * prepared target): the free's record, with the rollback's frees batched per stripe in
   * reverse order (TransactionCoordinator.abort). Measured: 30 to 190 bytes; a free that merges
   * both neighbours and relinks three lists writes about ten words.
   */
  static final long UNDO_BYTES_PER_ALLOCATION = 256;

  /** The log a transaction with {@code allocations} allocations keeps for its rollback. */
  static long undoBytesFor(long allocations) {
    return allocations == 0 ? 0
        : allocations * UNDO_BYTES_PER_ALLOCATION + Journal.SMALL_RECORD_BYTES;
  }

  /**
   * {@link #admit} for a write of transaction {@code txId}.
   *
   * <p>Why: every record from a transaction's first one on stays in the log until it ends (no
   * checkpoint truncates past it, so that recovery can undo it), so the log end can reach at
   * most {@code reach} = the end of the ring that starts at the file of that first record, and
   * the rollback, or recovery's undo after a crash, must log a free per allocation. Admission
   * keeps the room for those frees (the undo rule: log end + the undo room of every open
   * transaction <= the log's limit, for every write admitted; {@link #undoBytesFor}). At a
   * crash the log's durable end is where some record ended, when exactly the transactions with
   * allocations and no end record before it were open, so recovery finds room for their undo
   * in the log it opens (whose limit is at least the one of that moment). A rollback never waits
   * and recovery always has the log its undo needs. A write that would take the transaction's
   * own span, plus its undo room, past {@code reach} can never be made: it fails at once,
   * where waiting for a checkpoint would be waiting for the transaction itself.
   *
   * @param allocations the transaction's allocations once this write is made
   * @param ending a commit or rollback: it uses the transaction's own undo room, and a rollback
   *     ({@code recordBytes} 0) never waits
   * @throws TransactionTooLargeException if the transaction cannot fit the log with this write;
   *     nothing was written and the transaction is still open
   */
  @Override
  public long admitTransaction(long txId, long recordBytes, long allocations, boolean ending) {
    Long first = openTransactions.get(txId);
    WriteAheadLog current = log;
    if (current == null || ending || !keepUndoSpace) {
      if (ending && recordBytes == 0) {
        admitNothing();
        return 0;
      } else if (ending && current != null) {
        long own = undoReservations.getOrDefault(txId, 0L);
        return admit(recordBytes, true, own);
      } else {
        return admit(recordBytes, first != null);
      }
    }
    long need = Math.min(recordBytes, maxRecordBytes);
    long undo = undoBytesFor(allocations);
    long end = current.endLsn();
    long from = first != null ? first : end;
    long fileBytes = current.fileDataBytes();
    long fileCount = current.capacityBytes() / fileBytes;
    long reach = (from / fileBytes + fileCount) * fileBytes;
    if (end + need + undo > reach) {
      throw new TransactionTooLargeException(String.format(java.util.Locale.ROOT,
          "transaction %d is too large for the write-ahead log of %s: the log holds %,d bytes"
              + " (%d files of %,d bytes), and the transaction's records so far span %,d bytes"
              + " of it (%,d allocations); with this write (up to %,d bytes) and the room kept"
              + " to roll it back (%,d bytes) it would need %,d bytes. The write was not made;"
              + " the transaction is still open: commit or roll back what it has. Split the"
              + " work into smaller transactions, or create the pile with a larger log"
              + " (PileOptions.logFileBytes, PileOptions.logFileCount: they apply when the log"
              + " is created)",
          txId, directory, current.capacityBytes(), fileCount,
          fileBytes + dev.cairn.durability.LogLayout.FILE_HEADER_BYTES, end - from,
          allocations - 1, need, undo, end + need + undo - from));
    }
    long own = undoReservations.getOrDefault(txId, 0L);
    long reserved = admit(recordBytes, first != null, own - undo);
    undoReservations.put(txId, undo);
    undoReservedBytes.addAndGet(undo - own);
    return reserved;
  }

  /**
   * {@link #admit(long, boolean)}, with {@code ownUndo} of the undo room counted as this
   * writer's own (positive: it may use it; negative: it must keep that much more).
   */
  private long admit(long recordBytes, boolean pinsTheLog, long ownUndo) {
    admitNothing();
    WriteAheadLog current = log;
    if (current == null) {
      return 0;
    }
    long need = Math.min(recordBytes, maxRecordBytes);
    // a write of a transaction that already pins the log may use the reserve (see the caller);
    // no write may use the room kept to roll back open transactions, except its own
    awaitLogSpace(current, need, (pinsTheLog ? 0 : reserveBytes) - ownUndo);
    if (failure != null) { // the checkpoint the wait was for failed
      throw failedError();
    }
    reservedBytes.addAndGet(need);
    return need;
  }

  /** The checks of {@link #admit} for a write that needs no log space of its own. */
  private void admitNothing() {
    if (readOnly) {
      throw new IllegalStateException("the pile in " + directory + " is open read-only");
    }
    if (failure != null) {
      throw failedError();
    }
    if (!inUseMarked) {
      markInUse();
    }
  }

  /** Tests: admit as earlier builds did, keeping no log room for rollbacks. */
  void keepNoUndoSpaceForTests() {
    keepUndoSpace = false;
    undoReservedBytes.set(0);
    undoReservations.clear();
  }

  // =========================================================================================
  // the tag bound

  /**
   * How far a tag reservation reaches past the clock: a crash wastes at most this many of the
   * 2^23 tags (6%), and a pile that puts ten million values a second writes its superblock
   * about forty times a second for it, on a pooled I/O thread.
   */
  static final long TAG_RESERVATION = 1L << 19;

  /**
   * The pile's tag clock is about to hand out values below {@code end} (TagClock.takeChunk,
   * under a stripe lock). Returns at once while the durable bound covers them with half a
   * reservation to spare; past that, a pooled I/O thread raises the bound; and a caller that
   * has caught up with the bound writes it before going on, so no tag is ever handed out
   * unless the superblock records a bound above it.
   *
   * <p>Why: after a crash the clock restarts at the bound, past every tag handed out before,
   * including those of puts the crash lost, whose pointers a caller may have kept. Without it
   * such a pointer would meet its own tag at its own address again after the next few puts.
   *
   * @throws DurabilityFailedException if the superblock could not be written (the pile fails)
   */
  void tagsTaken(long end) {
    long durable = durableTagBound;
    if (end + TAG_RESERVATION / 2 <= durable) {
      return;
    }
    long wanted = end + TAG_RESERVATION;
    if (end <= durable) {
      reserveTagsInBackground(wanted);
      return;
    }
    // writers that catch up together write once: the first one's bound covers the others
    OwnThread.run(tagReserverName, () -> reserveTags(end, wanted));
  }

  private void reserveTagsInBackground(long wanted) {
    if (closing || tagReservation.get() != null) {
      return;
    }
    CountDownLatch done = new CountDownLatch(1);
    if (!tagReservation.compareAndSet(null, done)) {
      return;
    }
    tagReserver.wanted = wanted; // seen by the task: the pool's hand-off orders them
    tagReserver.done = done;
    try { // a pooled thread: a run of 10M puts asks for about 40 of these (see OwnThread: why)
      OwnThread.start(tagReserverName, tagReserver);
    } catch (RuntimeException | Error e) { // no thread could be started: nothing runs
      tagReserver.ended();
      throw e;
    }
  }

  /**
   * The background tag reservation's body, one per store, made at open, and its thread's name
   * with it. Why not lambdas and a name built per call, as before: the first reservation comes
   * in a put, under a stripe lock, and linking its lambdas and string concatenation there took
   * 8.6 ms in the first reserving put of a JVM (JFR of {@code cairn bench
   * --latency-during-checkpoint}: that put's stack was in {@code linkMethodHandleConstant}), the
   * longest put of the run. One reservation runs at a time ({@code tagReservation}), so one
   * instance serves them all.
   */
  private final class TagReserver implements Runnable {
    private long wanted;
    private CountDownLatch done;

    @Override
    public void run() {
      try {
        reserveTags(wanted, wanted);
      } catch (RuntimeException e) {
        fail(e); // a writer that catches up with the bound meets the failure itself
      } finally {
        ended();
      }
    }

    void ended() {
      CountDownLatch latch = done;
      tagReservation.set(null);
      latch.countDown();
    }
  }

  /**
   * Makes the superblock record a tag bound of at least {@code needed}, durably: writes {@code
   * wanted} unless the bound on disk already covers {@code needed}.
   */
  private void reserveTags(long needed, long wanted) {
    synchronized (superblock) {
      if (durableTagBound >= needed) {
        return;
      }
      raiseTagBound(wanted);
      Superblock.State current = superblock.current();
      try {
        writeSuperblock(current.checkpointLsn(), current.cleanShutdown(), current.payload());
      } catch (RuntimeException e) {
        fail(e);
        throw e;
      }
    }
  }

  private void raiseTagBound(long wanted) {
    synchronized (superblock) {
      tagBound = Math.max(tagBound, Math.min(wanted, Stripe.MAX_TAG_CLOCK));
    }
  }

  /**
   * Every superblock write goes through here: it records the tag bound as of the write, so that
   * the durable bound never goes back (a checkpoint that built its payload before a reservation
   * still writes the reservation's bound).
   */
  private void writeSuperblock(long checkpointLsn, boolean clean, byte[] payload) {
    synchronized (superblock) {
      long bound = tagBound;
      superblock.write(checkpointLsn, clean, Geometry.withTagBound(payload, bound));
      durableTagBound = bound;
    }
  }

  /** Waits for a tag reservation under way (before the superblock closes). */
  private void awaitTagReserver() {
    CountDownLatch running = tagReservation.get();
    if (running != null) { // the reservation itself never closes the pile, so never waits here
      OwnThread.awaitUninterruptibly(running);
    }
  }

  /**
   * Clears the superblock's clean flag before the first write after a clean reopen, so that
   * a crash from here on is not reported as a clean close.
   */
  private void markInUse() {
    OwnThread.run("cairn-mark-in-use " + directory, () -> { // see OwnThread: why
      checkpointLock.lock();
      try {
        if (!inUseMarked) {
          Superblock.State current = superblock.current();
          // the same write reserves tags
          raiseTagBound(pile.tagClock().current() + TAG_RESERVATION);
          writeSuperblock(current.checkpointLsn(), false, geometry.encode());
          inUseMarked = true;
        }
      } catch (RuntimeException e) {
        fail(e);
        throw e;
      } finally {
        checkpointLock.unlock();
      }
    });
  }

  /** Gives back what {@link #admit} reserved. */
  @Override
  public void release(long reserved) {
    if (reserved != 0) {
      reservedBytes.addAndGet(-reserved);
    }
  }

  /** Waits until the log can take {@code need} bytes above {@code floorBase} + the undo room. */
  private void awaitLogSpace(WriteAheadLog current, long need, long floorBase) {
    if (current.endLsn() - lastCheckpointLsn > triggerBytes
        || current.remainingBytes() - reservedBytes.get() < 2 * reserveBytes) {
      requestCheckpoint();
    }
    if (current.remainingBytes() - reservedBytes.get() - need
        >= floorBase + undoReservedBytes.get()) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    synchronized (signal) {
      while (current.remainingBytes() - reservedBytes.get() - need
          < floorBase + undoReservedBytes.get() && failure == null && !closing) {
        if (System.nanoTime() > deadline) {
          throw new PileFullException("the write-ahead log of " + directory + " stayed full for"
              + " a minute: " + current.remainingBytes() + " bytes free; an open transaction"
              + " holds it (" + openTransactions.size() + " open), or checkpoints cannot keep"
              + " up; the write was not made");
        }
        requestCheckpoint();
        try {
          signal.wait(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new PileFullException("interrupted while waiting for log space; the write was"
              + " not made");
        }
      }
    }
  }

  long append(int type, MemorySegment payload) {
    return append(type, payload, payload.byteSize());
  }

  @Override
  public long appendRecord(int type, MemorySegment payload) {
    return logging ? append(type, payload) : 0;
  }

  /** Logs the first {@code length} bytes of {@code payload} (no slice to allocate). */
  long append(int type, MemorySegment payload, long length) {
    if (appendsSuppressed) {
      return 0; // recovery's undo, made durable by the checkpoint that ends the open
    }
    try {
      return log.append(type, payload, length);
    } catch (RuntimeException e) {
      // the operation changed memory but could not log it: memory and log now disagree
      fail(new DurabilityFailedException("could not log a write: " + e.getMessage(), e));
      throw failedError();
    }
  }

  /** A transaction is about to allocate: the log from here on must outlive checkpoints. */
  @Override
  public void transactionAllocates(long txId) {
    WriteAheadLog current = log;
    if (current != null && !openTransactions.containsKey(txId)) {
      openTransactions.putIfAbsent(txId, current.endLsn());
    }
  }

  @Override
  public void transactionEnded(long txId) {
    openTransactions.remove(txId);
    Long undo = undoReservations.remove(txId);
    if (undo != null) {
      undoReservedBytes.addAndGet(-undo);
    }
  }

  void appendTransactionEnd(long txId) {
    MemorySegment payload = MemorySegment.ofArray(new byte[8]);
    payload.set(Journal.U64, 0, txId);
    append(Journal.TYPE_TX_END, payload);
  }

  /**
   * A future completed when the thread's last record is durable; asks for a force in every mode
   * (what a caller who chose an asynchronous commit wants, even in a PERIODIC pile).
   */
  @Override
  public CompletableFuture<Void> durableFuture(long lsn) {
    if (lsn == 0 || log == null) {
      return CompletableFuture.completedFuture(null);
    }
    return log.awaitDurable(lsn).handle((durable, error) -> {
      if (error != null) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException
            ? error.getCause() : error;
        RuntimeException failed = cause instanceof RuntimeException runtime ? runtime
            : new DurabilityFailedException(cause.getMessage(), cause);
        fail(failed);
        throw failed;
      }
      return null;
    });
  }

  /** Logs a purge: one record, so that recovery drops everything or nothing. */
  long appendPurge() {
    return append(Journal.TYPE_PURGE, MemorySegment.ofArray(new byte[0]));
  }

  /** After an operation released its locks: waits for its record as the durability says. */
  @Override
  public void awaitDurable(long lsn) {
    if (lsn == 0 || log == null) {
      return;
    }
    try {
      log.commit(lsn);
    } catch (DurabilityFailedException e) {
      fail(e);
      throw e;
    }
  }

  /**
   * After an operation released its locks: waits until its record is forced, in every mode (a
   * {@code commit(Durability.SYNC)} in a PERIODIC pile). Concurrent callers share forces.
   */
  @Override
  public void awaitForced(long lsn) {
    if (lsn == 0 || log == null) {
      return;
    }
    try {
      log.syncTo(lsn);
    } catch (DurabilityFailedException e) {
      fail(e);
      throw e;
    }
  }

  /** A segment left its stripe: released after the next checkpoint, see the class note. */
  void retire(NativeSegment segment) {
    int pending;
    synchronized (retired) {
      retired.add(segment);
      pending = retired.size();
    }
    if (pending >= RETIRED_SEGMENTS_TRIGGER && log != null) {
      requestCheckpoint(); // without a log, only an explicit checkpoint or the close frees them
    }
  }

  /**
   * Retired segments that make the checkpointer run: each keeps its memory and its index until
   * a checkpoint, and deletes free no log space, so the log's own trigger may not come for a
   * long time.
   */
  static final int RETIRED_SEGMENTS_TRIGGER = 16;

  /** Segments retired since the last checkpoint took them: emptied, not yet released. */
  int retiredSegmentCount() {
    synchronized (retired) {
      return retired.size();
    }
  }

  List<NativeSegment> takeRetired() {
    synchronized (retired) {
      List<NativeSegment> taken = new ArrayList<>(retired);
      retired.clear();
      return taken;
    }
  }

  private void fail(RuntimeException cause) {
    if (failure == null) {
      failure = cause;
    }
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  /**
   * What every call of a failed pile throws (I11): one message, the same each time, that says
   * what failed, that the pile accepts no more writes, what survives and what to do.
   */
  private DurabilityFailedException failedError() {
    RuntimeException failed = failure;
    String kept = log == null
        ? "writes since the last checkpoint that finished are lost"
        : options.durability() == Durability.SYNC
            ? "nothing acknowledged is lost: the write-ahead log holds every acknowledged write"
            : "the write-ahead log holds every acknowledged write it made durable";
    return new DurabilityFailedException("the pile in " + directory + " accepts no more writes: "
        + failed.getMessage() + "; " + kept + ". Free disk space (or fix the storage), then"
        + " close the pile and reopen it" + (log == null ? "" : ": the open recovers from the log")
        + ".", failed);
  }

  /**
   * The message of a checkpoint that failed before it changed any file the pile uses, where the
   * pile stays usable (an explicit checkpoint), closes anyway (close) or does not open (open).
   */
  private String checkpointFailedBeforeAnyChange(Exception e, boolean clean) {
    String what = "checkpoint of " + directory + " failed before it changed any file the pile"
        + " uses: " + e.getMessage() + ". ";
    if (recovery == null) {
      return what + "The open did not finish, and the files are as they were: free disk space"
          + " (or fix the storage) and open the pile again.";
    }
    String kept = log != null
        ? "nothing acknowledged is lost: the write-ahead log holds every acknowledged write"
        : "the files hold the pile's last checkpoint";
    if (clean) {
      return what + "The pile is closed without it; " + kept + (log != null
          ? ", and the next open recovers it" : ", and writes since it are lost")
          + ". Free disk space before opening it again.";
    }
    return what + "The pile is intact and still accepts writes; " + kept + (log == null
        ? ", and writes since it stay in memory until a checkpoint succeeds" : "")
        + ". Free disk space (or fix the storage), then checkpoint again; close() checkpoints"
        + " too.";
  }

  // =========================================================================================
  // checkpoints

  private void requestCheckpoint() {
    if (checkpointWanted.compareAndSet(false, true)) {
      synchronized (signal) {
        signal.notifyAll();
      }
    }
  }

  private void checkpointLoop() {
    while (!closing) {
      synchronized (signal) {
        while (!checkpointWanted.get() && !closing) {
          try {
            signal.wait(1000);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
      if (closing) {
        return;
      }
      checkpointWanted.set(false);
      try {
        checkpoint(false);
      } catch (RuntimeException e) {
        fail(e);
        return;
      }
    }
  }

  /**
   * Writes a checkpoint; see the class note. On the checkpointer thread it runs there; called
   * from any other thread (an explicit checkpoint, close, open) it runs on a thread of its own
   * ({@link OwnThread}: an interrupt of the caller must not reach the pile's files).
   */
  void checkpoint(boolean clean) {
    if (Thread.currentThread() == checkpointer) {
      checkpointHere(clean);
    } else {
      OwnThread.run("cairn-checkpoint " + directory, () -> checkpointHere(clean));
    }
  }

  private void checkpointHere(boolean clean) {
    if (readOnly) {
      return;
    }
    checkpointLock.lock();
    try {
      if (failure != null) {
        throw failedError();
      }
      boolean quiesce = log == null;
      boolean inPlace = false; // from the first write a failure can leave half done
      boolean locked = false;
      SegmentWriter.Snapshot snapshot = null;
      if (quiesce) {
        pile.lockAll();
        locked = true;
      }
      try {
        long checkpointLsn = log == null ? superblock.current().checkpointLsn() : log.endLsn();
        for (long firstRecord : openTransactions.values()) { // recovery must see their records
          checkpointLsn = Math.min(checkpointLsn, firstRecord);
        }
        MetaImage image = pile.snapshotForCheckpoint(checkpointLsn);
        if (quiesce) {
          // without a log the files must take one instant's state: copy its dirty pages, and
          // writers may go on while the copies are written (else they wait for all of it)
          snapshot = segmentWriter().snapshot(image, UNLOGGED_SNAPSHOT_MAX_BYTES);
          if (snapshot != null) {
            pile.unlockAll();
            locked = false;
          }
        }
        // First what the current checkpoint does not use: files of segments born since (written
        // whole, so that later in-place writes never need new blocks) and the metadata slot the
        // superblock does not name. A failure here, a full disk say, leaves the pile as it was.
        List<Integer> existing = new ArrayList<>();
        boolean created = false;
        for (int i = 0; i < image.segmentCount(); i++) {
          if (image.segment(i).hasFile()) {
            existing.add(i);
          } else {
            writeSegment(image, i, snapshot);
            created = true;
          }
        }
        if (created) {
          layer.syncDirectory(directory);
        }
        if (log != null) {
          // recovery resumes at C: the log up to it must be durable, and up to what the
          // image's roots and participant states hold (they may be newer than C)
          log.syncTo(Math.max(checkpointLsn, image.logEndAtCapture()));
        }
        int slot = 1 - geometry.metaSlot();
        MemorySegment meta = image.bytes();
        writeMetaFile(layer, PileFiles.metaFile(directory, slot), meta);
        Geometry next = geometry.withMeta(slot, (int) meta.byteSize(), PileFiles.crc(meta),
            System.currentTimeMillis());
        // Then in place: dirty pages of segments the current checkpoint holds. Without a log
        // nothing could repair a crash from here on, so the superblock says so meanwhile.
        inPlace = true;
        // (the snapshot has taken the dirty marks: it knows what it will write in place)
        if (quiesce && (snapshot != null ? snapshot.writesInPlace() : image.anyDirty())) {
          writeSuperblock(superblock.current().checkpointLsn(), false,
              withFlags(geometry.encode(), FLAG_UNLOGGED_CHECKPOINT));
        }
        for (int i : existing) {
          writeSegment(image, i, snapshot);
        }
        // clean only if nothing follows the checkpoint: records of a transaction left open
        // (a rollback that failed at close) must be replayed and undone by the next open
        writeSuperblock(checkpointLsn, clean && (log == null || checkpointLsn == log.endLsn()),
            next.encode());
        geometry = next; // only now: a failed write leaves the durable slot untouched next time
        lastCheckpointLsn = checkpointLsn;
        checkpoints++;
        if (log != null) {
          log.truncateBefore(checkpointLsn);
        }
        for (NativeSegment gone : image.releasable()) {
          layer.delete(PileFiles.segmentFile(directory, gone.index()));
          layer.delete(PileFiles.pageCrcFile(directory, gone.index()));
          pile.segmentTable().releaseRetired(gone);
        }
        if (orphansPending) { // left by a crash; only now does no checkpoint name them
          deleteOrphanSegmentFiles();
          orphansPending = false;
        }
      } catch (IOException | RuntimeException e) {
        if (!inPlace && snapshot != null) {
          snapshot.markAgain(); // the copies never reached the files: the next one takes them
        }
        // The pile fails when the files' state is unknown (in place: no further checkpoint may
        // build on it), when the log or superblock failed (DurabilityFailedException), and on
        // the checkpointer thread, where nobody would try again while the log fills up.
        if (inPlace || e instanceof DurabilityFailedException
            || Thread.currentThread() == checkpointer) {
          fail(new DurabilityFailedException("checkpoint of " + directory + " failed " + (inPlace
              ? "while it wrote segment files in place" + (log == null ? " (without a log they"
                  + " may now mix two states, and an open then refuses them: restore from a"
                  + " backup)" : "")
              : "before it changed any file the pile uses") + ": " + e.getMessage(), e));
          throw failedError();
        }
        throw new DurabilityFailedException(checkpointFailedBeforeAnyChange(e, clean), e);
      } finally {
        if (locked) {
          pile.unlockAll();
        }
        if (snapshot != null) {
          snapshot.close();
        }
      }
    } finally {
      checkpointLock.unlock();
      synchronized (signal) {
        signal.notifyAll();
      }
    }
  }

  /**
   * The most page copies a checkpoint without a log makes so that writers need not wait for its
   * writes (SegmentWriter.snapshot): the copy costs memory for as long as the checkpoint runs,
   * and its own time, a memory copy, under every stripe lock. A checkpoint with more dirty
   * pages (the first one of a large pile, say) holds the locks throughout instead.
   */
  static final long UNLOGGED_SNAPSHOT_MAX_BYTES = 256L << 20;

  private void writeSegment(MetaImage image, int i, SegmentWriter.Snapshot snapshot)
      throws IOException {
    if (snapshot != null) {
      segmentWriter().write(snapshot, i);
    } else {
      segmentWriter().write(image.segment(i), image.owner(i));
    }
  }

  private static byte[] withFlags(byte[] payload, int flags) {
    MemorySegment.ofArray(payload).set(Journal.U32, 36, flags);
    return payload;
  }

  /** The writer of segment files, made once the log (or its absence) is settled. */
  private SegmentWriter segmentWriter() {
    if (segmentWriter == null) {
      segmentWriter = new SegmentWriter(layer, directory, log);
    }
    return segmentWriter;
  }

  /** See {@link SegmentWriter#verifyPageChecksums}. */
  long verifyPageChecksums() throws IOException {
    checkpointLock.lock(); // no checkpoint may write a page between it and its checksum
    try {
      return segmentWriter().verifyPageChecksums(pile.segmentTable());
    } finally {
      checkpointLock.unlock();
    }
  }

  private static void writeMetaFile(FileLayer layer, Path file, MemorySegment meta)
      throws IOException {
    boolean created = !layer.exists(file);
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.CREATE)) {
      // over the old bytes, not after a truncate to 0: a file of the same size then changes no
      // block and no size. The truncate freed and re-allocated its blocks at every checkpoint,
      // and the checkpoint's thread waited in it about half as long as in the file's force
      // (JFR, docs/BENCHMARKS.md). The slot is the one the superblock does not name, so a
      // crash halfway leaves nothing anyone reads.
      handle.write(meta, 0);
      if (handle.size() > meta.byteSize()) {
        handle.truncate(meta.byteSize()); // fewer segments than last time
      }
      handle.force();
    }
    if (created) { // the superblock is about to name it: its name must be durable first
      layer.syncDirectory(file.getParent());
    }
  }

  // =========================================================================================
  // close

  /** Stops the checkpointer and, unless the pile failed, writes a clean checkpoint. */
  void closeCleanly() {
    stopCheckpointer();
    if (failure == null) {
      checkpoint(true);
    }
  }

  private void stopCheckpointer() {
    closing = true;
    synchronized (signal) {
      signal.notifyAll();
    }
    awaitTagReserver();
    Thread thread = checkpointer;
    if (thread != null && thread != Thread.currentThread()) {
      // an interrupted closer must still wait: the files close after this
      OwnThread.joinUninterruptibly(thread);
    }
  }

  /** Closes every file; memory is the pile's to release. Idempotent. */
  void closeFiles() {
    RuntimeException first = null;
    try {
      if (log != null) {
        log.close();
      }
    } catch (RuntimeException e) {
      first = e;
    }
    try {
      if (catalog != null) {
        catalog.close();
      }
      if (superblock != null) {
        superblock.close();
      }
      if (lock != null) {
        lock.close();
      }
    } catch (IOException e) {
      if (first == null) {
        first = new UncheckedIOException(e);
      }
    }
    if (segmentWriter != null) {
      segmentWriter.close();
      segmentWriter = null;
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * After a failed open, or to play a crash in tests: releases memory and files without a
   * checkpoint, so the files stay as a crash would leave them (the log forced, as after a
   * SYNC write).
   */
  void abandon() {
    stopCheckpointer();
    if (pile != null) {
      pile.releaseAllMemory();
    }
    try {
      closeFiles();
    } catch (RuntimeException ignored) {
      // the open's own exception is the one to report
    }
  }

  // =========================================================================================
  // diagnostics

  /** Transactions recovery found unfinished and undid at this open. */
  int unfinishedTransactions() {
    return unfinishedTransactions;
  }

  /** What a salvage open dropped from a damaged log, or null if nothing. */
  LogDamage salvaged() {
    return salvaged;
  }

  Recovery recoveryInfo() {
    return recovery;
  }

  long checkpointCount() {
    return checkpoints;
  }

  long lastCheckpointLsn() {
    return lastCheckpointLsn;
  }

  WriteAheadLog log() {
    return log;
  }

  /** The superblock state this open started from. */
  Superblock.State openedState() {
    return openedState;
  }

  Geometry geometry() {
    checkpointLock.lock();
    try {
      return geometry;
    } finally {
      checkpointLock.unlock();
    }
  }

  boolean readOnly() {
    return readOnly;
  }

  /** Where the log ends: as appended so far, or as a read-only open found it. */
  long logEndLsn() {
    return log != null ? log.endLsn() : logEndLsn;
  }

  /** The tag clock's bound in the durable superblock (0: a file of an earlier build). */
  long tagBoundOnDisk() {
    return durableTagBound;
  }

  Path directory() {
    return directory;
  }
}
