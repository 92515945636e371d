package dev.cairn.pile;

import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.LogDamage;
import dev.cairn.durability.file.DirectoryLock;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.LogLayout;
import dev.cairn.durability.log.LogOptions;
import dev.cairn.durability.log.LogRecovery;
import dev.cairn.durability.log.ScanResult;
import dev.cairn.durability.log.WriteAheadLog;
import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The files behind a persistent pile: opening and recovery, the redo log, checkpoints, close. A
 * lifecycle facade: it creates or opens the files, makes the parts that run them, gives the pile
 * its write hooks ({@link WriteHooks}), and closes everything; each part owns its state.
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
 * Parts, each with its own note:
 *   PileRecovery     open: the checkpoint's metadata and segment files, the log's replay from
 *                    the checkpoint, the undo of transactions the log left unfinished
 *                    ("Recovery at open").
 *   Checkpointer     the checkpoint at LSN C (steps 1-4), its thread, the segments only a
 *                    checkpoint may release, the log pinned by open transactions, the in-use
 *                    mark ("Checkpoint at LSN C").
 *   LogAdmission     room in the log before every write, and for transactions the room their
 *                    rollback needs (the undo rule).
 *   TagReservations  the tag bound in the superblock; every superblock write goes through it.
 *   StoreFailure     the failed state they share (I11).
 * They depend one way: LogAdmission -> Checkpointer -> TagReservations -> StoreFailure. Only
 * this class and PileRecovery hold the pile; the checkpointer sees it as a Checkpointer.Memory
 * (the stripes' locks, the segment table, the tag clock), given by PileMemory below.
 *
 * Lifecycle. open: lock the directory; create the pile if there is none (PileCreation); read the
 * superblock; load the checkpoint and replay the log (PileRecovery); undo unfinished
 * transactions; checkpoint (in the background when the log, forced by its open, holds the
 * recovered state); start the checkpointer. close: stop the checkpointer and tag reservations,
 * write a clean checkpoint unless the pile failed, close the files. abandon (a failed open, or
 * a crash in tests): the same without a checkpoint.
 *
 * Concurrency. The write path (WriteHooks, append) takes no lock: admission's counters, the
 * log's append, and the wait for durability after the stripe's lock is released. Threads that
 * wait sleep on one monitor, the signal: the checkpointer thread for a request, writers for log
 * space; a request, every checkpoint's end, a failure and close wake them. The log is chosen
 * during open (opened, or retired when a pile opened without a log finds one left by a run with
 * one) and never changes after; open publishes it with the pile.
 * }</pre>
 */
final class PersistentStore implements WriteHooks {

  private final FileLayer layer;
  private final Path directory;
  private final PileOptions options;
  private final DirectoryLock lock;
  private final Superblock superblock;
  private final PileTypeCatalog catalog;
  private final LogRecovery logRecovery;
  private final Superblock.State openedState;
  private final boolean logging;
  private final boolean readOnly;
  private final StoreFailure failure;
  private final TagReservations tags;
  private final Checkpointer checkpointer;
  private final LogAdmission admission;

  private OffHeapPile pile;
  private WriteAheadLog log; // null when the pile runs without a log
  private boolean appendsSuppressed; // recovery's undo of a log too full to take it
  private Recovery recoveryInfo;
  private LogDamage salvaged; // what a salvage dropped from a damaged log, or null
  private int unfinishedTransactions;
  private long logEndLsn; // as a read-only open found it

  /**
   * What opening found.
   *
   * @param lastCloseClean whether the pile was closed cleanly before this open: its last checkpoint
   *     was a clean close's, and no log record follows it
   * @param recordsReplayed log records applied by recovery
   * @param bytesReplayed bytes of log applied
   * @param openMillis time from the start of open until the pile was usable
   * @param replayMillis the part of it spent reading and applying the log, and undoing unfinished
   *     transactions
   * @param endSearchBytes bytes of log read past its end for proof that the end was durable ({@link
   *     ScanResult#endSearchBytes})
   * @param endSearchMillis the part of {@code replayMillis} that read took
   */
  record Recovery(
      boolean lastCloseClean,
      long recordsReplayed,
      long bytesReplayed,
      long openMillis,
      long replayMillis,
      long endSearchBytes,
      long endSearchMillis) {}

  private PersistentStore(
      FileLayer layer,
      Path directory,
      PileOptions options,
      DirectoryLock lock,
      Superblock superblock,
      boolean readOnly,
      PileTypeCatalog catalog,
      LogRecovery logRecovery,
      Superblock.State openedState,
      Geometry geometry) {
    this.layer = layer;
    this.directory = directory;
    this.options = options;
    this.lock = lock;
    this.superblock = superblock;
    this.readOnly = readOnly;
    this.catalog = catalog;
    this.logRecovery = logRecovery;
    this.openedState = openedState;
    this.logging = options.durability() != Durability.NONE && !readOnly;
    Object signal = new Object();
    this.failure = new StoreFailure(directory, options.durability(), signal);
    this.tags = new TagReservations(superblock, failure, directory);
    this.checkpointer =
        new Checkpointer(
            layer,
            directory,
            superblock,
            readOnly,
            geometry,
            openedState.checkpointLsn(),
            options.checkpointIntervalMillis(),
            new PileMemory(),
            tags,
            failure,
            signal);
    this.admission = new LogAdmission(directory, readOnly, checkpointer, failure, signal);
  }

  // =========================================================================================
  // open

  static OffHeapPile open(FileLayer layer, Path directory, PileOptions options) throws IOException {
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
  static OffHeapPile open(
      FileLayer layer,
      Path directory,
      PileOptions options,
      boolean readOnly,
      LogRecovery logRecovery)
      throws IOException {
    return open(layer, directory, options, readOnly, logRecovery, ParticipantRegistry.NONE);
  }

  /** Opens the pile read-write with {@code participants} registered (see LogParticipant). */
  static OffHeapPile open(
      FileLayer layer, Path directory, PileOptions options, ParticipantRegistry participants)
      throws IOException {
    return open(layer, directory, options, false, LogRecovery.STRICT, participants);
  }

  /**
   * Opens the pile read-only with {@code participants} registered: they are opened and replayed as
   * at a read-write open, in memory; nothing is written to the files.
   */
  static OffHeapPile openReadOnly(
      FileLayer layer, Path directory, PileOptions options, ParticipantRegistry participants)
      throws IOException {
    return open(layer, directory, options, true, LogRecovery.STRICT, participants);
  }

  private static OffHeapPile open(
      FileLayer layer,
      Path directory,
      PileOptions options,
      boolean readOnly,
      LogRecovery logRecovery,
      ParticipantRegistry participants)
      throws IOException {
    long started = System.nanoTime();
    // JFR: committed once the pile is usable; made only while JFR runs (FlightRecording)
    RecoveryEvent event = FlightRecording.running() ? new RecoveryEvent() : null;
    if (event != null) {
      event.begin();
    }
    Path superblockFile = directory.resolve(PileFiles.SUPERBLOCK);
    PileOptions.OpenMode mode = readOnly ? PileOptions.OpenMode.OPEN_EXISTING : options.openMode();
    // judged before anything changes, the lock file included: a refused directory stays as it was
    DirectoryContents found = DirectoryContents.of(layer, directory);
    found.check(mode, readOnly);
    if (found.kind() == DirectoryContents.Kind.MISSING) {
      PileCreation.createDirectoriesDurably(layer, directory);
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
        PileCreation.create(layer, directory, options);
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
      PileRecovery.refuseUnloggedCheckpointCut(superblockFile, state.payload());
      catalog = new PileTypeCatalog(layer, directory, readOnly);
      PileOptions effective =
          PileOptions.builder()
              .segmentBytes(geometry.segmentBytes())
              .stripes(geometry.stripes())
              .maxMemoryBytes(Math.max(options.maxMemoryBytes(), geometry.segmentBytes()))
              .codecs(options.codecs().withCatalog(catalog))
              .durability(options.durability())
              .logFileBytes(options.logFileBytes())
              .logFileCount(options.logFileCount())
              .syncIntervalMillis(options.syncIntervalMillis())
              .checkpointIntervalMillis(options.checkpointIntervalMillis())
              .hugePages(options.hugePages())
              .build();
      store =
          new PersistentStore(
              layer,
              directory,
              effective,
              lock,
              superblock,
              readOnly,
              catalog,
              logRecovery,
              state,
              geometry);
      OffHeapPile pile =
          new OffHeapPile(effective, store, geometry.tagKey(), geometry.tagOrigin(), participants);
      store.pile = pile;
      participants.bind(pile);
      PileRecovery recovery = new PileRecovery(layer, directory, pile, effective, readOnly);
      recovery.trustRewrittenPages(PileRecovery.cutBehind(layer, directory, state, geometry));
      recovery.load(
          PileFiles.metaFile(directory, geometry.metaSlot()),
          PileRecovery.readMeta(layer, directory, geometry, state.checkpointLsn()));
      if (!readOnly) {
        // before the log is opened (its open writes its metadata): a pile whose checkpoint holds
        // values and no state of a participant that owns its pile is refused with no file touched
        participants.refuseForeignPile(directory, pile.objectCount(), pile.roots().size());
      }
      store.recover(recovery, state, started);
      success = true;
      if (event != null && event.shouldCommit()) {
        Recovery r = store.recoveryInfo;
        event.directory = directory.toString();
        event.lastCloseClean = r.lastCloseClean();
        event.recordsReplayed = r.recordsReplayed();
        event.bytesReplayed = r.bytesReplayed();
        event.endSearchBytes = r.endSearchBytes();
        event.commit();
      }
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
   * Recovery at open, after PileRecovery loaded the checkpoint: replays the log if there is one,
   * undoes the transactions it left unfinished, checkpoints, and starts the checkpointer.
   */
  private void recover(PileRecovery recovery, Superblock.State state, long started)
      throws IOException {
    Path logDirectory = directory.resolve(PileFiles.LOG_DIRECTORY);
    boolean logExists = layer.exists(logDirectory.resolve(LogLayout.META_FILE_NAME));
    long records = 0;
    long bytes = 0;
    ScanResult scanned = null; // how the log's scan went, if there is a log
    long bound = Geometry.tagBoundOf(directory.resolve(PileFiles.SUPERBLOCK), state.payload());
    tags.onDisk(bound); // what the file says; a read-only open (inspect) stops at that
    long replayStarted = System.nanoTime();
    if (readOnly) {
      if (logExists) {
        scanned = recovery.scanLog(logDirectory, state.checkpointLsn());
        records = scanned.records();
        bytes = scanned.endLsn() - scanned.fromLsn();
        logEndLsn = scanned.endLsn();
      }
      // undone in memory only (nothing is logged or written): the view read-write recovery
      // will produce from the same files
      unfinishedTransactions = recovery.undoUnfinished();
      long replayNanos = System.nanoTime() - replayStarted;
      pile.regions().replayEnded();
      pile.participants().recovered();
      pile.regions().participantsRecovered();
      opened(state, records, bytes, replayNanos, scanned, started);
      return;
    }
    if (logging || logExists) {
      LogOptions logOptions = PileCreation.logOptions(options);
      useLog(
          recovery.openLog(logDirectory, logOptions, state, logRecovery),
          logOptions.maxPayloadBytes());
      salvaged = log.salvaged();
      scanned = log.recovery();
      records = scanned.records();
      bytes = scanned.endLsn() - scanned.fromLsn();
    }
    // again after the replay, for values that only the log held, before anything is logged or
    // checkpointed (the undo below logs); only the log's open has written, its own metadata
    pile.participants().refuseForeignPile(directory, pile.objectCount(), pile.roots().size());
    // Transactions that never ended: their undo is logged like any write, in the room the
    // undo rule kept for it (see LogAdmission.admitTransaction). A log written without that
    // room (by an earlier build) may not hold it: then the undo is not logged, and the
    // checkpoint below writes it to the files before the pile is used. A crash before that
    // checkpoint is durable replays the same log and undoes the same allocations again.
    boolean undoUnlogged = log != null && logging && recovery.undoBytes() > log.remainingBytes();
    appendsSuppressed = undoUnlogged;
    try {
      unfinishedTransactions = recovery.undoUnfinished();
    } finally {
      appendsSuppressed = false;
    }
    long replayNanos = System.nanoTime() - replayStarted;
    pile.regions().replayEnded(); // the regions' deferred page checks (Regions RG2)
    pile.participants().recovered();
    pile.regions().participantsRecovered(); // Regions RG6: hinted regions are checked from now on
    tags.resume(bound);
    if (recovery.cutBehind()) {
      // before the checkpoint below overwrites the metadata slot that told of the cut
      checkpointer.recordCutCheckpoint(); // PileRecovery CC2
    }
    if (!state.cleanShutdown()) {
      // after the replay restored every stripe's clock. Puts lost to the crash handed out tags
      // up to the clock at the crash, which only the bound covers
      pile.tagClock().atLeast(bound); // 0 only if no tag was ever handed out
      tags.reserveAfterCrash(pile.tagClock().current());
    }
    if (records > 0 || !state.cleanShutdown()) {
      if (logging && !undoUnlogged) {
        // the log, forced by its open, holds the recovered state: the checkpoint that makes
        // the files hold it too can run in the background, so open returns after the replay
        checkpointer.request();
      } else {
        checkpointer.checkpoint(false); // no log after this open: the files must hold it first
      }
    } else {
      // after a clean close: said by the first write (instant reopen)
      checkpointer.deferInUseMark();
    }
    if (!logging && log != null) { // a log left by a run with one: recovered, now retired
      log.close();
      useLog(null, 0);
    }
    opened(state, records, bytes, replayNanos, scanned, started);
    if (log != null) {
      checkpointer.start();
    }
  }

  /** The log every part uses from here on, or null for none (during open only). */
  private void useLog(WriteAheadLog log, long maxPayloadBytes) {
    this.log = log;
    admission.useLog(log, maxPayloadBytes);
    checkpointer.useLog(log);
  }

  private void opened(
      Superblock.State state,
      long records,
      long bytes,
      long replayNanos,
      ScanResult scanned,
      long started) {
    recoveryInfo =
        new Recovery(
            state.cleanShutdown() && records == 0,
            records,
            bytes,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
            TimeUnit.NANOSECONDS.toMillis(replayNanos),
            scanned == null ? 0 : scanned.endSearchBytes(),
            scanned == null ? 0 : TimeUnit.NANOSECONDS.toMillis(scanned.endSearchNanos()));
    checkpointer.opened();
  }

  /**
   * What a checkpoint sees of the pile (Checkpointer.Memory): its stripes' locks, the state of a
   * checkpoint's step 2, its segment table and tag clock.
   */
  private final class PileMemory implements Checkpointer.Memory {
    @Override
    public void lockAll() {
      pile.lockAll();
    }

    @Override
    public void unlockAll() {
      pile.unlockAll();
    }

    @Override
    public MetaImage snapshotForCheckpoint(long checkpointLsn) {
      return pile.snapshotForCheckpoint(checkpointLsn);
    }

    @Override
    public NativeSegment segmentAt(int index) {
      return pile.segmentTable().segmentAt(index);
    }

    @Override
    public boolean isRetired(int index) {
      return pile.segmentTable().isRetired(index);
    }

    @Override
    public void releaseRetired(NativeSegment segment) {
      pile.segmentTable().releaseRetired(segment);
    }

    @Override
    public long tagClock() {
      return pile.tagClock().current();
    }

    @Override
    public boolean hasParticipants() {
      return !pile.participants().isEmpty();
    }

    @Override
    public void awaitAttachedWrites() {
      pile.awaitAttachedWrites();
    }
  }

  // =========================================================================================
  // reads of the files

  /** Reads the files of segments {@code indexes} ahead of use: see {@link SegmentPrefetch}. */
  CompletableFuture<Void> prefetch(List<Integer> indexes, BooleanSupplier stop) {
    return SegmentPrefetch.start(layer, directory, indexes, stop);
  }

  /** See {@link Checkpointer#verifyPageChecksums}. */
  long verifyPageChecksums() throws IOException {
    return checkpointer.verifyPageChecksums();
  }

  // =========================================================================================
  // the write path (see LogAdmission)

  @Override
  public boolean logging() {
    return logging;
  }

  /** The largest value a record can carry: the log buffer less room for the rest of an op. */
  @Override
  public long maxValueBytes() {
    return admission.maxValueBytes();
  }

  /** See {@link LogAdmission#admit(long, boolean)}. */
  @Override
  public long admit(long recordBytes) {
    return admission.admit(recordBytes);
  }

  /** See {@link LogAdmission#admitHint}. */
  @Override
  public void hintWritten() {
    admission.admitHint();
  }

  /** See {@link LogAdmission#admitTransaction}: the undo rule. */
  @Override
  public long admitTransaction(long txId, long recordBytes, long allocations, boolean ending) {
    return admission.admitTransaction(txId, recordBytes, allocations, ending);
  }

  /** Gives back what {@link #admit} reserved. */
  @Override
  public void release(long reserved) {
    admission.release(reserved);
  }

  /** Tests: admit as earlier builds did, keeping no log room for rollbacks. */
  void keepNoUndoSpaceForTests() {
    admission.keepNoUndoSpaceForTests();
  }

  /** A transaction is about to allocate: the log from here on must outlive checkpoints. */
  @Override
  public void transactionAllocates(long txId) {
    checkpointer.pin(txId);
  }

  @Override
  public void transactionEnded(long txId) {
    checkpointer.unpin(txId);
    admission.transactionEnded(txId);
  }

  MemorySegment segmentMemory(int index) {
    NativeSegment segment = pile.segmentTable().segmentAt(index);
    return segment == null ? null : segment.memory();
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

  void appendTransactionEnd(long txId) {
    MemorySegment payload = MemorySegment.ofArray(new byte[8]);
    payload.set(Journal.U64, 0, txId);
    append(Journal.TYPE_TX_END, payload);
  }

  /** Logs a purge: one record, so that recovery drops everything or nothing. */
  long appendPurge() {
    return append(Journal.TYPE_PURGE, MemorySegment.ofArray(new byte[0]));
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
    return log.awaitDurable(lsn)
        .handle(
            (durable, error) -> {
              if (error != null) {
                Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                RuntimeException failed =
                    cause instanceof RuntimeException runtime
                        ? runtime
                        : new DurabilityFailedException(cause.getMessage(), cause);
                fail(failed);
                throw failed;
              }
              return null;
            });
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

  /** See {@link TagReservations#tagsTaken}. */
  void tagsTaken(long end) {
    tags.tagsTaken(end);
  }

  // =========================================================================================
  // checkpoints (see Checkpointer)

  /** Writes a checkpoint now; see {@link Checkpointer#checkpoint}. */
  void checkpoint(boolean clean) {
    checkpointer.checkpoint(clean);
  }

  /** Tests: see {@link SegmentWriter#onPageCopied}. */
  void onPageCopiedForTests(SegmentWriter.PageCopyHook hook) {
    checkpointer.onPageCopied(hook);
  }

  /** A segment left its stripe: released after the next checkpoint (Checkpointer). */
  void retire(NativeSegment segment) {
    checkpointer.retire(segment);
  }

  /** Segments retired since the last checkpoint took them: emptied, not yet released. */
  int retiredSegmentCount() {
    return checkpointer.retiredSegmentCount();
  }

  List<NativeSegment> takeRetired() {
    return checkpointer.takeRetired();
  }

  // =========================================================================================
  // failure

  private void fail(RuntimeException cause) {
    failure.fail(cause);
  }

  /** What every call of a failed pile throws (I11): see {@link StoreFailure#error}. */
  private DurabilityFailedException failedError() {
    return failure.error(log != null);
  }

  // =========================================================================================
  // close

  /** Stops the checkpointer and, unless the pile failed, writes a clean checkpoint. */
  void closeCleanly() {
    stop();
    if (!failure.failed()) {
      checkpointer.checkpoint(true);
    }
  }

  /** Stops the checkpointer and tag reservations, and waits for them. */
  private void stop() {
    checkpointer.stop();
    tags.close();
    checkpointer.join();
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
    checkpointer.closeWriter();
    if (first != null) {
      throw first;
    }
  }

  /**
   * After a failed open, or to play a crash in tests: releases memory and files without a
   * checkpoint, so the files stay as a crash would leave them (the log forced, as after a SYNC
   * write).
   */
  void abandon() {
    stop();
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
    return recoveryInfo;
  }

  long checkpointCount() {
    return checkpointer.count();
  }

  /** See {@link Pile#durabilityStats}: counters read without a lock. */
  DurabilityStats durabilityStats() {
    Recovery r = recoveryInfo;
    WriteAheadLog l = log;
    return new DurabilityStats(
        true,
        r == null || r.lastCloseClean(),
        r == null ? 0 : r.recordsReplayed(),
        r == null ? 0 : r.bytesReplayed(),
        r == null ? 0 : r.openMillis(),
        r == null ? 0 : r.replayMillis(),
        r == null ? 0 : r.endSearchBytes(),
        r == null ? 0 : r.endSearchMillis(),
        logEndLsn(),
        l == null ? 0 : l.durableLsn(),
        checkpointer.count(),
        checkpointer.lastCheckpointLsn());
  }

  long lastCheckpointLsn() {
    return checkpointer.lastCheckpointLsn();
  }

  WriteAheadLog log() {
    return log;
  }

  /** The superblock state this open started from. */
  Superblock.State openedState() {
    return openedState;
  }

  Geometry geometry() {
    return checkpointer.geometry();
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
    return tags.durableBound();
  }

  Path directory() {
    return directory;
  }
}
