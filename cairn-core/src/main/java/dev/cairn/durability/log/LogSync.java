package dev.cairn.durability.log;

/**
 * When the write-ahead log forces its files on its own, and what {@link WriteAheadLog#commit(long)}
 * waits for. An explicit {@link WriteAheadLog#syncTo(long)} or {@link
 * WriteAheadLog#awaitDurable(long)} is honoured in every mode: it is how a checkpoint makes the log
 * durable.
 *
 * <p>Not to be confused with a pile's {@code Durability}, the promise a user chooses: a pile of
 * {@code Durability.PERIODIC} runs its log with {@link #PERIODIC}, one of {@code Durability.SYNC}
 * with {@link #ON_COMMIT}, and one of {@code Durability.NONE} has no log.
 */
public enum LogSync {
  /**
   * Records reach the operating system soon (within the write delay) but the log never forces them
   * on its own; {@code commit} returns at once. A clean close forces. After a power loss any record
   * since the last force may be lost; after a process crash they survive.
   */
  NO_FORCE,
  /**
   * As {@link #NO_FORCE}, and the log also forces every period when it holds unforced records: a
   * power loss loses about one period of commits plus the time of a force (two when forces are
   * slower than the period). {@code commit} returns at once. While it waits for the next force the
   * flusher still looks for new records every write delay, so they reach the OS as soon as in
   * {@link #NO_FORCE}.
   */
  PERIODIC,
  /**
   * {@code commit} waits until the record is durable. Concurrent committers share forces (group
   * commit): while one force runs, the next batch gathers, and one force acknowledges it all.
   */
  ON_COMMIT
}
