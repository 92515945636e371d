package dev.cairn.pile;

import dev.cairn.durability.DurabilityFailedException;
import java.nio.file.Path;

/**
 * A persistent pile's failed state: the first failure of its log, its files or its superblock,
 * after which the pile accepts no more writes and every call throws the same error (I11). One per
 * {@link PersistentStore}, shared by its parts (log admission, the checkpointer, tag reservations),
 * so that none of them needs the others to fail the pile or to see it failed.
 *
 * <p>Thread-safety: any thread may fail it or read it; the first cause stays. A failure wakes every
 * thread sleeping on the store's signal (writers waiting for log space, the checkpointer), so that
 * none waits for a checkpoint that will not come.
 */
final class StoreFailure {

  private final Path directory;
  private final Durability durability;
  private final Object signal;
  private volatile RuntimeException cause;

  /**
   * @param signal the monitor the store's waiting threads sleep on (see PersistentStore)
   */
  StoreFailure(Path directory, Durability durability, Object signal) {
    this.directory = directory;
    this.durability = durability;
    this.signal = signal;
  }

  /** Whether the pile failed. */
  boolean failed() {
    return cause != null;
  }

  /** Fails the pile, unless it failed already (the first cause is the one reported). */
  void fail(RuntimeException cause) {
    if (this.cause == null) {
      this.cause = cause;
    }
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  /**
   * What every call of a failed pile throws (I11): one message, the same each time, that says what
   * failed, that the pile accepts no more writes, what survives and what to do.
   *
   * @param logged whether the pile keeps a log (what survives depends on it)
   */
  DurabilityFailedException error(boolean logged) {
    RuntimeException failed = cause;
    String kept =
        !logged
            ? "writes since the last checkpoint that finished are lost"
            : durability == Durability.SYNC
                ? "nothing acknowledged is lost: the write-ahead log holds every acknowledged write"
                : "the write-ahead log holds every acknowledged write it made durable";
    return new DurabilityFailedException(
        "the pile in "
            + directory
            + " accepts no more writes: "
            + failed.getMessage()
            + "; "
            + kept
            + ". Free disk space (or fix the storage), then"
            + " close the pile and reopen it"
            + (!logged ? "" : ": the open recovers from the log")
            + ".",
        failed);
  }
}
