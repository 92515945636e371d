package dev.cairn.durability.log;

import static dev.cairn.durability.log.LogLayout.CRC_OFFSET;
import static dev.cairn.durability.log.LogLayout.DURABLE_LAG_OFFSET;
import static dev.cairn.durability.log.LogLayout.EPOCH_OFFSET;
import static dev.cairn.durability.log.LogLayout.FIRST_USER_TYPE;
import static dev.cairn.durability.log.LogLayout.LENGTH_OFFSET;
import static dev.cairn.durability.log.LogLayout.LSN_OFFSET;
import static dev.cairn.durability.log.LogLayout.MAX_DURABLE_LAG;
import static dev.cairn.durability.log.LogLayout.MAX_TYPE;
import static dev.cairn.durability.log.LogLayout.PAYLOAD_OFFSET;
import static dev.cairn.durability.log.LogLayout.SEQUENCE_UNUSED;
import static dev.cairn.durability.log.LogLayout.TYPE_OFFSET;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.LogClosedException;
import dev.cairn.durability.LogDamage;
import dev.cairn.durability.LogFullException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.Superblock;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * A write-ahead log: records appended by many threads, written in batches by one flusher thread,
 * made durable by shared forces (group commit), and read back in order after a crash. The format is
 * in {@link LogLayout}.
 *
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=write-ahead-log}
 *
 * <p>Thread-safety: every method may be called from any thread.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Size: this class is longer than Cairn's 800-line rule of thumb on purpose. Its one job is the
 * group-committed ring (reservation, copy, publication, the flusher, the forcer, inline commits,
 * back-pressure and failure), and the invariants below tie all of those positions together;
 * split across classes, each part would need the others' fields. The file work it does not need
 * to see lives in LogFiles, LogScanner and LogMeta.
 *
 * Positions (LSNs, all monotonic):
 *   durable <= written <= reserved, and reserved <= limit.
 *   reserved  next free LSN; appenders claim [start, start + frame) with a CAS on it. Its two
 *             top bits carry CLOSED and FAILED, so no reservation can slip in after either.
 *   written   everything before it is handed to the OS and its buffer space is free again.
 *   durable   everything before it has been forced (I10: no acknowledgement passes it).
 *   limit     (first retained file + fileCount) * dataBytes: a reservation past it would
 *             overwrite a file still needed, so it throws LogFullException instead of waiting.
 *
 * Buffer: a power-of-two ring of native memory; LSN x lives at ring[x & mask]. Records are
 * 8-aligned, so no header field straddles the ring's end; a payload may (two copies).
 *
 * Concurrency:
 *   append  CAS-reserves its frame; waits (rarely) until the ring has room, i.e. written >=
 *           end - ringBytes; copies header and payload into the ring with no lock held;
 *           computes the CRC over the ring bytes; then publishes by a volatile store of the
 *           Type byte (never 0 in a record). Wakes the flusher only if it is parked idle, or
 *           someone waits, or a quarter of the ring is pending. If the caller's payload
 *           cannot be read (a closed segment), the reserved space is published as a void
 *           record (LogLayout.TYPE_SKIP) before the exception propagates: a reservation is
 *           always published, or the flusher would wait for it forever.
 *   flusher scans forward from written while Type bytes are non-zero (a record still being
 *           copied stops the scan; so does the end of the current lap, written + ringBytes,
 *           past which the ring still holds the previous lap's bytes), writes that prefix
 *           with positional writes (splitting at
 *           the ring's end and at file boundaries, writing a file's header the first time
 *           the log enters it), zeroes the ring range, publishes written, and asks the
 *           forcer for a force (forceRequested = written) when a sync is requested, the
 *           period is due, or the log closes.
 *   forcer  a second thread (in ON_COMMIT mode the flusher forces itself): takes the dirty
 *           flags of the files, forces them, publishes durable = the forceRequested it
 *           started from, and releases the waiters it covers. Why a thread of its own: a
 *           force can take 100+ ms while checkpoints write segment files, and a flusher
 *           that forced inline would stop writing, so the ring would fill and every put wait
 *           in awaitSpace. With a forcer the flusher keeps draining the ring during a force,
 *           and the next batch's force is asked for while the previous one runs: one force
 *           acknowledges everyone who waited during the previous one.
 *   inline  in ON_COMMIT mode a committer whose record is published, and finds the flush lock free
 *           (the flusher holds it for each pass of its loop, never while parked), writes the
 *           published records and forces them itself, publishes durable and releases whoever
 *           they cover, like a pass of the flusher. That spares two thread wake-ups per commit
 *           (see syncInline). It writes and forces through second handles on the same files
 *           (LogFiles.committerHandle), because an interrupt of a thread inside a
 *           FileChannel operation closes that channel: an
 *           interrupted committer loses its handles and the shortcut, puts the dirty flags it
 *           took back, and waits for the flusher, which forces through its own handles (and
 *           would see any error the interrupted force met, as the kernel reports a writeback
 *           error to every open file description). It leaves file recycling, and anything
 *           not yet published, to the flusher.
 *   waiters syncTo pushes a per-thread node on a lock-free stack, raises syncRequested, wakes
 *           the flusher if parked, and parks; the flusher pops the stack after each force,
 *           unparks the covered waiters and pushes the others back. A node pushed just after
 *           a release, for an LSN already durable, asks for no force: the flusher releases it
 *           before it parks (it checks the stack's head), and once the flusher has exited the
 *           pusher pops the stack itself. Releases, and a failure's drain, are serialized
 *           (releaseLock), so a node pushed back by one releaser is seen by the next. Futures
 *           are completed on a separate completer thread, never on the flusher (a callback that
 *           blocks there would stop group commit, and one that closes the log would deadlock).
 *   parking The flusher publishes its parked state (volatile) and then re-checks for work;
 *           wakers publish their work (volatile) and then read the state. Both sides use
 *           volatile accesses (the Type byte too), so no wake-up is lost. An appender wakes
 *           only an idle flusher (or one that must write: a sync, a quarter of the ring), so
 *           a flusher parked until the next periodic force with nothing to write looks for new
 *           records every write delay: each record reaches the OS, and so survives a process
 *           crash, within about two write delays of its append plus the flusher's scheduling,
 *           not one period.
 *
 * Recovery (open): scan from the caller's checkpoint LSN (LogScanner); bump the epoch in
 * wal.meta and record that it starts at the end of the scan (forced), so that this
 * incarnation's records are newer than anything an earlier one left beyond the end, and a
 * later scan starting in the middle of that region still knows it (LogMeta); force the log
 * files that hold the recovered records (those from the checkpoint's file to the end's), so
 * that they are durable before any new record can vouch for them (a process killed before
 * it forced leaves them in the page cache only); then durable = written = reserved = end of
 * the scan. The other files need no force: what they hold is beyond the end, stale for the
 * new epoch whether or not writeback has made it durable. The torn tail is not zeroed: the
 * epoch and LSN checks reject whatever is left there.
 *
 * Salvage (LogRecovery.SALVAGE): where the scan finds damage that a strict open refuses
 * (CorruptLogException at LSN p), it ends the log at p instead, having replayed everything
 * before p. Before anything is written, the log's files are copied beside the log directory
 * (forced, directories synced), and the records after p are surveyed for the report
 * (LogDamage). Then, unlike a torn tail, the rest is zeroed (LogFiles.dropFrom): the records
 * after p are valid and claim p was durable, so as proofs they would make the next open
 * refuse the log again, and once the new incarnation wrote past them they would vouch for
 * its end. A crash part way leaves a log a second salvage ends at the same p.
 *
 * Failure: an I/O error in the flusher (write) or the forcer (force) fails the log for good
 * (I11): the
 * FAILED bit stops reservations, durable never moves again, every waiter and every later
 * call throws DurabilityFailedException with the original cause. Nothing is retried.
 *
 * Lifecycle: close() sets CLOSED, lets the flusher drain and force everything reserved
 * before it (appenders already past the CAS finish their copy), stops both threads, and
 * closes the
 * files. The ring is an automatic arena, freed by the GC, so a late appender of a failed log
 * can never touch freed memory. The first append allocates it (ring()), not the open: zeroing
 * 16 MiB is about 4,000 page faults, 11 ms of an open that reads nothing else of that size,
 * and a log that is only read (a cache reopened to serve hits) needs none of it. Allocated by
 * the flusher as it starts instead, it gained nothing: its page faults held up the open's
 * mappings of segment files (both take the process's mapping lock). An appender takes the
 * ring before it reserves, so a reserved LSN implies a published ring, and a scan that finds
 * none has nothing to scan. Per-thread scratch (CRC32C, waiter node, a view of the ring)
 * is shared by all logs: nothing is allocated per append or per sync.
 * }</pre>
 */
public final class WriteAheadLog implements AutoCloseable {

  private static final long CLOSED = 1L << 62;
  private static final long FAILED = 1L << 61;
  private static final long FLAGS = CLOSED | FAILED;

  /** LSNs must stay below the flag bits. */
  static final long MAX_LSN = FAILED - 1;

  private static final int RUNNING = 0;
  private static final int PARKED_TIMED = 1;
  private static final int PARKED_IDLE = 2;

  private static final ValueLayout.OfInt INT =
      ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle TYPE_BYTE = ValueLayout.JAVA_BYTE.varHandle();
  private static final VarHandle RESERVED;
  private static final VarHandle FLUSHER_STATE;
  private static final VarHandle SYNC_REQUESTED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      RESERVED = lookup.findVarHandle(WriteAheadLog.class, "reserved", long.class);
      FLUSHER_STATE = lookup.findVarHandle(WriteAheadLog.class, "flusherState", int.class);
      SYNC_REQUESTED = lookup.findVarHandle(WriteAheadLog.class, "syncRequested", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final LogFiles files;
  private final LogOptions options;
  private final LogSync mode;
  private final int epoch;
  private final long dataBytes;
  private final ScanResult recovery;
  private final LogDamage salvaged;
  private final int maxPayloadBytes;

  // allocated by the first append (see Lifecycle): null until ring() publishes it, never reset
  private volatile MemorySegment ring;
  private final Object ringLock = new Object();
  private final int ringBytes;
  private final long ringMask;
  private final long writeThreshold;
  private ByteBuffer flusherView; // the ring's, made by the first writeOut; under flushLock

  // hot fields (appenders CAS reserved; the flusher writes the others)
  @SuppressWarnings("unused") // through RESERVED
  private volatile long reserved;

  private volatile long written;
  private volatile long durable;
  private volatile long limit;
  private volatile long syncRequested;
  private volatile int flusherState;
  private volatile long forces; // by the forcer (PERIODIC), else under flushLock
  private final AtomicLong lateWakeups = new AtomicLong(); // see lateWakeups()
  private volatile long forceRequested; // under flushLock (the flusher, or an inline committer)
  private volatile boolean flusherExited;

  private final Thread flusher;
  private final Thread forcer; // null in ON_COMMIT mode, where the flusher forces

  /**
   * Per file slot, 1 if written since its last force: set by whoever writes (the flusher, an inline
   * committer), taken by whoever forces.
   */
  private final AtomicIntegerArray dirty;

  private final Object releaseLock = new Object();

  /**
   * Held by whoever moves written and durable: the flusher for each pass of its loop, or in
   * ON_COMMIT mode a committer that writes and forces its own record (see syncInline).
   */
  private final ReentrantLock flushLock = new ReentrantLock();

  private final List<Waiter> inlineFutures = new ArrayList<>(); // guarded by flushLock
  private long firstRetainedSequence; // guarded by this

  private final AtomicReference<Waiter> waiters = new AtomicReference<>();
  private final ReentrantLock spaceLock = new ReentrantLock();
  private final Condition spaceFreed = spaceLock.newCondition();
  private volatile int spaceWaiters;

  private volatile DurabilityFailedException failure;
  private final Object completerLock = new Object();
  private ExecutorService completer; // guarded by completerLock

  /**
   * Per-thread reusable state, so that append and syncTo allocate nothing. One per thread for all
   * logs: it keeps a view of the ring of the last log the thread appended to (rebuilt when the
   * thread switches logs), so at most one closed log's buffer per thread stays reachable.
   */
  private static final ThreadLocal<Scratch> SCRATCH =
      new ThreadLocal<>() { // not withInitial(Scratch::new): see OffHeapPile, "Start-up"
        @Override
        protected Scratch initialValue() {
          return new Scratch();
        }
      };

  private static final class Scratch {
    final CRC32C crc = new CRC32C();
    Waiter waiter = new Waiter(Thread.currentThread(), null);
    MemorySegment viewOf;
    ByteBuffer ringView;

    ByteBuffer view(MemorySegment ring) {
      if (viewOf != ring) {
        ringView = ring.asByteBuffer();
        viewOf = ring;
      }
      return ringView;
    }
  }

  /** A thread blocked in syncTo, or a pending future. */
  private static final class Waiter {
    final Thread thread;
    final CompletableFuture<Long> future;
    long lsn;
    Waiter next;
    volatile boolean released;

    Waiter(Thread thread, CompletableFuture<Long> future) {
      this.thread = thread;
      this.future = future;
    }
  }

  private WriteAheadLog(
      LogFiles files,
      LogOptions options,
      int epoch,
      ScanResult recovery,
      long firstRetainedSequence,
      LogDamage salvaged) {
    this.salvaged = salvaged;
    this.files = files;
    this.options = options;
    this.mode = options.mode();
    this.epoch = epoch;
    this.dataBytes = files.dataBytes;
    this.recovery = recovery;
    this.maxPayloadBytes = options.maxPayloadBytes();
    this.ringBytes = options.bufferBytes();
    this.ringMask = ringBytes - 1L;
    this.writeThreshold = ringBytes / 4;
    this.dirty = new AtomicIntegerArray(files.fileCount);
    this.firstRetainedSequence = firstRetainedSequence;
    long end = recovery.endLsn();
    this.reserved = end;
    this.written = end;
    this.durable = end;
    this.forceRequested = end;
    this.syncRequested = end;
    this.limit = (firstRetainedSequence + files.fileCount) * dataBytes;
    this.flusher =
        Thread.ofPlatform()
            .name("cairn-wal-flusher-" + files.directory.getFileName())
            .daemon(true)
            .unstarted(new Loop(this, false));
    // ON_COMMIT forces inline: every appender waits for its force anyway, so the ring cannot fill
    // meanwhile, and a hand-off to another thread added 30% to a lone committer's latency
    this.forcer =
        mode == LogSync.ON_COMMIT
            ? null
            : Thread.ofPlatform()
                .name("cairn-wal-forcer-" + files.directory.getFileName())
                .daemon(true)
                .unstarted(new Loop(this, true));
  }

  // =========================================================================================
  // open

  /**
   * Opens the log in {@code directory}, creating it if there is none, and recovers it: calls {@code
   * replay} for every valid record from {@code fromLsn} (the checkpoint LSN; 0 for a new log) in
   * order, then makes them durable, takes a new epoch and returns a log that appends after the last
   * of them.
   *
   * @param options the geometry applies only when the log is created; an existing log keeps its own
   *     files
   * @throws CorruptFileException if the log is damaged where it had been durable (see {@link
   *     LogReader#scan(long, long, RecordVisitor)}), or wal.meta is missing while log files hold
   *     records
   * @throws FormatVersionException if a file is of another format version or kind
   * @throws IOException if the files cannot be created (a full disk, for example) or read
   */
  public static WriteAheadLog open(
      FileLayer layer, Path directory, LogOptions options, long fromLsn, RecordVisitor replay)
      throws IOException {
    return open(layer, directory, options, fromLsn, -1, replay);
  }

  /**
   * Opens the log as {@link #open(FileLayer, Path, LogOptions, long, RecordVisitor)} does, for an
   * owner that knows the log ended at {@code cleanEndLsn} when it was last closed cleanly (-1 if
   * not): if recovery finds the end exactly there, it skips the search for records proving later
   * damage, which reads up to a whole log file. That makes reopening after a clean close cost
   * nothing in the log's size.
   */
  public static WriteAheadLog open(
      FileLayer layer,
      Path directory,
      LogOptions options,
      long fromLsn,
      long cleanEndLsn,
      RecordVisitor replay)
      throws IOException {
    return open(layer, directory, options, fromLsn, cleanEndLsn, LogRecovery.STRICT, replay);
  }

  /**
   * Opens the log as {@link #open(FileLayer, Path, LogOptions, long, long, RecordVisitor)} does,
   * with a choice of what to do if the log is damaged where it had been durable. {@link
   * LogRecovery#STRICT} throws {@link CorruptLogException}. {@link LogRecovery#SALVAGE} replays
   * every record before the damage, copies the log's files to {@code <directory>.damaged-<UTC
   * time>} beside {@code directory}, zeroes the log from the damage on, and opens a log that
   * appends where the damage was; {@link #salvaged()} says what was dropped. A log without damage
   * opens the same in both modes.
   *
   * <p>Point in time: a salvage keeps nothing after the damage, not even valid records, since they
   * may depend on what was lost. The caller should checkpoint what it recovered before it relies on
   * it, and must not reuse anything it derived from records it was not given.
   *
   * @throws CorruptLogException in {@link LogRecovery#STRICT} mode, if the log is damaged where it
   *     had been durable
   * @throws CorruptFileException if {@code wal.meta} or a log file is damaged or missing, which no
   *     salvage repairs, or {@code replay} threw it
   * @throws IOException if the files cannot be read or written, or the copy of a damaged log cannot
   *     be made (a full disk, say: then nothing was changed)
   */
  public static WriteAheadLog open(
      FileLayer layer,
      Path directory,
      LogOptions options,
      long fromLsn,
      long cleanEndLsn,
      LogRecovery recovery,
      RecordVisitor replay)
      throws IOException {
    Objects.requireNonNull(recovery, "recovery");
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(replay, "replay");
    if (fromLsn < 0 || fromLsn % LogLayout.ALIGNMENT != 0 || fromLsn > MAX_LSN) {
      throw new IllegalArgumentException(
          "fromLsn must be a non-negative multiple of 8: fromLsn=" + fromLsn);
    }
    Path meta = directory.resolve(LogLayout.META_FILE_NAME);
    if (!layer.exists(meta)) {
      create(layer, directory, options);
    }
    LogFiles files = null;
    boolean success = false;
    try (Superblock metaBlock = Superblock.open(layer, meta)) {
      LogMeta logMeta = LogMeta.of(meta, metaBlock.current());
      files = LogFiles.open(layer, directory, logMeta, true);
      ScanResult scan;
      LogDamage damage = null;
      try (LogScanner scanner = new LogScanner(files, recovery)) {
        scan = scanner.scan(fromLsn, -1, cleanEndLsn, replay);
        CorruptLogException found = scanner.damage();
        if (found != null) {
          long p = found.lsn();
          LogScanner.Survey dropped =
              scanner.survey(
                  p,
                  (files.sequenceOf(fromLsn) + files.fileCount) * files.dataBytes,
                  scan.lastEpoch());
          Path copy = copyFiles(layer, directory); // before anything changes
          files.dropFrom(p);
          damage =
              new LogDamage(
                  found.file(),
                  found.offset(),
                  p,
                  found.problem(),
                  dropped.lastLsn(),
                  dropped.endLsn(),
                  dropped.endLsn() - p,
                  dropped.records(),
                  dropped.endLsn() - p - dropped.recordBytes(),
                  copy);
        }
      }
      // the new epoch, and where it starts, durable before anything is appended
      Superblock.State next = metaBlock.write(0, false, logMeta.next(fromLsn, scan.endLsn()));
      // the files that hold the recovered records; the others hold only what the new epoch
      // makes stale, which no force makes valid and writeback may make durable at any time
      long firstSequence = files.sequenceOf(fromLsn);
      long lastSequence = files.sequenceOf(Math.max(fromLsn, scan.endLsn()));
      for (long sequence = firstSequence;
          sequence <= lastSequence && sequence - firstSequence < files.fileCount;
          sequence++) {
        files.force(files.slotOf(sequence));
      }
      WriteAheadLog log =
          new WriteAheadLog(
              files, options, (int) next.epoch(), scan, files.sequenceOf(fromLsn), damage);
      log.flusher.start();
      if (log.forcer != null) {
        log.forcer.start();
      }
      success = true;
      return log;
    } catch (DurabilityFailedException e) {
      throw new IOException("could not record the log's new epoch in " + meta, e.getCause());
    } finally {
      if (!success && files != null) {
        files.close();
      }
    }
  }

  /**
   * Copies every file of the log in {@code directory} to a new directory beside it, {@code
   * <name>.damaged-<UTC time>}, durably; returns its path.
   */
  private static Path copyFiles(FileLayer layer, Path directory) throws IOException {
    String stamp = DamagedStamp.FORMAT.format(java.time.Instant.now());
    String name = directory.getFileName() + ".damaged-" + stamp;
    Path copy = directory.resolveSibling(name);
    for (int n = 2; layer.exists(copy); n++) {
      copy = directory.resolveSibling(name + "-" + n);
    }
    layer.createDirectories(copy);
    Path parent = directory.getParent();
    layer.syncDirectory(parent != null ? parent : directory.toAbsolutePath().getParent());
    ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    for (Path file : layer.list(directory)) {
      try (FileHandle source = layer.open(file, FileLayer.OpenMode.READ);
          FileHandle target =
              layer.open(copy.resolve(file.getFileName()), FileLayer.OpenMode.CREATE_NEW)) {
        long size = source.size();
        for (long at = 0; at < size; ) {
          buffer.clear();
          int n = source.read(buffer, at);
          if (n <= 0) {
            throw new java.io.EOFException(
                file + " ended at byte " + at + " of " + size + " while it was copied");
          }
          buffer.flip();
          target.write(buffer, at);
          at += n;
        }
        target.force();
      }
    }
    layer.syncDirectory(copy);
    return copy;
  }

  /**
   * The stamp of a damaged log's copy, in a holder of its own: only a damaged log needs it, and
   * building a formatter costs every open about 4 ms of class loading in a fresh JVM.
   */
  private static final class DamagedStamp {
    static final java.time.format.DateTimeFormatter FORMAT =
        java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", java.util.Locale.ROOT)
            .withZone(java.time.ZoneOffset.UTC);

    private DamagedStamp() {}
  }

  /**
   * Creates an empty log in {@code directory}, and the directory if it is missing: {@code
   * options.fileCount()} files of {@code options.fileBytes()} ({@link LogSync#ON_COMMIT}: filled
   * with zeros, so that every block is allocated now; {@link LogSync#PERIODIC}: sized but sparse),
   * then {@value LogLayout#META_FILE_NAME}, each forced and its name durable. A failure removes
   * what this call made (files left by an earlier create that was interrupted, which hold no
   * records, are reused and stay). {@link #open} creates the log itself when there is none; this is
   * for an owner that creates its files up front, before it records that they exist.
   *
   * <p>Not thread-safe: nothing else may use the directory meanwhile.
   *
   * @throws FileAlreadyExistsException if the directory holds a log ({@value
   *     LogLayout#META_FILE_NAME})
   * @throws CorruptFileException if log files that hold records are there without {@value
   *     LogLayout#META_FILE_NAME}; nothing is changed
   * @throws FileSystemException if a file cannot be created or written (a full disk, say): the
   *     message names the file, the bytes the log needs and the cause
   */
  public static void create(FileLayer layer, Path directory, LogOptions options)
      throws IOException {
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(options, "options");
    Path meta = directory.resolve(LogLayout.META_FILE_NAME);
    if (layer.exists(meta)) {
      throw new FileAlreadyExistsException(
          meta.toString(), null, "the directory holds a write-ahead log already");
    }
    long fileBytes = options.fileBytes();
    int fileCount = options.fileCount();
    long dataBytes = fileBytes - LogLayout.FILE_HEADER_BYTES;
    for (int slot = 0; slot < LogLayout.MAX_FILE_COUNT && layer.exists(directory); slot++) {
      Path path = directory.resolve(LogLayout.fileName(slot));
      if (!layer.exists(path)) {
        if (slot >= fileCount) {
          break;
        }
        continue;
      }
      // files left by an interrupted create hold only unused headers; anything else is a log
      // whose wal.meta was lost, which must not be silently overwritten
      try (FileHandle handle = layer.open(path, FileLayer.OpenMode.READ)) {
        ByteBuffer header =
            ByteBuffer.allocate(LogLayout.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        if (handle.read(header, 0) == LogLayout.FILE_HEADER_BYTES
            && LogFiles.isUsedHeader(header)) {
          throw new CorruptFileException(
              meta,
              0,
              "the log's meta file is missing, but "
                  + path.getFileName()
                  + " holds log records; refusing to create a new log over them");
        }
      }
    }
    Path topCreated = createDirectoriesDurably(layer, directory);
    List<Path> made = new ArrayList<>();
    Path current = directory;
    boolean success = false;
    try {
      for (int slot = 0; slot < fileCount; slot++) {
        Path path = directory.resolve(LogLayout.fileName(slot));
        current = path;
        if (!layer.exists(path)) {
          made.add(path);
        }
        try (FileHandle handle = layer.open(path, FileLayer.OpenMode.CREATE)) {
          handle.truncate(0);
          if (options.mode() == LogSync.ON_COMMIT) {
            // zeros: a commit's fdatasync in the first lap then has no block allocation to record
            handle.preallocate(fileBytes);
          } else {
            // sized but sparse: forces are periodic, so allocating blocks as the log first fills
            // them costs little, and a large log is created at once
            handle.write(ByteBuffer.allocate(1), fileBytes - 1);
          }
          handle.write(
              LogFiles.encodeHeader(SEQUENCE_UNUSED, 0, fileBytes, fileCount, dataBytes), 0);
          handle.force();
        }
      }
      current = directory;
      layer.syncDirectory(directory);
      current = meta;
      made.add(meta.resolveSibling(LogLayout.META_FILE_NAME + ".tmp")); // Superblock.create's
      made.add(meta);
      Superblock.create(layer, meta, 0, false, LogMeta.payload(fileBytes, fileCount)).close();
      success = true;
    } catch (IOException e) {
      long total = fileBytes * fileCount;
      FileSystemException failed =
          new FileSystemException(
              current.toString(),
              null,
              "could not create the write-ahead log in "
                  + directory
                  + ", which needs "
                  + total
                  + " bytes ("
                  + fileCount
                  + " files of "
                  + fileBytes
                  + " bytes, "
                  + (options.mode() == LogSync.ON_COMMIT ? "written in full now" : "sparse")
                  + "): "
                  + e.getMessage());
      failed.initCause(e);
      throw failed;
    } finally {
      if (!success) {
        removeQuietly(layer, directory, made, topCreated);
      }
    }
  }

  /** After a failed create: deletes {@code made}, then the directories it created, if empty. */
  private static void removeQuietly(
      FileLayer layer, Path directory, List<Path> made, Path topCreated) {
    try {
      for (Path path : made.reversed()) {
        layer.delete(path);
      }
      if (layer.exists(directory)) {
        layer.syncDirectory(directory);
      }
      if (topCreated != null) {
        for (Path p = directory.toAbsolutePath(); p != null; p = p.getParent()) {
          if (!layer.list(p).isEmpty()) {
            break;
          }
          layer.delete(p);
          layer.syncDirectory(p.getParent());
          if (p.equals(topCreated)) {
            break;
          }
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // the create's own exception is the one to report; what remains holds no records, and a
      // later create reuses it
    }
  }

  /**
   * Creates the missing directories of {@code directory} and syncs each one's parent; returns the
   * topmost one it created, or null if none was missing.
   */
  private static Path createDirectoriesDurably(FileLayer layer, Path directory) throws IOException {
    Path absolute = directory.toAbsolutePath();
    Path topMissing = null;
    for (Path p = absolute; p != null && !layer.exists(p); p = p.getParent()) {
      topMissing = p;
    }
    if (topMissing == null) {
      return null;
    }
    layer.createDirectories(absolute);
    for (Path p = absolute; ; p = p.getParent()) {
      layer.syncDirectory(p.getParent());
      if (p.equals(topMissing)) {
        break;
      }
    }
    return topMissing;
  }

  // =========================================================================================
  // append

  /** Appends {@code payload}'s bytes; see {@link #append(int, MemorySegment)}. */
  public long append(int type, byte[] payload) {
    return append(type, payload, 0, payload.length);
  }

  /**
   * Appends {@code length} bytes of {@code payload} from {@code offset}; see {@link #append(int,
   * MemorySegment)}.
   *
   * @throws IndexOutOfBoundsException if the range is not inside the array
   */
  public long append(int type, byte[] payload, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, payload.length);
    return append(type, null, payload, offset, length);
  }

  /**
   * Appends the remaining bytes of {@code payload} (its position is not changed); see {@link
   * #append(int, MemorySegment)}.
   */
  public long append(int type, ByteBuffer payload) {
    if (payload.hasArray()) {
      return append(
          type,
          null,
          payload.array(),
          payload.arrayOffset() + payload.position(),
          payload.remaining());
    }
    return append(type, MemorySegment.ofBuffer(payload), null, 0, payload.remaining());
  }

  /**
   * Appends one record to the buffer and returns at once: it is not yet written nor durable. Never
   * blocks on I/O, except when the buffer is full (the appender then waits for the flusher to drain
   * it).
   *
   * @param type the record type, 16-255 (0-15 belong to the log)
   * @return the record's end LSN: pass it to {@link #commit}, {@link #syncTo} or {@link
   *     #awaitDurable}
   * @throws IllegalArgumentException if the type is out of range or the payload is larger than
   *     {@link LogOptions#maxPayloadBytes()}
   * @throws LogFullException if every log file still holds records not yet truncated; nothing was
   *     appended and the log is still usable
   * @throws DurabilityFailedException if the log failed (I11)
   * @throws LogClosedException if the log is closed
   */
  public long append(int type, MemorySegment payload) {
    return append(type, payload, null, 0, payload.byteSize());
  }

  /**
   * Appends the first {@code length} bytes of {@code payload}; see {@link #append(int,
   * MemorySegment)}. Why not a slice: a caller that reuses one buffer for every record would
   * allocate a slice per record, garbage on a path that should make none.
   *
   * @throws IndexOutOfBoundsException if {@code length} is negative or exceeds the payload
   */
  public long append(int type, MemorySegment payload, long length) {
    Objects.checkIndex(length, payload.byteSize() + 1);
    return append(type, payload, null, 0, length);
  }

  /** The payload is {@code segment}, or else {@code length} bytes of {@code array} at offset. */
  private long append(int type, MemorySegment segment, byte[] array, int offset, long length) {
    if (type < FIRST_USER_TYPE || type > MAX_TYPE) {
      throw new IllegalArgumentException("type must be in [16, 255]: type=" + type);
    }
    if (length > maxPayloadBytes) {
      throw new IllegalArgumentException(
          "record larger than the log buffer allows: payloadBytes="
              + length
              + " maxPayloadBytes="
              + maxPayloadBytes);
    }
    int frame = (int) LogLayout.frameBytes(length);
    Scratch s = SCRATCH.get();
    MemorySegment ring = ring(); // before the reservation, which then implies it (Lifecycle)
    long start = reserve(frame);
    long end = start + frame;
    if (end - ringBytes > written) {
      awaitSpace(end - ringBytes);
    }
    long lag = Math.min(start - durable, MAX_DURABLE_LAG);
    long at = start & ringMask;
    ring.set(INT, at + LENGTH_OFFSET, (int) length);
    ring.set(LONG, (start + LSN_OFFSET) & ringMask, start);
    ring.set(INT, (start + EPOCH_OFFSET) & ringMask, epoch);
    ring.set(INT, (start + DURABLE_LAG_OFFSET) & ringMask, (int) lag);
    long payloadAt = (start + PAYLOAD_OFFSET) & ringMask;
    long first = Math.min(length, ringBytes - payloadAt);
    try {
      if (array != null) {
        MemorySegment.copy(array, offset, ring, ValueLayout.JAVA_BYTE, payloadAt, (int) first);
        if (first < length) {
          MemorySegment.copy(
              array, offset + (int) first, ring, ValueLayout.JAVA_BYTE, 0, (int) (length - first));
        }
      } else {
        MemorySegment.copy(segment, 0, ring, payloadAt, first);
        if (first < length) {
          MemorySegment.copy(segment, first, ring, 0, length - first);
        }
      }
    } catch (RuntimeException | Error e) {
      // the caller's segment failed us (closed, or confined to another thread); the space is
      // reserved and the flusher waits for it, so fill it with a void record before throwing
      zero(ring, payloadAt, first);
      zero(ring, 0, length - first);
      publish(s, ring, start, payloadAt, length, LogLayout.TYPE_SKIP);
      wakeFlusherAfterPublish(end);
      throw e;
    }
    publish(s, ring, start, payloadAt, length, type);
    wakeFlusherAfterPublish(end);
    return end;
  }

  /** The ring, allocated by the first caller (see Lifecycle). */
  private MemorySegment ring() {
    MemorySegment r = ring;
    if (r != null) {
      return r;
    }
    synchronized (ringLock) {
      if (ring == null) {
        ring = Arena.ofAuto().allocate(ringBytes, 64);
      }
      return ring;
    }
  }

  private static void zero(MemorySegment ring, long at, long bytes) {
    if (bytes > 0) {
      ring.asSlice(at, bytes).fill((byte) 0);
    }
  }

  /** Computes the record's CRC from the ring, stores it, and publishes the Type byte. */
  private void publish(
      Scratch s, MemorySegment ring, long start, long payloadAt, long length, int type) {
    long at = start & ringMask;
    CRC32C crc = s.crc;
    crc.reset();
    ByteBuffer view = s.view(ring);
    view.limit((int) at + CRC_OFFSET).position((int) at);
    crc.update(view);
    // Lsn, Epoch, DurableLag (may wrap at the ring's end between two 8-byte words); the Type
    // byte is stored only after the CRC, as the publication mark, so it enters from a register
    updateCrc(crc, view, (start + LSN_OFFSET) & ringMask, TYPE_OFFSET - LSN_OFFSET);
    crc.update(type);
    updateCrc(crc, view, payloadAt, length);
    ring.set(INT, (start + CRC_OFFSET) & ringMask, (int) crc.getValue());
    TYPE_BYTE.setVolatile(ring, (start + TYPE_OFFSET) & ringMask, (byte) type);
  }

  private void updateCrc(CRC32C crc, ByteBuffer view, long at, long length) {
    long first = Math.min(length, ringBytes - at);
    view.limit((int) (at + first)).position((int) at);
    crc.update(view);
    if (first < length) {
      view.limit((int) (length - first)).position(0);
      crc.update(view);
    }
  }

  private long reserve(int frame) {
    for (; ; ) {
      long current = (long) RESERVED.getVolatile(this);
      if ((current & FLAGS) != 0) {
        throw stoppedException();
      }
      long end = current + frame;
      if (end > limit) {
        throw new LogFullException(
            "write-ahead log is full: a record of "
                + frame
                + " bytes at lsn "
                + current
                + " would overwrite a log file still needed (limit lsn "
                + limit
                + "; "
                + files.fileCount
                + " files of "
                + files.fileBytes
                + " bytes); checkpoint and call truncateBefore, or use more or larger files");
      }
      if (end > MAX_LSN) {
        throw new LogFullException("write-ahead log reached its last LSN: " + MAX_LSN);
      }
      if (RESERVED.compareAndSet(this, current, end)) {
        return current;
      }
    }
  }

  private RuntimeException stoppedException() {
    DurabilityFailedException failed = failure;
    if (failed != null) {
      return new DurabilityFailedException(failed.getMessage(), failed.getCause());
    }
    return new LogClosedException(); // failure is published before FAILED is set
  }

  // spaceWaiters is written only here, under spaceLock; others read it without the lock
  @SuppressWarnings("NonAtomicVolatileUpdate")
  private void awaitSpace(long needWritten) {
    spaceLock.lock();
    try {
      spaceWaiters++;
      while (written < needWritten) {
        if (failure != null) {
          throw stoppedException();
        }
        wakeFlusher();
        spaceFreed.awaitUninterruptibly();
      }
    } finally {
      spaceWaiters--;
      spaceLock.unlock();
    }
  }

  private void wakeFlusherAfterPublish(long end) {
    int state = flusherState;
    if (state == RUNNING) {
      return;
    }
    if (state == PARKED_IDLE || end - written >= writeThreshold || syncRequested > written) {
      wake(state);
    }
  }

  private void wakeFlusher() {
    int state = flusherState;
    if (state != RUNNING) {
      wake(state);
    }
  }

  private void wake(int state) {
    if (FLUSHER_STATE.compareAndSet(this, state, RUNNING)) {
      LockSupport.unpark(flusher);
    }
  }

  // =========================================================================================
  // durability

  /**
   * Blocks until every record ending at or before {@code lsn} is durable, forcing the log if
   * needed, in every mode. Concurrent callers share forces.
   *
   * @throws IllegalArgumentException if {@code lsn} is past the end of the log
   * @throws DurabilityFailedException if the log failed before {@code lsn} became durable
   */
  public void syncTo(long lsn) {
    if (lsn <= durable) {
      return;
    }
    checkWithinLog(lsn);
    if (failure != null) {
      throw stoppedException();
    }
    if (forcer == null && syncInline(lsn)) {
      return;
    }
    Scratch s = SCRATCH.get();
    Waiter waiter = s.waiter;
    waiter.lsn = lsn;
    waiter.released = false;
    push(waiter);
    afterPush(lsn);
    boolean interrupted = false;
    long since = System.nanoTime();
    while (!waiter.released) {
      if ((failure != null || flusherExited) && durable < lsn) {
        break; // failed, or closed with the record not durable: it never will be
      }
      if (System.nanoTime() - since >= WAITER_BACKSTOP_NANOS) {
        if (durable >= lsn) {
          break; // durable, yet nobody released this waiter: see WAITER_BACKSTOP_NANOS
        }
        since = System.nanoTime();
      }
      long parkedAt = System.nanoTime();
      LockSupport.parkNanos(this, WAITER_BACKSTOP_NANOS);
      interrupted |= Thread.interrupted();
      if (!waiter.released
          && System.nanoTime() - parkedAt >= WAITER_BACKSTOP_NANOS
          && (durable >= lsn || failure != null || flusherExited)) {
        lateWakeups.incrementAndGet(); // woken by the backstop where a release was due
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (!waiter.released) {
      // left by a failure, a close or the backstop: the node may still be linked into this log's
      // stack, so it is retired and the thread takes a fresh one
      s.waiter = new Waiter(Thread.currentThread(), null);
    }
    if (durable < lsn) {
      throw stoppedException();
    }
    assert lsn <= durable : "I10: acknowledged lsn " + lsn + " > durable " + durable;
  }

  /**
   * ON_COMMIT mode, when nobody is flushing: writes the published records up to at least {@code
   * lsn} and forces them on the calling thread, as the flusher would, and releases whoever they
   * cover. Why: handing the record to the flusher and being woken by it afterwards costs two thread
   * wake-ups per commit, about a third of a one-thread commit's time on the test VM (176 µs against
   * a 117 µs fsync). Returns false, having done nothing, if the flusher (or another committer) is
   * busy, if a record before {@code lsn} is still being copied, or if the log is closing; the
   * caller then waits for the flusher as usual.
   *
   * @throws DurabilityFailedException if the write or the force failed (the log fails for good)
   */
  // forces++: under flushLock, and only in ON_COMMIT mode, where no forcer thread exists (see
  // forceAndRelease)
  @SuppressWarnings("NonAtomicVolatileUpdate")
  private boolean syncInline(long lsn) {
    if (Thread.currentThread().isInterrupted() || !flushLock.tryLock()) {
      return false;
    }
    try {
      long word = (long) RESERVED.getVolatile(this);
      if (flusherExited || failure != null || (word & (CLOSED | FAILED)) != 0) {
        return false;
      }
      if (lsn <= durable) {
        return true;
      }
      long w = written;
      long end = scanPublished(w, word & ~FLAGS);
      if (end < lsn || files.heldEnd(w) < end || !files.openCommitterHandles()) {
        // a record before ours is being copied, a file must be recycled first (the writer's
        // job), or no second handle could be opened
        return false;
      }
      try {
        if (end > w) {
          writeOut(w, end, true);
        }
        for (int slot = 0; slot < dirty.length(); slot++) {
          if (dirty.getAndSet(slot, 0) != 0) {
            files.committerHandle(slot).force();
          }
        }
      } catch (java.nio.channels.ClosedChannelException interrupted) {
        // closed by an interrupt of this thread: its handles go, nothing else does. Every file
        // is marked dirty again (forcing a clean one costs little), and the flusher forces
        // through its own handles, which also see any error this force met
        for (int slot = 0; slot < dirty.length(); slot++) {
          dirty.set(slot, 1);
        }
        files.dropCommitterHandles();
        return false;
      } catch (IOException | RuntimeException | Error e) {
        fail(e, inlineFutures);
        throw stoppedException();
      }
      forces++;
      if (forceRequested < end) {
        forceRequested = end;
      }
      durable = end;
      releaseWaiters(inlineFutures, false);
      return true;
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * A future completed (on a completer thread, never the flusher) once every record ending at or
   * before {@code lsn} is durable; the log forces for it in every mode. Completes exceptionally
   * with {@link DurabilityFailedException} if the log fails first.
   *
   * @throws IllegalArgumentException if {@code lsn} is past the end of the log
   */
  public CompletableFuture<Long> awaitDurable(long lsn) {
    if (lsn <= durable) {
      return CompletableFuture.completedFuture(lsn);
    }
    checkWithinLog(lsn);
    DurabilityFailedException failed = failure;
    if (failed != null) {
      return CompletableFuture.failedFuture(
          new DurabilityFailedException(failed.getMessage(), failed.getCause()));
    }
    Waiter waiter = new Waiter(null, new CompletableFuture<>());
    waiter.lsn = lsn;
    push(waiter);
    afterPush(lsn);
    if (failure != null) {
      // the flusher may have drained the waiters before this push; fail it here (idempotent)
      failWaiter(waiter, false);
    }
    return waiter.future;
  }

  /**
   * Acknowledges a commit according to the mode: in {@link LogSync#ON_COMMIT} waits like {@link
   * #syncTo}; in the other modes returns at once (the record becomes durable within the period, or
   * at close).
   */
  public void commit(long lsn) {
    if (mode == LogSync.ON_COMMIT) {
      syncTo(lsn);
    } else {
      checkWithinLog(lsn);
    }
  }

  /** {@link #commit} as a future: {@link #awaitDurable} in ON_COMMIT mode, else done at once. */
  public CompletableFuture<Long> commitAsync(long lsn) {
    if (mode == LogSync.ON_COMMIT) {
      return awaitDurable(lsn);
    }
    checkWithinLog(lsn);
    return CompletableFuture.completedFuture(lsn);
  }

  private void checkWithinLog(long lsn) {
    long end = endLsn();
    if (lsn > end) {
      throw new IllegalArgumentException(
          "lsn is past the end of the log: lsn=" + lsn + " endLsn=" + end);
    }
  }

  private void push(Waiter waiter) {
    Waiter head;
    do {
      head = waiters.get();
      waiter.next = head;
    } while (!waiters.compareAndSet(head, waiter));
  }

  /**
   * After pushing a waiter: asks for a force and wakes the flusher. If the flusher has already
   * exited (the log closed), nobody else will pop the stack, so the caller does.
   */
  private void afterPush(long lsn) {
    requestSync(lsn);
    if (flusherExited) {
      releaseWaiters(new ArrayList<>(), true);
    }
  }

  private void requestSync(long lsn) {
    long current;
    while ((current = syncRequested) < lsn) {
      if (SYNC_REQUESTED.compareAndSet(this, current, lsn)) {
        break;
      }
    }
    wakeFlusher();
  }

  // =========================================================================================
  // positions and housekeeping

  /** Whether the ring is allocated yet (the first append allocates it; for tests). */
  boolean ringAllocated() {
    return ring != null;
  }

  /** How many times the flusher has forced the log (for measuring group commit). */
  long forceCount() {
    return forces;
  }

  /**
   * How many times a thread in {@link #syncTo} woke by its backstop ({@link
   * #WAITER_BACKSTOP_NANOS}) unreleased, though its record was durable or the log had failed or
   * closed: a lost wake-up (for tests).
   */
  long lateWakeups() {
    return lateWakeups.get();
  }

  /** Everything before this LSN is durable. */
  public long durableLsn() {
    return durable;
  }

  /** Everything before this LSN has been handed to the operating system. */
  public long writtenLsn() {
    return written;
  }

  /** The end of the last record appended (or being appended). */
  public long endLsn() {
    return (long) RESERVED.getVolatile(this) & ~FLAGS;
  }

  /** Positions and state, for diagnostics. */
  @Override
  public String toString() {
    long word = (long) RESERVED.getVolatile(this);
    return "WriteAheadLog["
        + files.directory
        + ", epoch="
        + epoch()
        + ", mode="
        + mode
        + ", end="
        + (word & ~FLAGS)
        + ", written="
        + written
        + ", durable="
        + durable
        + ((word & CLOSED) != 0 ? ", closed" : "")
        + (failure != null ? ", failed" : "")
        + "]";
  }

  /** What recovery found when this log was opened. */
  public ScanResult recovery() {
    return recovery;
  }

  /**
   * What a {@link LogRecovery#SALVAGE} open dropped from a damaged log, or null if it dropped
   * nothing (the log was not damaged, or it was opened {@link LogRecovery#STRICT}).
   */
  public LogDamage salvaged() {
    return salvaged;
  }

  /** This incarnation's epoch (every open for writing takes a new one). */
  public long epoch() {
    return Integer.toUnsignedLong(epoch);
  }

  public LogSync mode() {
    return mode;
  }

  /** Bytes the log can still take before it is full: call {@link #truncateBefore} in time. */
  public long remainingBytes() {
    return Math.max(0, limit - endLsn());
  }

  /** The bytes of log the files hold in total: {@code fileCount * (fileBytes - 4096)}. */
  public long capacityBytes() {
    return files.fileCount * dataBytes;
  }

  /**
   * The bytes of log each file holds ({@link #capacityBytes()} over the number of files): the log
   * reaches at most {@code (lsn / fileDataBytes() + fileCount) * fileDataBytes()} while the records
   * from {@code lsn} on are needed.
   */
  public long fileDataBytes() {
    return dataBytes;
  }

  /**
   * Declares that records before {@code lsn} are no longer needed, because a checkpoint at {@code
   * lsn} is durable (its superblock write returned): the files wholly before it may be reused.
   * Recovery must then start at {@code lsn} or later.
   *
   * @throws IllegalArgumentException if {@code lsn} is past the durable end of the log
   */
  public void truncateBefore(long lsn) {
    long durableNow = durable;
    if (lsn > durableNow) {
      throw new IllegalArgumentException(
          "cannot truncate past the durable end of the log: lsn="
              + lsn
              + " durableLsn="
              + durableNow);
    }
    synchronized (this) {
      long sequence = files.sequenceOf(lsn);
      if (sequence > firstRetainedSequence) {
        firstRetainedSequence = sequence;
        limit = (sequence + files.fileCount) * dataBytes;
      }
    }
  }

  /**
   * Drains and forces every appended record, stops the flusher and closes the files. Appends racing
   * with close either complete (and are durable when close returns) or throw {@link
   * LogClosedException}. Idempotent.
   *
   * @throws DurabilityFailedException if the final write or force failed
   */
  @Override
  public void close() {
    long current;
    do {
      current = (long) RESERVED.getVolatile(this);
    } while ((current & CLOSED) == 0 && !RESERVED.compareAndSet(this, current, current | CLOSED));
    boolean first = (current & CLOSED) == 0;
    DurabilityFailedException failedBefore = failure;
    LockSupport.unpark(flusher);
    boolean interrupted = false;
    while (flusher.isAlive() || (forcer != null && forcer.isAlive())) {
      try {
        flusher.join();
        if (forcer != null) {
          LockSupport.unpark(forcer);
          forcer.join();
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (!first) {
      return;
    }
    synchronized (completerLock) {
      if (completer != null) {
        completer.shutdown();
      }
    }
    IOException closing = null;
    try {
      files.close();
    } catch (IOException e) {
      closing = e;
    }
    DurabilityFailedException failed = failure;
    if (failed != null && failedBefore == null) {
      throw new DurabilityFailedException(failed.getMessage(), failed.getCause());
    }
    if (closing != null && failed == null) {
      throw new DurabilityFailedException("closing the log files failed", closing);
    }
  }

  // =========================================================================================
  // flusher

  /**
   * The flusher's or the forcer's body. A class, not this::flushLoop: an open starts them, and a
   * method reference costs a cold JVM a millisecond or more to link (OffHeapPile, "Start-up").
   */
  private record Loop(WriteAheadLog log, boolean forcer) implements Runnable {
    @Override
    public void run() {
      if (forcer) {
        log.forceLoop();
      } else {
        log.flushLoop();
      }
    }
  }

  private void flushLoop() {
    long scanned = written; // records in [written, scanned) are known to be published
    long pendingSince = 0;
    long lastForce = System.nanoTime();
    List<Waiter> futuresToComplete = new ArrayList<>();
    try {
      for (; ; ) {
        if (failure != null) {
          return; // the forcer (or an inline committer) failed the log
        }
        boolean parkAfter = false;
        long parkW = 0;
        boolean parkSyncWanted = false;
        flushLock.lock();
        try {
          if (failure != null) {
            return; // failed by an inline committer while this thread waited for the lock
          }
          long word = (long) RESERVED.getVolatile(this);
          boolean closing = (word & CLOSED) != 0;
          long reservedLsn = word & ~FLAGS;
          long w = written;
          scanned = scanPublished(Math.max(scanned, w), reservedLsn);
          long now = System.nanoTime();
          boolean syncWanted = syncRequested > forceRequested;
          boolean periodicDue =
              mode == LogSync.PERIODIC
                  && forceRequested < scanned
                  && now - lastForce >= options.periodNanos();
          boolean drained = closing && scanned == reservedLsn;
          if (scanned > w && pendingSince == 0) {
            pendingSince = now;
          }
          boolean writeNow =
              scanned > w
                  && (syncWanted
                      || periodicDue
                      || closing
                      || spaceWaiters > 0
                      || scanned - w >= writeThreshold
                      || now - pendingSince >= options.writeDelayNanos());
          if (writeNow) {
            writeOut(w, scanned);
            w = scanned;
            pendingSince = 0;
          }
          if (forceRequested < w && (syncWanted || periodicDue || drained)) {
            forceRequested = w;
            lastForce = now;
            if (forcer == null) {
              forceAndRelease(w, futuresToComplete);
            } else {
              LockSupport.unpark(forcer);
            }
            continue;
          }
          if (drained && w == reservedLsn) {
            if (durable < w) {
              LockSupport.parkNanos(this, 100_000); // the forcer unparks us when it is done
              continue;
            }
            flusherExited = true; // before the last pop: a later pusher sees it and pops itself
            releaseWaiters(futuresToComplete, false);
            return;
          }
          if (writeNow) {
            continue;
          }
          Waiter head = waiters.get();
          if (head != null && head.lsn <= durable) {
            // pushed after the last release, when its LSN was already durable: nobody asked for
            // a force, so release it now
            releaseWaiters(futuresToComplete, false);
            continue;
          }
          parkAfter = true;
          parkW = w;
          parkSyncWanted = syncWanted;
        } catch (IOException | RuntimeException | Error e) {
          // fail while still holding the lock: an inline committer taking it in between would
          // see no failure and force through its own handle, and a force that succeeds after
          // a failed one proves nothing (I11)
          fail(e, futuresToComplete);
          return;
        } finally {
          flushLock.unlock();
        }
        if (parkAfter) { // never parked holding the lock: an inline committer would wait on it
          park(scanned, parkW, pendingSince, lastForce, parkSyncWanted);
        }
      }
    } catch (RuntimeException | Error e) { // from park; the passes fail under the lock
      fail(e, futuresToComplete);
    } finally {
      flusherExited = true;
      LockSupport.unpark(forcer);
    }
  }

  /**
   * The forcer: forces whatever the flusher has written when asked, then publishes durable and
   * releases the waiters. Runs until the flusher has exited and nothing is left to force.
   */
  private void forceLoop() {
    List<Waiter> futuresToComplete = new ArrayList<>();
    try {
      for (; ; ) {
        long target = forceRequested;
        if (target > durable && failure == null) {
          forceAndRelease(target, futuresToComplete);
          LockSupport.unpark(flusher); // it may wait for this force to finish closing
          continue;
        }
        if (flusherExited || failure != null) {
          return;
        }
        LockSupport.park(this);
      }
    } catch (IOException | RuntimeException | Error e) {
      fail(e, futuresToComplete);
      LockSupport.unpark(flusher);
    }
  }

  /**
   * The longest a thread in {@link #syncTo} parks before it looks again for itself: whether its
   * record is durable, the log failed, or the flusher exited. Its release normally wakes it first.
   * Why a backstop: once in many test runs (SlotTableTest's power losses) a committer stayed parked
   * for good, its log's flusher gone and no failure or release having reached it. One such race was
   * found by reading (a failure draining the stack while the forcer held waiters it then pushed
   * back; the drain now takes releaseLock), but it needs the forcer, and that committer's log had
   * none. WalWakeupStressTest counts the waiters the backstop wakes where a release was due ({@link
   * #lateWakeups}); a waiter must not hang its writer for ever.
   */
  private static final long WAITER_BACKSTOP_NANOS = 100_000_000;

  /** The shortest sleep of a flusher that looks for records while it waits for a force. */
  private static final long MIN_POLL_NANOS = 100_000;

  /** The longest an idle flusher sleeps before looking for work anyway. */
  private static final long IDLE_BACKSTOP_NANOS = 20_000_000;

  private void park(long scanned, long w, long pendingSince, long lastForce, boolean syncWanted) {
    long timeout = Long.MAX_VALUE;
    long now = System.nanoTime();
    if (scanned > w) {
      timeout = pendingSince + options.writeDelayNanos() - now;
    }
    if (mode == LogSync.PERIODIC && forceRequested < Math.max(scanned, w)) {
      timeout = Math.min(timeout, lastForce + options.periodNanos() - now);
      if (scanned <= w) {
        // appenders wake only an idle flusher, so a record appended during this park would wait
        // for the next force, up to a whole period, before reaching the OS (what survives a
        // process crash): look for records every write delay instead
        timeout = Math.min(timeout, Math.max(options.writeDelayNanos(), MIN_POLL_NANOS));
      }
    }
    if (syncWanted || ((long) RESERVED.getVolatile(this) & CLOSED) != 0) {
      // waiting for a record still being copied: its appender wakes us; poll as a backstop
      timeout = Math.min(timeout, 100_000);
    }
    boolean idle = timeout == Long.MAX_VALUE;
    flusherState = idle ? PARKED_IDLE : PARKED_TIMED;
    // re-check after publishing the state: a waker that missed it made its work visible
    if (hasWork(scanned)) {
      flusherState = RUNNING;
      return;
    }
    if (idle) {
      // a backstop, not the mechanism: wakers unpark an idle flusher, and should one ever stay
      // parked idle while a committer waits on a sync it asked for (see hasWork), waking every
      // 20 ms bounds that wait, for little idle work
      LockSupport.parkNanos(this, IDLE_BACKSTOP_NANOS);
    } else if (timeout > 0) {
      LockSupport.parkNanos(this, timeout);
    }
    flusherState = RUNNING;
  }

  private boolean hasWork(long scannedByFlusher) {
    // An inline committer may have written (and zeroed in the ring) past what this flusher
    // scanned: looking for a published record at the flusher's own stale position would read
    // a zeroed Type byte, miss a record appended since at the written end, and park idle while
    // its committer waits for a sync (the hang a fresh-clone build once met)
    long scanned = Math.max(scannedByFlusher, written);
    long word = (long) RESERVED.getVolatile(this);
    boolean closing = (word & CLOSED) != 0;
    long reservedLsn = word & ~FLAGS;
    MemorySegment ring = this.ring; // not null once anything is reserved (Lifecycle)
    if (scanned < reservedLsn
        && scanned + LogLayout.RECORD_HEADER_BYTES <= written + ringBytes
        && (byte) TYPE_BYTE.getVolatile(ring, (scanned + TYPE_OFFSET) & ringMask) != 0) {
      return closing
          || flusherState == PARKED_IDLE
          || syncRequested > written
          || spaceWaiters > 0
          || reservedLsn - written >= writeThreshold;
    }
    Waiter head = waiters.get();
    return (syncRequested > forceRequested && written > forceRequested)
        || (closing && scanned == reservedLsn)
        || (head != null && head.lsn <= durable);
  }

  /**
   * The end of the run of published records from {@code from}. Only records whose header lies in
   * the current lap of the ring count: beyond {@code written + ringBytes} the ring still holds the
   * previous lap's unwritten bytes, which could look like a Type byte.
   */
  private long scanPublished(long from, long reservedLsn) {
    MemorySegment ring = this.ring; // not null if from < reservedLsn, read before it (Lifecycle)
    long p = from;
    long lapEnd = written + ringBytes;
    while (p < reservedLsn && p + LogLayout.RECORD_HEADER_BYTES <= lapEnd) {
      byte type = (byte) TYPE_BYTE.getVolatile(ring, (p + TYPE_OFFSET) & ringMask);
      if (type == 0) {
        break;
      }
      int length = ring.get(INT, p & ringMask);
      p += LogLayout.frameBytes(length);
    }
    if (p > reservedLsn) {
      throw new IllegalStateException(
          "log buffer scan overran the reserved end: " + p + " > " + reservedLsn);
    }
    return p;
  }

  private void writeOut(long from, long to) throws IOException {
    writeOut(from, to, false);
  }

  /**
   * Writes [from, to) of the ring to the files, frees that ring range and publishes written. {@code
   * byCommitter}: through the committer handles, and only into files already held.
   */
  private void writeOut(long from, long to, boolean byCommitter) throws IOException {
    MemorySegment ring = this.ring; // not null if from < to: [from, to) was reserved (Lifecycle)
    long p = from;
    while (p < to) {
      long sequence = files.sequenceOf(p);
      int slot = files.slotOf(sequence);
      if (!files.holds(sequence)) {
        files.writeHeader(sequence, epoch); // recycles the slot: its old sequence is truncated
        dirty.set(slot, 1);
      }
      long chunkEnd = Math.min(to, (sequence + 1) * dataBytes);
      FileHandle handle = byCommitter ? files.committerHandle(slot) : files.handle(slot);
      while (p < chunkEnd) {
        int at = (int) (p & ringMask);
        int n = (int) Math.min(chunkEnd - p, ringBytes - at);
        if (flusherView == null) {
          flusherView = ring.asByteBuffer();
        }
        flusherView.limit(at + n).position(at);
        handle.write(flusherView, files.fileOffset(p));
        p += n;
      }
      dirty.set(slot, 1);
    }
    // free the ring range: zero it (Type bytes must read 0 when reused), then publish written
    long q = from;
    while (q < to) {
      long at = q & ringMask;
      long n = Math.min(to - q, ringBytes - at);
      ring.asSlice(at, n).fill((byte) 0);
      q += n;
    }
    written = to;
    if (spaceWaiters > 0) {
      spaceLock.lock();
      try {
        spaceFreed.signalAll();
      } finally {
        spaceLock.unlock();
      }
    }
  }

  /** Forces what was written up to {@code target}, publishes it durable, releases waiters. */
  // forces++: one writer at a time: the forcer thread in PERIODIC mode; in ON_COMMIT mode the
  // flusher, under flushLock, like syncInline (the only other writer)
  @SuppressWarnings("NonAtomicVolatileUpdate")
  private void forceAndRelease(long target, List<Waiter> futuresToComplete) throws IOException {
    forceDirty();
    forces++;
    durable = target;
    releaseWaiters(futuresToComplete, false);
  }

  private void forceDirty() throws IOException {
    // take the flag before forcing: a write after the take sets it again and is forced next
    // time; a write before it is covered by this force
    for (int slot = 0; slot < dirty.length(); slot++) {
      if (dirty.getAndSet(slot, 0) != 0) {
        files.force(slot);
      }
    }
  }

  /**
   * Pops the waiters, releases those whose LSN is durable and pushes the others back. Futures are
   * completed on the completer thread, or {@code inline} by a caller after the flusher has exited.
   */
  private void releaseWaiters(List<Waiter> futures, boolean inline) {
    synchronized (releaseLock) {
      releaseWaitersLocked(futures, inline);
    }
  }

  private void releaseWaitersLocked(List<Waiter> futures, boolean inline) {
    long durableNow = durable;
    Waiter waiter = waiters.getAndSet(null);
    while (waiter != null) {
      Waiter next = waiter.next; // read before release: a released node may be reused at once
      if (waiter.lsn <= durableNow) {
        assert waiter.lsn <= durable : "I10: acknowledging " + waiter.lsn + " > durable";
        if (waiter.future != null) {
          futures.add(waiter);
        } else {
          waiter.released = true;
          LockSupport.unpark(waiter.thread);
        }
      } else {
        push(waiter);
      }
      waiter = next;
    }
    if (!futures.isEmpty()) {
      Waiter[] batch = futures.toArray(new Waiter[0]);
      futures.clear();
      if (inline) {
        for (Waiter w : batch) {
          w.future.complete(w.lsn);
        }
        return;
      }
      completer()
          .execute(
              () -> {
                for (Waiter w : batch) {
                  w.future.complete(w.lsn);
                }
              });
    }
  }

  private ExecutorService completer() {
    synchronized (completerLock) {
      if (completer == null) {
        completer =
            Executors.newSingleThreadExecutor(
                task ->
                    Thread.ofPlatform()
                        .name("cairn-wal-completer-" + files.directory.getFileName())
                        .daemon(true)
                        .unstarted(task));
      }
      return completer;
    }
  }

  private void fail(Throwable cause, List<Waiter> futures) {
    long durableNow = durable;
    DurabilityFailedException failed =
        new DurabilityFailedException(
            "write-ahead log in "
                + files.directory
                + " failed ("
                + cause
                + "); records after lsn "
                + durableNow
                + " are not durable and never will be"
                + " acknowledged; reopen to recover from the log",
            cause);
    failure = failed; // before FAILED: whoever sees the bit finds the failure
    long word;
    do {
      word = (long) RESERVED.getVolatile(this);
    } while (!RESERVED.compareAndSet(this, word, word | FAILED));
    // under releaseLock: a releaser (the forcer, in PERIODIC mode, fails and releases apart from
    // the flusher) may hold popped waiters it is about to push back; drained before it finished,
    // those would wait out their backstop instead of failing at once
    synchronized (releaseLock) {
      Waiter waiter = waiters.getAndSet(null);
      while (waiter != null) {
        Waiter next = waiter.next;
        failWaiter(waiter, true);
        waiter = next;
      }
    }
    futures.clear();
    spaceLock.lock();
    try {
      spaceFreed.signalAll();
    } finally {
      spaceLock.unlock();
    }
  }

  /** Fails one waiter; futures on the completer if called by the flusher, else inline. */
  private void failWaiter(Waiter waiter, boolean onFlusher) {
    if (waiter.future != null) {
      DurabilityFailedException failed = failure;
      CompletableFuture<Long> future = waiter.future;
      Throwable error = new DurabilityFailedException(failed.getMessage(), failed.getCause());
      if (onFlusher) {
        completer().execute(() -> future.completeExceptionally(error));
      } else {
        future.completeExceptionally(error);
      }
    } else {
      waiter.released = true;
      LockSupport.unpark(waiter.thread);
    }
  }
}
