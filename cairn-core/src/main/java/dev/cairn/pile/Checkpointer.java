package dev.cairn.pile;

import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.WriteAheadLog;
import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A persistent pile's checkpoints: the checkpointer thread and its loop, the checkpoint itself, the
 * metadata and superblock it writes, and what only a checkpoint may release (retired segments,
 * files no checkpoint names).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Files change only at checkpoints (no steal): see PersistentStore. That holds for
 * participants' regions too: a region is pile memory like any value's (mapped copy-on-write,
 * or anonymous), so the kernel never writes it back; only step 3 does.
 *
 * Checkpoint at LSN C (one at a time, on the checkpointer thread or the caller's):
 *   1. C = the log's end. Everything written before C has its record before C. C is moved back
 *      to the first record of every transaction that allocated and has not ended (pin): its
 *      records must stay in the log, so that recovery can undo it.
 *   2. Under all stripe locks and the table lock (microseconds): encode the segment table and
 *      every stripe's counters and free-list heads; take the segments retired so far.
 *   3. Per segment, per batch of up to 256 pages under the owning stripe's lock: clear the
 *      marks of dirty pages and copy them to a staging buffer (the mark first: SegmentWriter
 *      SW1); note the log's end E. Then, unlocked: force the log to E (WAL rule: no page
 *      reaches a file before the records that made it; with participants, E is taken after
 *      every stripe lock was taken once since the copy, SW2), pwrite the pages, force the
 *      file. Writers run between batches.
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
 *   in place (PilePayloadLayout.FLAG_UNLOGGED_CHECKPOINT); an open that finds that mark refuses the pile (the
 *   files are a mix of two states).
 *
 * Failure: a checkpoint that fails before it changes any file the pile uses leaves the pile as
 * it was (an explicit checkpoint may be tried again). The pile fails (StoreFailure, I11) when
 * the files' state is unknown (in place), when the log or superblock failed, and on the
 * checkpointer thread, where nobody would try again while the log fills up.
 *
 * A checkpoint cut short while it wrote pages in place leaves pages that differ from their
 * checksums until the log's replay rewrites them. The metadata slot of step 4, written before
 * any page in place, tells the next open so (PileRecovery CC1); an open that learned it records
 * it in the superblock before its first checkpoint writes that slot again (recordCutCheckpoint,
 * PileRecovery CC2), and the next checkpoint to complete clears it.
 *
 * Concurrency: `lock` makes checkpoints one at a time and guards the geometry (the current
 * metadata slot) and the in-use mark. The checkpointer thread sleeps on the store's signal; a
 * request, close and a failure wake it, and every checkpoint's end wakes writers waiting for
 * log space (LogAdmission) on the same monitor. It also wakes by itself, at least once a second,
 * and checkpoints when PileOptions.checkpointIntervalMillis has passed since the last checkpoint
 * ended (or the open) and the log has grown since: an idle pile takes none.
 *
 * What a checkpoint reads of the pile is its Memory: the stripes' locks, the snapshot of step 2,
 * the segment table and the tag clock; never the pile itself.
 * }</pre>
 */
final class Checkpointer {

  /**
   * Retired segments that make the checkpointer run: each keeps its memory and its index until a
   * checkpoint, and deletes free no log space, so the log's own trigger may not come for a long
   * time.
   */
  static final int RETIRED_SEGMENTS_TRIGGER = 16;

  /**
   * The most page copies a checkpoint without a log makes so that writers need not wait for its
   * writes (SegmentWriter.snapshot): the copy costs memory for as long as the checkpoint runs, and
   * its own time, a memory copy, under every stripe lock. A checkpoint with more dirty pages (the
   * first one of a large pile, say) holds the locks throughout instead.
   */
  static final long UNLOGGED_SNAPSHOT_MAX_BYTES = 256L << 20;

  /**
   * What a checkpoint needs of the pile's memory: the stripes' locks, the state of step 2, the
   * segment table and the tag clock. OffHeapPile provides them (see PersistentStore).
   */
  interface Memory {

    /** Takes every stripe's lock (a checkpoint without a log). */
    void lockAll();

    /** Releases what {@link #lockAll} took. */
    void unlockAll();

    /** Step 2: the state at {@code checkpointLsn}, with the segments retired so far. */
    MetaImage snapshotForCheckpoint(long checkpointLsn);

    /** The live segment at {@code index}, or null. */
    NativeSegment segmentAt(int index);

    /** Whether segment {@code index} is retired and not yet released. */
    boolean isRetired(int index);

    /** Frees a retired segment's memory and index once no checkpoint needs them. */
    void releaseRetired(NativeSegment segment);

    /** The pile's tag clock: the next tag it hands out. */
    long tagClock();

    /**
     * Whether participants share the pile's log: their region writes may then be under way under
     * another stripe's lock than the one a page copy holds (SegmentWriter SW2).
     */
    boolean hasParticipants();

    /**
     * Takes and releases every stripe's lock in turn: every write that held one when this was
     * called, an attachment's region write included, has appended its record when it returns.
     */
    void awaitAttachedWrites();
  }

  private final FileLayer layer;
  private final Path directory;
  private final Superblock superblock;
  private final boolean readOnly;
  private final Memory memory;
  private final TagReservations tags;
  private final StoreFailure failure;
  private final Object signal;
  private final String threadName;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<NativeSegment> retired = new ArrayList<>(); // guarded by itself
  private final AtomicBoolean wanted = new AtomicBoolean();
  // transactions that allocated and have not ended: id -> the log's end before their first record
  private final ConcurrentHashMap<Long, Long> pins = new ConcurrentHashMap<>();

  private WriteAheadLog log; // null when the pile runs without a log
  private Geometry geometry; // guarded by lock
  private SegmentWriter segmentWriter; // checkpointing thread only
  private volatile SegmentWriter.PageCopyHook pageCopyHook; // tests
  private Thread thread;
  private volatile long lastCheckpointLsn;
  private final long intervalNanos; // 0: no checkpoint for time alone
  private volatile long lastCheckpointNanos = System.nanoTime(); // the last one's end, or the open
  private volatile boolean closing;
  private volatile boolean inUseMarked = true;
  private volatile boolean opened;
  private boolean orphansPending = true; // guarded by lock
  private final java.util.concurrent.atomic.AtomicLong checkpoints =
      new java.util.concurrent.atomic.AtomicLong(); // read by durabilityStats, any thread

  /**
   * @param geometry the superblock's geometry at open
   * @param checkpointLsn the LSN of the checkpoint the pile opens from
   * @param intervalMillis the longest time between checkpoints while the log grows; 0 for none
   * @param signal the monitor the store's waiting threads sleep on (see PersistentStore)
   */
  Checkpointer(
      FileLayer layer,
      Path directory,
      Superblock superblock,
      boolean readOnly,
      Geometry geometry,
      long checkpointLsn,
      long intervalMillis,
      Memory memory,
      TagReservations tags,
      StoreFailure failure,
      Object signal) {
    this.layer = layer;
    this.directory = directory;
    this.superblock = superblock;
    this.readOnly = readOnly;
    this.geometry = geometry;
    this.lastCheckpointLsn = checkpointLsn;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    this.memory = memory;
    this.tags = tags;
    this.failure = failure;
    this.signal = signal;
    this.threadName = "cairn-checkpointer " + directory;
  }

  // =========================================================================================
  // lifecycle

  /**
   * The log checkpoints force and truncate, or null for none: set once recovery opened it, and
   * again if the open retires it (a pile opened without a log over one left by a run with one). The
   * segment writer forces the log it was made with, so a change of log makes a new one.
   */
  void useLog(WriteAheadLog log) {
    this.log = log;
    if (segmentWriter != null) {
      segmentWriter.close();
      segmentWriter = null;
    }
  }

  /** The open finished: a failed checkpoint's message no longer says that it did not. */
  void opened() {
    opened = true;
  }

  /** Starts the checkpointer thread (a pile with a log). */
  void start() {
    Runnable body = new Runnable() { // not this::loop: the open starts it (OffHeapPile, "Start-up")
          @Override
          public void run() {
            loop();
          }
        };
    thread = Thread.ofPlatform().daemon().name(threadName).start(body);
  }

  /**
   * Stops the checkpointer: wakes its thread and every waiting writer, and tells them the pile is
   * closing. {@link #join} waits for the thread.
   */
  void stop() {
    closing = true;
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  /** Waits for the checkpointer thread to end, if it runs and is not the caller. */
  void join() {
    Thread running = thread;
    if (running != null && running != Thread.currentThread()) {
      // an interrupted closer must still wait: the files close after this
      OwnThread.joinUninterruptibly(running);
    }
  }

  /** Whether the pile is closing (writers waiting for log space then give up). */
  boolean closing() {
    return closing;
  }

  /** Closes the segment writer (with the files, at close). */
  void closeWriter() {
    if (segmentWriter != null) {
      segmentWriter.close();
      segmentWriter = null;
    }
  }

  // =========================================================================================
  // requests and the loop

  /** Asks the checkpointer thread for a checkpoint (at most one request is pending). */
  void request() {
    if (wanted.compareAndSet(false, true)) {
      synchronized (signal) {
        signal.notifyAll();
      }
    }
  }

  private void loop() {
    while (!closing) {
      synchronized (signal) {
        while (!wanted.get() && !closing && !intervalPassed()) {
          try {
            signal.wait(waitMillis());
          } catch (InterruptedException e) {
            return;
          }
        }
      }
      if (closing) {
        return;
      }
      wanted.set(false);
      try {
        checkpoint(false);
      } catch (RuntimeException e) {
        failure.fail(e);
        return;
      }
    }
  }

  /**
   * Whether the log grew since the last checkpoint and the interval has passed since it ended (or
   * since the open, before the first).
   */
  private boolean intervalPassed() {
    WriteAheadLog current = log;
    return intervalNanos > 0
        && current != null
        && current.endLsn() > lastCheckpointLsn
        && System.nanoTime() - lastCheckpointNanos >= intervalNanos;
  }

  /**
   * How long the loop sleeps before it looks again: a second, or less if the interval falls due
   * sooner. Once it has passed with nothing written (an idle pile), a second: the first write is
   * then seen within one.
   */
  private long waitMillis() {
    long left = intervalNanos - (System.nanoTime() - lastCheckpointNanos);
    if (intervalNanos == 0 || left <= 0) {
      return 1000;
    }
    return Math.clamp(TimeUnit.NANOSECONDS.toMillis(left) + 1, 1, 1000);
  }

  // =========================================================================================
  // log pins

  /**
   * Transaction {@code txId} is about to allocate: the log from here on must outlive checkpoints,
   * until {@link #unpin}.
   */
  void pin(long txId) {
    WriteAheadLog current = log;
    if (current != null && !pins.containsKey(txId)) {
      pins.putIfAbsent(txId, current.endLsn());
    }
  }

  /** Transaction {@code txId} ended: checkpoints may truncate its records. */
  void unpin(long txId) {
    pins.remove(txId);
  }

  /** The log's end before the first record of transaction {@code txId}, or null if not pinned. */
  Long pinOf(long txId) {
    return pins.get(txId);
  }

  /** Transactions that pin the log. */
  int pinCount() {
    return pins.size();
  }

  // =========================================================================================
  // the checkpoint

  /**
   * Writes a checkpoint; see the class note. On the checkpointer thread it runs there; called from
   * any other thread (an explicit checkpoint, close, open) it runs on a thread of its own ({@link
   * OwnThread}: an interrupt of the caller must not reach the pile's files).
   */
  void checkpoint(boolean clean) {
    if (Thread.currentThread() == thread) {
      checkpointHere(clean);
    } else {
      OwnThread.run("cairn-checkpoint " + directory, () -> checkpointHere(clean));
    }
  }

  private void checkpointHere(boolean clean) {
    if (readOnly) {
      return;
    }
    // JFR: committed if the checkpoint completes; made only while JFR runs (FlightRecording)
    CheckpointEvent event = FlightRecording.running() ? new CheckpointEvent() : null;
    if (event != null) {
      event.begin();
    }
    lock.lock();
    try {
      if (failure.failed()) {
        throw failure.error(log != null);
      }
      boolean quiesce = log == null;
      boolean inPlace = false; // from the first write a failure can leave half done
      boolean locked = false;
      SegmentWriter.Snapshot snapshot = null;
      if (quiesce) {
        memory.lockAll();
        locked = true;
      }
      try {
        long checkpointLsn = log == null ? superblock.current().checkpointLsn() : log.endLsn();
        for (long firstRecord : pins.values()) { // recovery must see their records
          checkpointLsn = Math.min(checkpointLsn, firstRecord);
        }
        MetaImage image = memory.snapshotForCheckpoint(checkpointLsn);
        if (quiesce) {
          // without a log the files must take one instant's state: copy its dirty pages, and
          // writers may go on while the copies are written (else they wait for all of it)
          snapshot = segmentWriter().snapshot(image, UNLOGGED_SNAPSHOT_MAX_BYTES);
          if (snapshot != null) {
            memory.unlockAll();
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
        Geometry next =
            geometry.withMeta(
                slot, (int) meta.byteSize(), PileFiles.crc(meta), System.currentTimeMillis());
        // Then in place: dirty pages of segments the current checkpoint holds. Without a log
        // nothing could repair a crash from here on, so the superblock says so meanwhile.
        inPlace = true;
        // (the snapshot has taken the dirty marks: it knows what it will write in place)
        if (quiesce && (snapshot != null ? snapshot.writesInPlace() : image.anyDirty())) {
          tags.writeSuperblock(
              superblock.current().checkpointLsn(),
              false,
              Geometry.withFlags(geometry.encode(), PilePayloadLayout.FLAG_UNLOGGED_CHECKPOINT));
        }
        for (int i : existing) {
          writeSegment(image, i, snapshot);
        }
        // clean only if nothing follows the checkpoint: records of a transaction left open
        // (a rollback that failed at close) must be replayed and undone by the next open
        tags.writeSuperblock(
            checkpointLsn, clean && (log == null || checkpointLsn == log.endLsn()), next.encode());
        geometry = next; // only now: a failed write leaves the durable slot untouched next time
        lastCheckpointLsn = checkpointLsn;
        lastCheckpointNanos = System.nanoTime();
        checkpoints.incrementAndGet();
        if (event != null && event.shouldCommit()) {
          event.directory = directory.toString();
          event.lsn = checkpointLsn;
          event.clean = clean;
          event.commit();
        }
        if (log != null) {
          log.truncateBefore(checkpointLsn);
        }
        for (NativeSegment gone : image.releasable()) {
          layer.delete(PileFiles.segmentFile(directory, gone.index()));
          layer.delete(PileFiles.pageCrcFile(directory, gone.index()));
          memory.releaseRetired(gone);
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
        if (inPlace || e instanceof DurabilityFailedException || Thread.currentThread() == thread) {
          failure.fail(
              new DurabilityFailedException(
                  "checkpoint of "
                      + directory
                      + " failed "
                      + (inPlace
                          ? "while it wrote segment files in place"
                              + (log == null
                                  ? " (without a log they may now mix two states, and an open then"
                                      + " refuses them: restore from a backup)"
                                  : "")
                          : "before it changed any file the pile uses")
                      + ": "
                      + e.getMessage(),
                  e));
          throw failure.error(log != null);
        }
        throw new DurabilityFailedException(failedBeforeAnyChange(e, clean), e);
      } finally {
        if (locked) {
          memory.unlockAll();
        }
        if (snapshot != null) {
          snapshot.close();
        }
      }
    } finally {
      lock.unlock();
      synchronized (signal) {
        signal.notifyAll();
      }
    }
  }

  /**
   * The message of a checkpoint that failed before it changed any file the pile uses, where the
   * pile stays usable (an explicit checkpoint), closes anyway (close) or does not open (open).
   */
  private String failedBeforeAnyChange(Exception e, boolean clean) {
    String what =
        "checkpoint of "
            + directory
            + " failed before it changed any file the pile"
            + " uses: "
            + e.getMessage()
            + ". ";
    if (!opened) {
      return what
          + "The open did not finish, and the files are as they were: free disk space"
          + " (or fix the storage) and open the pile again.";
    }
    String kept =
        log != null
            ? "nothing acknowledged is lost: the write-ahead log holds every acknowledged write"
            : "the files hold the pile's last checkpoint";
    if (clean) {
      return what
          + "The pile is closed without it; "
          + kept
          + (log != null ? ", and the next open recovers it" : ", and writes since it are lost")
          + ". Free disk space before opening it again.";
    }
    return what
        + "The pile is intact and still accepts writes; "
        + kept
        + (log == null ? ", and writes since it stay in memory until a checkpoint succeeds" : "")
        + ". Free disk space (or fix the storage), then checkpoint again; close() checkpoints"
        + " too.";
  }

  private void writeSegment(MetaImage image, int i, SegmentWriter.Snapshot snapshot)
      throws IOException {
    if (snapshot != null) {
      segmentWriter().write(snapshot, i);
    } else {
      segmentWriter().write(image.segment(i), image.owner(i));
    }
  }

  /** What waits for the participants' writes in flight: a class, not a method reference. */
  private Runnable awaitAttachedWrites() {
    return new Runnable() { // OffHeapPile, "Start-up": the open makes this writer
      @Override
      public void run() {
        memory.awaitAttachedWrites();
      }
    };
  }

  /** The writer of segment files, made once the log (or its absence) is settled. */
  private SegmentWriter segmentWriter() {
    if (segmentWriter == null) {
      segmentWriter =
          new SegmentWriter(
              layer, directory, log, memory.hasParticipants() ? awaitAttachedWrites() : null);
      segmentWriter.onPageCopied(pageCopyHook);
    }
    return segmentWriter;
  }

  /** Tests: see {@link SegmentWriter#onPageCopied}; applies from the next checkpoint on. */
  void onPageCopied(SegmentWriter.PageCopyHook hook) {
    pageCopyHook = hook;
    lock.lock(); // the segment writer is the checkpointing thread's
    try {
      if (segmentWriter != null) {
        segmentWriter.onPageCopied(hook);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Writes the metadata file {@code file}, forced, its name durable (a checkpoint, a create). */
  static void writeMetaFile(FileLayer layer, Path file, MemorySegment meta) throws IOException {
    boolean created = !layer.exists(file);
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.CREATE)) {
      // over the old bytes, not after a truncate to 0: a file of the same size then changes no
      // block and no size, where a truncate frees and re-allocates its blocks at every
      // checkpoint, a wait of about half the file's force. The slot is the one the superblock
      // does not name, so a crash halfway leaves nothing anyone reads.
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

  private void deleteOrphanSegmentFiles() throws IOException {
    for (Path file : layer.list(directory)) {
      int index = Math.max(PileFiles.segmentIndexOf(file), PileFiles.pageCrcIndexOf(file));
      if (index >= 0 && memory.segmentAt(index) == null && !memory.isRetired(index)) {
        layer.delete(file);
      }
    }
  }

  /** See {@link SegmentWriter#verifyPageChecksums}. */
  long verifyPageChecksums() throws IOException {
    lock.lock(); // no checkpoint may write a page between it and its checksum
    try {
      return segmentWriter().verifyPageChecksums(memory::segmentAt);
    } finally {
      lock.unlock();
    }
  }

  // =========================================================================================
  // the in-use mark

  /** After a clean reopen: the superblock still says clean until the first write marks it. */
  void deferInUseMark() {
    inUseMarked = false;
  }

  /** Whether the superblock says the pile is in use (a volatile read: on every write). */
  boolean inUseMarked() {
    return inUseMarked;
  }

  /**
   * Clears the superblock's clean flag before the first write after a clean reopen, so that a crash
   * from here on is not reported as a clean close.
   */
  void markInUse() {
    OwnThread.run(
        "cairn-mark-in-use " + directory,
        () -> { // see OwnThread: why
          lock.lock();
          try {
            if (!inUseMarked) {
              Superblock.State current = superblock.current();
              // the same write reserves tags
              tags.raiseTagBound(memory.tagClock() + TagReservations.TAG_RESERVATION);
              tags.writeSuperblock(current.checkpointLsn(), false, geometry.encode());
              inUseMarked = true;
            }
          } catch (RuntimeException e) {
            failure.fail(e);
            throw e;
          } finally {
            lock.unlock();
          }
        });
  }

  /**
   * At an open that found a checkpoint after the current one cut short while it wrote pages in
   * place: records that in the superblock (PilePayloadLayout.FLAG_CUT_CHECKPOINT), before the first
   * checkpoint overwrites the metadata file that told it (PileRecovery CC2). The next checkpoint to
   * complete writes a payload without it.
   */
  void recordCutCheckpoint() {
    OwnThread.run(
        "cairn-record-cut " + directory,
        () -> { // see OwnThread: why
          lock.lock();
          try {
            Superblock.State current = superblock.current();
            byte[] payload = current.payload();
            int flags = Geometry.flagsOf(payload);
            if ((flags & PilePayloadLayout.FLAG_CUT_CHECKPOINT) == 0) {
              tags.writeSuperblock(
                  current.checkpointLsn(),
                  current.cleanShutdown(),
                  Geometry.withFlags(payload, flags | PilePayloadLayout.FLAG_CUT_CHECKPOINT));
            }
          } catch (RuntimeException e) {
            failure.fail(e);
            throw e;
          } finally {
            lock.unlock();
          }
        });
  }

  // =========================================================================================
  // retired segments

  /** A segment left its stripe: released after the next checkpoint, see the class note. */
  void retire(NativeSegment segment) {
    int pending;
    synchronized (retired) {
      retired.add(segment);
      pending = retired.size();
    }
    if (pending >= RETIRED_SEGMENTS_TRIGGER && log != null) {
      request(); // without a log, only an explicit checkpoint or the close frees them
    }
  }

  /** Segments retired since the last checkpoint took them: emptied, not yet released. */
  int retiredSegmentCount() {
    synchronized (retired) {
      return retired.size();
    }
  }

  /** Takes the segments retired so far (step 2, or a close that releases them). */
  List<NativeSegment> takeRetired() {
    synchronized (retired) {
      List<NativeSegment> taken = new ArrayList<>(retired);
      retired.clear();
      return taken;
    }
  }

  // =========================================================================================
  // diagnostics

  Geometry geometry() {
    lock.lock();
    try {
      return geometry;
    } finally {
      lock.unlock();
    }
  }

  long lastCheckpointLsn() {
    return lastCheckpointLsn;
  }

  long count() {
    return checkpoints.get();
  }
}
