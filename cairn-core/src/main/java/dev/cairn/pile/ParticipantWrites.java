package dev.cairn.pile;

import dev.cairn.pile.participant.Attachment;
import dev.cairn.pile.participant.LogParticipant;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A participant's writes in a pile: a put, update or delete of a block and the participant's change
 * (its {@link Attachment}) under the same stripe lock, logged as one record, or a change of the
 * participant's own under the calling thread's stripe lock. What {@link PileParticipantLog} does
 * for each participant; one per pile.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Each write follows the pile's own (OffHeapPile): admitted for its record and the largest
 * participant record (WriteHooks.admit), made under one stripe lock (BlockWriter), logged as
 * the lock is released (Stripe.unlockAndLog, with the participant's record), and waited for
 * after the release.
 *
 * An attachment that throws, under the lock:
 *   put     the new block is deleted again, in the same logged operation: nothing is left;
 *   delete  the free's checks run before the attachment, and the free after it, so the value
 *           stays where it was and nothing is logged;
 *   update  the rewrite came first and stays, logged on its own, without the participant's
 *           record.
 * In every case an attachment that was called is told so (Attachment.logged, LogParticipant
 * P5) before the lock's holder waits for durability, whether it threw or not.
 *
 * Thread safety: as the pile's writes; any thread, any number at once.
 * }</pre>
 */
final class ParticipantWrites {
  private final SegmentTable table;
  private final BlockWriter writer;
  private final WriteHooks writes;

  ParticipantWrites(SegmentTable table, BlockWriter writer, WriteHooks writes) {
    this.table = table;
    this.writer = writer;
    this.writes = writes;
  }

  /**
   * {@link ParticipantLog#put(Object, int, Attachment)}: a put and the participant's change, in one
   * record.
   */
  long put(Object value, int participant, int type, Attachment attachment) {
    Objects.requireNonNull(value, "value");
    return put(
        BlockWriter.recordBytesFor(value), value, null, 0, participant, type, attachment, true);
  }

  /**
   * {@link ParticipantLog#put(PayloadWriter, int, Attachment)}: a put of bytes written in place,
   * and the change.
   */
  long put(PayloadWriter payload, int participant, int type, Attachment attachment) {
    return putBytes(payload, participant, type, attachment, true);
  }

  /**
   * {@link ParticipantLog#putWithoutWaiting}: {@link #put(PayloadWriter, int, int, Attachment)}
   * without the wait for durability.
   */
  long putWithoutWaiting(PayloadWriter payload, int participant, int type, Attachment attachment) {
    return putBytes(payload, participant, type, attachment, false);
  }

  private long putBytes(
      PayloadWriter payload, int participant, int type, Attachment attachment, boolean await) {
    Objects.requireNonNull(payload, "payload");
    table.checkOpen();
    int length = BlockWriter.payloadSize(payload);
    return put(
        Journal.SMALL_RECORD_BYTES + (long) length,
        null,
        payload,
        length,
        participant,
        type,
        attachment,
        await);
  }

  /**
   * A put (of {@code payload}, {@code length} bytes, when it is not null, else of {@code value})
   * and the participant's change under the same lock, logged as one record of at most {@code
   * recordBytes} besides the participant's, then waited for as the durability says if {@code
   * await}. The two kinds of value are told apart here rather than by a supplier of the write: a
   * capturing lambda would be one more allocation on every put.
   */
  private long put(
      long recordBytes,
      Object value,
      PayloadWriter payload,
      int length,
      int participant,
      int type,
      Attachment attachment,
      boolean await) {
    Objects.requireNonNull(attachment, "attachment");
    table.checkOpen();
    long reserved = writes.admit(recordBytes + LogParticipant.MAX_RECORD_BYTES);
    long pointer;
    long lsn;
    try {
      Stripe stripe =
          payload != null ? writer.writeNew(payload, length) : writer.writeNew(value, 0);
      pointer = stripe.lastPointer;
      MemorySegment record;
      try {
        try {
          record = ParticipantRegistry.checked(type, attachment.apply(pointer));
        } catch (RuntimeException | Error e) {
          try {
            writer.deleteLocked(pointer); // nested: logged with the put, as one operation
          } finally {
            stripe.unlockAndLog(WriteContext.PLAIN);
          }
          throw e;
        }
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        attachment.logged(); // P5: before the wait for durability
      }
    } finally {
      writes.release(reserved);
    }
    if (await) {
      writes.awaitDurable(lsn);
    }
    return pointer;
  }

  /** {@link ParticipantLog#delete}: a delete and the participant's change, in one record. */
  void delete(long pointer, int participant, int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    table.checkOpen();
    long reserved = writes.admit(Journal.SMALL_RECORD_BYTES + LogParticipant.MAX_RECORD_BYTES);
    long lsn = 0;
    try {
      Stripe stripe = writer.lockOwner(pointer);
      boolean applied = false;
      boolean logged = false;
      try {
        // the participant's change before the free, so that an attachment that throws leaves the
        // value where it was, and nothing logged; the checks the free makes come first, under
        // the same lock, so that the free cannot fail once the participant changed
        writer.checkLive(pointer);
        applied = true;
        MemorySegment record = ParticipantRegistry.checked(type, attachment.apply(pointer));
        writer.deleteLocked(pointer); // nested: logged below, with the participant's record
        logged = true;
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        if (!logged) {
          stripe.unlockAndLog(WriteContext.PLAIN);
        }
        if (applied) {
          attachment.logged(); // P5: before the wait for durability
        }
      }
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  /**
   * {@link ParticipantLog#update}: an update whose payload is written in place and, if {@code
   * attachment} is not null, the participant's change, in one record.
   */
  void update(
      long pointer, PayloadWriter payload, int participant, int type, Attachment attachment) {
    Objects.requireNonNull(payload, "payload");
    table.checkOpen();
    int length = BlockWriter.payloadSize(payload);
    long recordBytes = Journal.SMALL_RECORD_BYTES + (long) length;
    if (attachment == null) {
      long reserved = writes.admit(recordBytes);
      long lsn;
      try {
        lsn = writer.updateLocked(pointer, payload, length);
      } finally {
        writes.release(reserved);
      }
      writes.awaitDurable(lsn);
      return;
    }
    ParticipantRegistry.checkType(type); // before the update, which a bad type could not log
    long reserved = writes.admit(recordBytes + LogParticipant.MAX_RECORD_BYTES);
    long lsn = 0;
    try {
      Stripe stripe = writer.lockOwner(pointer);
      boolean applied = false;
      boolean logged = false;
      try {
        writer.updateLocked(pointer, payload, length); // nested: logged below, with the record
        applied = true;
        MemorySegment record = ParticipantRegistry.checked(type, attachment.apply(pointer));
        logged = true;
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        if (!logged) {
          stripe.unlockAndLog(WriteContext.PLAIN);
        }
        if (applied) {
          attachment.logged(); // P5: before the wait for durability
        }
      }
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  /**
   * {@link ParticipantLog#append}: a change of the participant's own, applied and logged under the
   * calling thread's stripe lock, so that a checkpoint (under every stripe lock) never sees it half
   * done.
   */
  long append(int participant, int type, Attachment attachment) {
    table.checkOpen();
    long reserved =
        writes.admit(ParticipantRegistry.HEADER_BYTES + LogParticipant.MAX_RECORD_BYTES);
    long lsn;
    try {
      Stripe stripe = writer.homeStripe();
      stripe.lock();
      boolean logged = false;
      try {
        MemorySegment record = ParticipantRegistry.checked(type, attachment.apply(Pile.NULL));
        logged = true;
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        if (!logged) {
          stripe.unlock();
        }
        attachment.logged(); // P5
      }
    } finally {
      writes.release(reserved);
    }
    return lsn;
  }
}
