package dev.cairn.pile;

import java.util.concurrent.CompletableFuture;

/**
 * What a write does besides changing memory: the one place where a volatile and a persistent pile
 * differ on the write path. Before a write, {@link #admit} reserves room in the log for its record;
 * after it, {@link #release} gives the reservation back, and the record's end LSN (from {@link
 * Stripe#unlockAndLog}) is waited for as the pile's durability says ({@link #awaitDurable}). The
 * volatile pile's hooks ({@link #VOLATILE}) do nothing; a persistent pile's are its {@link
 * PersistentStore}.
 *
 * <p>Thread-safety: every method may be called by any writer thread at once.
 */
interface WriteHooks {

  /** The hooks of a pile with no files: no log, nothing to wait for. */
  WriteHooks VOLATILE = new WriteHooks() {};

  /**
   * Before a write: fails fast if the pile failed or is read-only, and reserves log room for a
   * record of about {@code recordBytes}, waiting while a checkpoint frees some.
   *
   * @return the bytes reserved, to give back with {@link #release} once the record is logged
   */
  default long admit(long recordBytes) {
    return 0;
  }

  /**
   * {@link #admit} for a write of transaction {@code txId} that leaves it {@code allocations}
   * allocations; {@code ending} for its commit or rollback.
   *
   * @throws TransactionTooLargeException if the transaction cannot fit the log with this write
   */
  default long admitTransaction(long txId, long recordBytes, long allocations, boolean ending) {
    return 0;
  }

  /** Gives back what {@link #admit} or {@link #admitTransaction} reserved. */
  default void release(long reservedBytes) {}

  /**
   * Transaction {@code txId} is about to allocate: the log from here on must outlive checkpoints.
   */
  default void transactionAllocates(long txId) {}

  /** Transaction {@code txId} committed or rolled back. */
  default void transactionEnded(long txId) {}

  /**
   * Logs a record that is not a stripe's operation (a named root, a participant's record) when the
   * pile keeps a log; returns its end LSN, or 0 if nothing was logged.
   */
  default long appendRecord(int type, java.lang.foreign.MemorySegment payload) {
    return 0;
  }

  /**
   * A participant changed region bytes without a record (ParticipantLog.hinted), outside any lock
   * of the pile's: a persistent pile reopened cleanly marks itself in use first, as before its
   * first write, since the next checkpoint writes those bytes in place.
   */
  default void hintWritten() {}

  /** Whether writes are logged: a persistent pile whose durability is not NONE. */
  default boolean logging() {
    return false;
  }

  /** The largest value one log record can carry. */
  default long maxValueBytes() {
    return Long.MAX_VALUE;
  }

  /**
   * After a write released its locks: waits for its record (end LSN {@code lsn}, 0: none) as the
   * durability says.
   */
  default void awaitDurable(long lsn) {}

  /** Waits until the record ending at {@code lsn} is forced, whatever the durability. */
  default void awaitForced(long lsn) {}

  /** A future completed once the record ending at {@code lsn} is forced; asks for the force. */
  default CompletableFuture<Void> durableFuture(long lsn) {
    return CompletableFuture.completedFuture(null);
  }
}
