package dev.cairn.pile.participant;

import java.lang.foreign.MemorySegment;

/**
 * A participant's part of a pile write ({@link ParticipantLog#put}, {@link ParticipantLog#update},
 * {@link ParticipantLog#delete}, {@link ParticipantLog#append}, {@link ParticipantLog#attach}):
 * called under the write's lock once the pile's part is done (a delete's: once its pointer is
 * checked, before the value is freed), it applies the participant's change (P1) and returns its
 * record, which the pile logs in the same record as its own, so that both survive a crash or
 * neither does. The change may write regions of the participant's whatever stripe owns them ({@link
 * ParticipantLog#written} for each); it must not call {@link ParticipantLog#region} or any other
 * pile operation that takes a lock (P3).
 */
@FunctionalInterface
public interface Attachment {

  /**
   * Applies the participant's change and returns the record's payload, at most {@link
   * LogParticipant#MAX_RECORD_BYTES}; the pile copies it before this returns to the writer.
   *
   * @param pointer the value the write made ({@link ParticipantLog#put}), updated ({@link
   *     ParticipantLog#update}) or deleted ({@link ParticipantLog#delete}), or {@link
   *     dev.cairn.pile.Pile#NULL} (an append's, a transaction's)
   */
  MemorySegment apply(long pointer);

  /**
   * Called on the writing thread once {@link #apply} ran and the write's record is in the log (or,
   * in a volatile pile or one without a log, once the write is done), and also when the write
   * failed after {@link #apply} was called; before the write waits for durability. A participant
   * releases here what {@link #apply} took to keep its records in the order of its changes
   * (LogParticipant P5): a lock held from the change until its record is logged. Must not throw or
   * call the pile.
   */
  default void logged() {}
}
