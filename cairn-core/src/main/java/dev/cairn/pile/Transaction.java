package dev.cairn.pile;

import java.util.concurrent.CompletableFuture;

/**
 * Several puts, updates and deletes that take effect together or not at all, from {@link
 * Pile#beginTransaction()}. In a persistent pile a crash never leaves half a transaction: after
 * recovery either all of a committed transaction is there, or, if it never committed, none of it,
 * allocations included.
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=transaction}
 *
 * <p><b>What others see.</b> Updates and deletes are applied at commit, all under the pile's write
 * locks, so no other write interleaves with them; a reader of one pointer sees its old or its new
 * value. A value put in the transaction is reachable only through its pointer, which only the
 * transaction knows until it shares it; it does count in {@link Pile#stats()} and appear in {@link
 * Pile#forEach} from the put on.
 *
 * <p><b>Conflicts.</b> If a pointer the transaction updates or deletes was deleted by someone else
 * before commit, the commit applies nothing, rolls back and throws {@link StalePointerException}.
 *
 * <p><b>Space.</b> Puts and the new values of updates are allocated when they are made, so a full
 * pile is reported by the call that needs the space ({@link PileFullException}), and a commit
 * itself never runs out of space. An updated value is reached through a link from its original
 * block afterwards, as after an update that moved.
 *
 * <p>A transaction belongs to one thread at a time. Open transactions hold back the log's
 * truncation (recovery must see their allocations), so keep them short.
 *
 * <p><b>Closing the pile</b> rolls back every open transaction. From then on each operation of a
 * transaction of that pile throws {@link PileClosedException}, except {@link #rollback()} and
 * {@link #close()}, which do nothing.
 */
public interface Transaction extends AutoCloseable {

  /** Stores a value as part of this transaction and returns its pointer. */
  long put(Object value);

  /** Replaces the value at {@code pointer} when the transaction commits. */
  void update(long pointer, Object value);

  /** Deletes the value at {@code pointer} when the transaction commits. */
  void delete(long pointer);

  /** The value at {@code pointer} as this transaction sees it: its own writes first. */
  Object get(long pointer);

  /**
   * Applies everything atomically and, in a persistent pile, returns when the pile's {@link
   * Durability} is met: with {@link Durability#SYNC} once the commit is on stable storage.
   *
   * @throws StalePointerException if a pointer it updates or deletes is gone; nothing applied
   * @throws IllegalStateException if the transaction already ended
   * @throws PileClosedException if the pile was closed (the transaction was rolled back)
   */
  void commit();

  /**
   * Commits with a durability of its own, for a transaction that matters more or less than the
   * pile's default. In a pile with a log ({@link Durability#PERIODIC} or {@link Durability#SYNC}):
   * {@code SYNC} returns once the commit is on stable storage; {@code PERIODIC} asks for a force
   * and returns at once (durable within one force, as {@link #commitAsync()} without the future);
   * {@code NONE} returns at once and leaves the commit to the next force or checkpoint. In a pile
   * without a log only {@code NONE} is possible.
   *
   * @throws IllegalArgumentException if the pile has no log and {@code level} is not NONE; nothing
   *     is applied
   */
  void commit(Durability level);

  /**
   * Applies everything atomically now and returns a future that completes when the commit is
   * durable as the pile's {@link Durability} says. Conflicts throw here, as in {@link #commit()}.
   */
  CompletableFuture<Void> commitAsync();

  /** Undoes the puts and drops the pending updates and deletes. Idempotent after an end. */
  void rollback();

  /** Rolls back unless committed. */
  @Override
  void close();
}
