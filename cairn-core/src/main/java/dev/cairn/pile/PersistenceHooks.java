package dev.cairn.pile;

/**
 * What a pile's files add to its life besides the write path ({@link WriteHooks}): the one
 * place where a volatile and a persistent pile differ outside a write. The volatile pile's hooks
 * ({@link #VOLATILE}) do nothing; a persistent pile's ({@link StoreHooks}) call its {@link
 * PersistentStore}.
 *
 * <p>Thread-safety: as each method says; most are called under a stripe's lock.
 */
interface PersistenceHooks {

  /** The hooks of a pile with no files. */
  PersistenceHooks VOLATILE = new PersistenceHooks() {};

  /**
   * The tag clock is about to hand out values below {@code end} (TagClock.takeChunk); a
   * persistent pile keeps a durable bound ahead of it. Any thread.
   */
  default void tagsTaken(long end) {}
}
