package dev.cairn.pile;

import dev.cairn.durability.log.LogLayout;
import dev.cairn.durability.log.WriteAheadLog;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admission to a persistent pile's log: before a write, room in the log for its record; for a
 * transaction, also the room its rollback will need (the undo rule).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why: the log frees space only when a checkpoint lets it reuse a whole file, and many writers
 * may pass admission at once, so admission counts what was reserved and not yet released
 * (reservedBytes) and keeps, below what writers may take:
 *   - reserveBytes (a quarter of the log) for writes of transactions that already pin the log
 *     (their first record keeps checkpoints from truncating it: waiting for a checkpoint would
 *     be waiting for the transaction itself);
 *   - undoReservedBytes, the undo room of every open transaction (see admitTransaction).
 * A writer that finds too little waits (on the store's signal, woken at each checkpoint's end)
 * while checkpoints free space, and asks for one when the log since the last checkpoint passes
 * triggerBytes or free space runs low. After a minute it gives up (PileFullException).
 *
 * Concurrency: admit and release run on every write: lock-free (atomic counters, volatile
 * reads) and allocation-free unless the writer must wait. The settings (log, maxRecordBytes,
 * triggerBytes, reserveBytes) are set during open, before any writer comes.
 * }</pre>
 */
final class LogAdmission {

  /**
   * A bound on the log a transaction's rollback takes per allocation (a put, or an update's
   * prepared target): the free's record, with the rollback's frees batched per stripe in reverse
   * order (OffHeapPile.abortTransaction). Measured: 30 to 190 bytes; a free that merges both
   * neighbours and relinks three lists writes about ten words.
   */
  static final long UNDO_BYTES_PER_ALLOCATION = 256;

  /** The log a transaction with {@code allocations} allocations keeps for its rollback. */
  static long undoBytesFor(long allocations) {
    return allocations == 0
        ? 0
        : allocations * UNDO_BYTES_PER_ALLOCATION + Journal.SMALL_RECORD_BYTES;
  }

  private final Path directory;
  private final boolean readOnly;
  private final Checkpointer checkpointer;
  private final StoreFailure failure;
  private final Object signal;
  private final AtomicLong reservedBytes = new AtomicLong();
  // log kept free for the rollback of every open transaction (admitTransaction), and each one's
  private final AtomicLong undoReservedBytes = new AtomicLong();
  private final ConcurrentHashMap<Long, Long> undoReservations = new ConcurrentHashMap<>();

  private WriteAheadLog log; // null when the pile runs without a log
  private long maxRecordBytes;
  private long triggerBytes = Long.MAX_VALUE;
  private long reserveBytes; // log kept free for records of writers already admitted
  private boolean keepUndoSpace = true; // false only in tests that play an earlier build

  /**
   * @param signal the monitor the store's waiting threads sleep on (see PersistentStore)
   */
  LogAdmission(
      Path directory,
      boolean readOnly,
      Checkpointer checkpointer,
      StoreFailure failure,
      Object signal) {
    this.directory = directory;
    this.readOnly = readOnly;
    this.checkpointer = checkpointer;
    this.failure = failure;
    this.signal = signal;
  }

  /**
   * The log writes are admitted to, or null for none (set during open); {@code maxPayloadBytes} is
   * the largest payload its buffer takes.
   */
  void useLog(WriteAheadLog log, long maxPayloadBytes) {
    this.log = log;
    if (log != null) {
      long capacity = log.capacityBytes();
      triggerBytes = capacity / 4;
      reserveBytes = capacity / 4;
      // a record always fits the reserve
      maxRecordBytes = Math.min(maxPayloadBytes, capacity / 8);
    }
  }

  /** The largest value a record can carry: the log buffer less room for the rest of an op. */
  long maxValueBytes() {
    return log == null ? Long.MAX_VALUE : maxRecordBytes - Journal.SMALL_RECORD_BYTES;
  }

  /** See {@link #admit(long, boolean)}; a write outside any transaction. */
  long admit(long recordBytes) {
    return admit(recordBytes, false, 0);
  }

  /**
   * Before a write: fails fast if the pile failed, and reserves room in the log for the write's
   * record (about {@code recordBytes}), waiting while a checkpoint frees space. The log frees space
   * only when a checkpoint lets it reuse a whole file, and many writers may pass here at once, so
   * admission counts what was reserved and not yet released ({@link #release}).
   *
   * @param pinsTheLog the write belongs to a transaction that has allocated already, whose first
   *     record keeps checkpoints from truncating the log: it may use the reserve
   * @throws PileFullException if no checkpoint freed enough log for a minute: an open transaction
   *     holds the log (it cannot be truncated past the transaction's first record), or the disk
   *     cannot keep up; nothing was written
   */
  long admit(long recordBytes, boolean pinsTheLog) {
    return admit(recordBytes, pinsTheLog, 0);
  }

  /**
   * {@link #admit} for a write of transaction {@code txId}.
   *
   * <p>Why: every record from a transaction's first one on stays in the log until it ends (no
   * checkpoint truncates past it, so that recovery can undo it), so the log end can reach at most
   * {@code reach} = the end of the ring that starts at the file of that first record, and the
   * rollback, or recovery's undo after a crash, must log a free per allocation. Admission keeps the
   * room for those frees (the undo rule: log end + the undo room of every open transaction <= the
   * log's limit, for every write admitted; {@link #undoBytesFor}). At a crash the log's durable end
   * is where some record ended, when exactly the transactions with allocations and no end record
   * before it were open, so recovery finds room for their undo in the log it opens (whose limit is
   * at least the one of that moment). A rollback never waits and recovery always has the log its
   * undo needs. A write that would take the transaction's own span, plus its undo room, past {@code
   * reach} can never be made: it fails at once, where waiting for a checkpoint would be waiting for
   * the transaction itself.
   *
   * @param allocations the transaction's allocations once this write is made
   * @param ending a commit or rollback: it uses the transaction's own undo room, and a rollback
   *     ({@code recordBytes} 0) never waits
   * @throws TransactionTooLargeException if the transaction cannot fit the log with this write;
   *     nothing was written and the transaction is still open
   */
  long admitTransaction(long txId, long recordBytes, long allocations, boolean ending) {
    Long first = checkpointer.pinOf(txId);
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
      throw new TransactionTooLargeException(
          String.format(
              Locale.ROOT,
              "transaction %d is too large for the write-ahead log of %s: the log holds %,d bytes"
                  + " (%d files of %,d bytes), and the transaction's records so far span %,d bytes"
                  + " of it (%,d allocations); with this write (up to %,d bytes) and the room kept"
                  + " to roll it back (%,d bytes) it would need %,d bytes. The write was not made;"
                  + " the transaction is still open: commit or roll back what it has. Split the"
                  + " work into smaller transactions, or create the pile with a larger log"
                  + " (PileOptions.logFileBytes, PileOptions.logFileCount: they apply when the log"
                  + " is created)",
              txId,
              directory,
              current.capacityBytes(),
              fileCount,
              fileBytes + LogLayout.FILE_HEADER_BYTES,
              end - from,
              allocations - 1,
              need,
              undo,
              end + need + undo - from));
    }
    long own = undoReservations.getOrDefault(txId, 0L);
    long reserved = admit(recordBytes, first != null, own - undo);
    undoReservations.put(txId, undo);
    undoReservedBytes.addAndGet(undo - own);
    return reserved;
  }

  /**
   * {@link #admit(long, boolean)}, with {@code ownUndo} of the undo room counted as this writer's
   * own (positive: it may use it; negative: it must keep that much more).
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
    if (failure.failed()) { // the checkpoint the wait was for failed
      throw failure.error(log != null);
    }
    reservedBytes.addAndGet(need);
    return need;
  }

  /**
   * A participant's hint (WriteHooks.hintWritten): no log space, but the pile marked in use, as for
   * a write. Never throws: a hint rides a read, which a failed pile still serves, and a read-only
   * pile writes nothing to its files.
   */
  void admitHint() {
    if (!readOnly && !failure.failed() && !checkpointer.inUseMarked()) {
      checkpointer.markInUse();
    }
  }

  /** The checks of {@link #admit} for a write that needs no log space of its own. */
  private void admitNothing() {
    if (readOnly) {
      throw new ReadOnlyPileException(directory, "writes are refused");
    }
    if (failure.failed()) {
      throw failure.error(log != null);
    }
    if (!checkpointer.inUseMarked()) {
      checkpointer.markInUse();
    }
  }

  /** Gives back what {@link #admit} reserved. */
  void release(long reserved) {
    if (reserved != 0) {
      reservedBytes.addAndGet(-reserved);
    }
  }

  /** Transaction {@code txId} ended: its undo room is free again. */
  void transactionEnded(long txId) {
    Long undo = undoReservations.remove(txId);
    if (undo != null) {
      undoReservedBytes.addAndGet(-undo);
    }
  }

  /** Tests: admit as earlier builds did, keeping no log room for rollbacks. */
  void keepNoUndoSpaceForTests() {
    keepUndoSpace = false;
    undoReservedBytes.set(0);
    undoReservations.clear();
  }

  /** Waits until the log can take {@code need} bytes above {@code floorBase} + the undo room. */
  private void awaitLogSpace(WriteAheadLog current, long need, long floorBase) {
    if (current.endLsn() - checkpointer.lastCheckpointLsn() > triggerBytes
        || current.remainingBytes() - reservedBytes.get() < 2 * reserveBytes) {
      checkpointer.request();
    }
    if (current.remainingBytes() - reservedBytes.get() - need
        >= floorBase + undoReservedBytes.get()) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    synchronized (signal) {
      while (current.remainingBytes() - reservedBytes.get() - need
              < floorBase + undoReservedBytes.get()
          && !failure.failed()
          && !checkpointer.closing()) {
        if (System.nanoTime() > deadline) {
          throw new PileFullException(
              "the write-ahead log of "
                  + directory
                  + " stayed full for"
                  + " a minute: "
                  + current.remainingBytes()
                  + " bytes free; an open transaction"
                  + " holds it ("
                  + checkpointer.pinCount()
                  + " open), or checkpoints cannot keep"
                  + " up; the write was not made");
        }
        checkpointer.request();
        try {
          signal.wait(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new PileFullException(
              "interrupted while waiting for log space; the write was" + " not made");
        }
      }
    }
  }
}
