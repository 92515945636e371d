package dev.cairn.pile;

import dev.cairn.memory.NativeSegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a pile's files add to its life besides the write path ({@link WriteHooks}): the one place
 * where a volatile and a persistent pile differ outside a write. The volatile pile's hooks ({@link
 * #VOLATILE}) do nothing; a persistent pile's ({@link StoreHooks}) call its {@link
 * PersistentStore}.
 *
 * <p>Thread-safety: as each method says; most are called under a stripe's lock.
 */
interface PersistenceHooks {

  /** The hooks of a pile with no files. */
  PersistenceHooks VOLATILE = new PersistenceHooks() {};

  // -----------------------------------------------------------------------------------------
  // the segment table (see SegmentTable)

  /**
   * Whether segment indexes may have been used before this pile object existed (a pile opened from
   * files): the table then cannot tell an index never used from one released (T4).
   */
  default boolean hasEarlierSegments() {
    return false;
  }

  /**
   * The journal that records what {@code stripe}'s operations write, for the log and the next
   * checkpoint; null when there is nothing to record (a volatile pile). At construction.
   */
  default Journal journalFor(Stripe stripe, SegmentTable table) {
    return null;
  }

  /**
   * A segment was born in memory for {@code owner} (whose lock the caller holds), before any reader
   * can see it: a persistent pile tracks its pages and logs the table change; the next checkpoint
   * gives it a file.
   */
  default void segmentBorn(NativeSegment segment, Stripe owner) {}

  /**
   * Whether a wholly free segment keeps its memory and its index until the next checkpoint (T2),
   * rather than becoming the spare or going back to the OS at once.
   */
  default boolean keepsRetiredSegments() {
    return false;
  }

  /**
   * {@code from} (whose lock the caller holds) gave up a wholly free segment, which the hooks keep
   * until the next checkpoint takes it ({@link #takeRetired}); only if {@link
   * #keepsRetiredSegments}.
   */
  default void segmentRetired(NativeSegment segment, Stripe from) {}

  /** The segments retired since the last call, now the caller's to release. */
  default List<NativeSegment> takeRetired() {
    return List.of();
  }

  /** How a message names {@code segment}: its file, if it has one. */
  default String segmentName(NativeSegment segment) {
    return "segment " + segment.index();
  }

  // -----------------------------------------------------------------------------------------
  // records that are no one stripe's operation (see TransactionCoordinator)

  /**
   * Logs the commit of transaction {@code txId}: what every stripe's journal recorded (the caller
   * holds every stripe lock) and {@code attached}, as one record; returns its end LSN, or 0 if
   * nothing was logged.
   */
  default long logCommit(long txId, Stripe[] stripes, List<PileTransaction.Attached> attached) {
    return 0;
  }

  /** Logs that the rollback of transaction {@code txId} is complete. */
  default void logTransactionEnd(long txId) {}

  /**
   * Logs a purge, under every stripe lock: one record, so that recovery drops everything or
   * nothing. Returns its end LSN, or 0 if nothing was logged.
   */
  default long logPurge() {
    return 0;
  }

  // -----------------------------------------------------------------------------------------
  // the pile's life (see OffHeapPile)

  /** {@link Pile#checkpoint}: makes the files hold every write so far. */
  default void checkpoint() {}

  /**
   * {@link Pile#prefetch}: reads the files of the segments {@code indexes} lists, in its order, in
   * the background, until done or {@code stop} says so. A pile with no files asks for no list.
   */
  default CompletableFuture<Void> prefetch(Supplier<List<Integer>> indexes, BooleanSupplier stop) {
    return CompletableFuture.completedFuture(null);
  }

  /** See {@link Pile#durabilityStats}. */
  default DurabilityStats durabilityStats() {
    return DurabilityStats.VOLATILE;
  }

  /**
   * The first step of a close, after the pile is marked closed and every write has ended, with no
   * stripe lock held and every segment still in memory: a persistent pile's last checkpoint.
   */
  default void closing() {}

  /** The last step of a close, after every segment is released: a persistent pile's files close. */
  default void closed() {}

  // -----------------------------------------------------------------------------------------
  // the tag clock (see TagClock)

  /**
   * The tag clock is about to hand out values below {@code end} (TagClock.takeChunk); a persistent
   * pile keeps a durable bound ahead of it. Any thread.
   */
  default void tagsTaken(long end) {}
}
