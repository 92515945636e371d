package dev.cairn.pile.participant;

import dev.cairn.pile.Transaction;

/**
 * A participant's way into its pile's log: records of its own, and records attached to the
 * pile's writes. Every record passes the pile's log admission, so a full log holds the
 * participant back as it holds writers of values. In a volatile pile, or with durability NONE,
 * nothing is logged: attachments are still applied, and {@link #append} returns 0.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface ParticipantLog {

  /**
   * A change of the participant's own, with no pile write: runs {@code attachment} under a
   * stripe lock (P1), logs the record it returns, and returns the record's end LSN, which
   * {@link #awaitDurable} waits for; 0 if nothing was logged.
   *
   * @param type the participant's record type, 0 to 255
   * @throws IllegalArgumentException if the record is larger than {@link
   *     LogParticipant#MAX_RECORD_BYTES} or the type out of range; the change was applied
   */
  long append(int type, Attachment attachment);

  /** Waits until the record ending at {@code lsn} is durable as the pile's durability says. */
  void awaitDurable(long lsn);

  /**
   * Puts {@code value} and, under the same lock, applies {@code attachment} to the new pointer;
   * both are logged as one record and are durable as a put is when this returns.
   *
   * @return the new value's pointer
   * @throws RuntimeException what the attachment threw: the put is undone, and nothing is logged
   *     for it but the undo
   */
  long put(Object value, int type, Attachment attachment);

  /**
   * Deletes the value of {@code pointer} and, under the same lock, applies {@code attachment};
   * both are logged as one record.
   *
   * @throws dev.cairn.pile.StalePointerException if the value is gone; the attachment is not
   *     called
   */
  void delete(long pointer, int type, Attachment attachment);

  /**
   * Adds {@code attachment} to {@code transaction}: applied when it commits, under the commit's
   * locks, and logged in its commit record; never applied if it rolls back.
   */
  void attach(Transaction transaction, int type, Attachment attachment);
}
