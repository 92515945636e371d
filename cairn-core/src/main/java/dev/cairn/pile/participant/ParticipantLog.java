package dev.cairn.pile.participant;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Transaction;
import java.lang.foreign.MemorySegment;

/**
 * A participant's way into its pile: records of its own, records attached to the pile's writes,
 * values whose bytes it composes itself, and regions, values it writes in place. Every record
 * passes the pile's log admission, so a full log holds the participant back as it holds writers of
 * values. In a volatile pile, or with durability NONE, nothing is logged: attachments are still
 * applied, and {@link #append} returns 0.
 *
 * <h2>Regions</h2>
 *
 * A region is a value of kind BYTES that the participant put ({@link #put(PayloadWriter, int,
 * Attachment)}) and then writes in place through {@link #region}, a view of its payload: a table of
 * 8-byte slots, say. Each change to it is made inside an {@link Attachment} (of a put, delete,
 * update, append or transaction of the participant's, whichever stripe's lock that holds: the
 * region's block may be another stripe's), described in the attachment's record, and reported with
 * {@link #written}, so that the next checkpoint writes the pages it touched. Replay rewrites the
 * same bytes from the records ({@link LogParticipant#replay}), which must therefore say exactly
 * what was written ("set these words", P2). The pile's own writes never touch a region's payload;
 * the participant must not {@link #update} or {@link #delete} a value while it uses it as a region
 * (the view would then show freed or moved memory). Reads of a region through the pile ({@link
 * dev.cairn.pile.Pile#getBytes}) see its bytes as they are, without the guarantee of a consistent
 * copy that a value written by the pile has.
 *
 * <p>Thread-safety: every method may be called from any thread, but for the restrictions each
 * states. Until the pile is returned to its opener ({@link LogParticipant#open}, {@link
 * LogParticipant#replay}, {@link LogParticipant#recovered}), only {@link #region}, {@link
 * #written}, {@link #codecs}, {@link #allocatedBytes} and {@link #awaitDurable} may be called.
 */
public interface ParticipantLog {

  /**
   * A change of the participant's own, with no pile write: runs {@code attachment} under a stripe
   * lock (P1), logs the record it returns, and returns the record's end LSN, which {@link
   * #awaitDurable} waits for; 0 if nothing was logged.
   *
   * @param type the participant's record type, 0 to 255
   * @throws IllegalArgumentException if the record is larger than {@link
   *     LogParticipant#MAX_RECORD_BYTES} or the type out of range; the change was applied
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
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
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  long put(Object value, int type, Attachment attachment);

  /**
   * Puts a value of kind BYTES whose {@link PayloadWriter#sizeBytes} bytes {@code payload} writes
   * straight into the new block, and, under the same lock, applies {@code attachment} to the new
   * pointer; both are logged as one record and are durable as a put is when this returns. A region
   * is put this way (its payload all zeros, say), its pointer recorded by the attachment.
   *
   * @return the new value's pointer
   * @throws IllegalArgumentException if the size is negative or larger than the largest value (see
   *     {@link dev.cairn.pile.Pile#put(Object)}); nothing was written
   * @throws RuntimeException what the payload or the attachment threw: the put is undone, and
   *     nothing is logged for it but the undo
   * @throws dev.cairn.pile.PileFullException if the memory budget is spent
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  long put(PayloadWriter payload, int type, Attachment attachment);

  /**
   * A {@link #put(PayloadWriter, int, Attachment)} that returns once its record is in the log,
   * without waiting for it to be durable. For a change that nothing acknowledged depends on yet, a
   * region that later writes will use, say: the log is made durable in order, so the record is
   * durable once any later record that a writer waits for is, or at the log's next force; a crash
   * before either loses it whole (the put and the change), as if it was never made. The default
   * waits, as a put does.
   *
   * @return the new value's pointer
   * @throws IllegalArgumentException as {@link #put(PayloadWriter, int, Attachment)} does
   * @throws RuntimeException what the payload or the attachment threw, as {@link
   *     #put(PayloadWriter, int, Attachment)} says
   * @throws dev.cairn.pile.PileFullException if the memory budget is spent
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  default long putWithoutWaiting(PayloadWriter payload, int type, Attachment attachment) {
    return put(payload, type, attachment);
  }

  /**
   * Replaces the value of {@code pointer} with a value of kind BYTES that {@code payload} writes
   * straight into the pile's memory, keeping the pointer valid as {@link
   * dev.cairn.pile.Pile#update} does: in place if it fits the block, else through the pile's link
   * to a block that holds it. With an {@code attachment}, it is applied under the same lock to
   * {@code pointer} once the value is replaced, and both are logged as one record; without one
   * ({@code null}), the update is logged as a plain update and {@code type} is not used. Durable as
   * an update is when this returns.
   *
   * @param attachment the participant's change, or null for none
   * @throws dev.cairn.pile.StalePointerException if the value is gone; nothing was changed
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's
   * @throws IllegalArgumentException if the size is negative or larger than the largest value
   * @throws dev.cairn.pile.PileFullException if the value must move and the memory budget is spent;
   *     the old value is intact
   * @throws RuntimeException what the payload threw: if the value was being rewritten in place its
   *     bytes are then unspecified (what the payload wrote, over the old bytes, logged as such:
   *     update or delete it again), if it was moving it is intact; the attachment is not called
   * @throws RuntimeException what the attachment threw: the update stays, logged without the
   *     participant's record; like every write that throws it is not waited for, and is durable
   *     once a later write is
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  void update(long pointer, PayloadWriter payload, int type, Attachment attachment);

  /**
   * Deletes the value of {@code pointer} and, under the same lock, applies {@code attachment}; both
   * are logged as one record. The attachment runs once the pointer is checked and before the value
   * is freed (it must not read the value).
   *
   * @throws dev.cairn.pile.StalePointerException if the value is gone; the attachment is not called
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's; the
   *     attachment is not called
   * @throws RuntimeException what the attachment threw: the value stays, and nothing is logged
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  void delete(long pointer, int type, Attachment attachment);

  /**
   * Adds {@code attachment} to {@code transaction}: applied when it commits, under the commit's
   * locks, and logged in its commit record; never applied if it rolls back.
   *
   * @throws IllegalStateException if the pile is still being opened (see the class comment)
   */
  void attach(Transaction transaction, int type, Attachment attachment);

  /**
   * Reads the value of {@code pointer} in place: the pile's optimistic read ({@link
   * dev.cairn.pile.Pile#read(long, dev.cairn.pile.ValueReader)}), with no view made per read.
   *
   * @return what {@code reader} returned, from a read no writer disturbed
   * @throws dev.cairn.pile.StalePointerException if the value was deleted
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never a value's
   * @throws IllegalStateException if the pile is closed
   */
  <R> R read(long pointer, InPlaceReader<R> reader);

  /**
   * Reads the first word of the block {@code pointer} names, for its line alone: a caller about to
   * {@link #read} several values reads each one's first word first, so that the processor fetches
   * their lines together rather than one after the other. Checks nothing but that the word lies in
   * one of the pile's segments: a stale or foreign pointer reads some other word, or none.
   *
   * @return the word read, or 0 if none was; meaningless, for the caller to keep (so that the
   *     compiler keeps the read)
   */
  long prefetch(long pointer);

  /**
   * The codecs the pile encodes and decodes values with: the options' registry, which a persistent
   * pile wraps with its type catalog ({@link CodecRegistry#withCatalog}), so that a payload the
   * participant composes with {@code codecOf(typeIdOf(type))} decodes in any later process as the
   * pile's own values do.
   */
  CodecRegistry codecs();

  /**
   * The bytes a value with a payload of {@code payloadBytes} takes in the pile: its block, the
   * header and the payload rounded up to the 8-byte granule, at least the smallest block. An
   * allocation may take up to 24 bytes more, when what would be left of a free block is too small
   * to be one; the pile's {@link dev.cairn.pile.PileStats#allocatedBytes} counts those too.
   *
   * @throws dev.cairn.pile.ValueTooLargeException if {@code payloadBytes} is larger than the
   *     largest value, for the reason it names (an {@link IllegalArgumentException})
   * @throws IllegalArgumentException if {@code payloadBytes} is negative
   */
  long allocatedBytes(int payloadBytes);

  /**
   * A read-write view of exactly the payload of the BYTES value {@code pointer}, put by this
   * participant to be written in place (see the class comment; through the pile's link if the value
   * moved). In a persistent pile reopened from its files, every page the block spans is first
   * checked against the checksum its last checkpoint recorded (the check every read makes), under
   * the lock of the stripe owning the block: so call it outside attachments, before the writes,
   * once per region and open (the view stays valid until the value is deleted or the pile closed;
   * after that, using it throws {@link IllegalStateException} or writes into memory the pile
   * reuses). During replay the block may already hold a state a later record made (the checkpoint's
   * pages are newer than its LSN): a region that a later record freed is then stale here, and its
   * writes may be skipped.
   *
   * @throws dev.cairn.pile.StalePointerException if the value is gone
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's
   * @throws IllegalArgumentException if the value is not of kind BYTES
   * @throws dev.cairn.codec.CorruptValueException if a page of the block does not match its
   *     recorded checksum (damaged on disk)
   * @throws IllegalStateException if the calling thread holds a lock of the pile's (it is inside an
   *     attachment)
   * @throws dev.cairn.pile.PileClosedException if the pile is closed
   */
  MemorySegment region(long pointer);

  /**
   * As {@link #region}, for a region whose payload the participant also changes without a record:
   * hints, bytes that a crash may leave new or old without harm (a cache's policy and idle-time
   * bits). Report such a change with {@link #written}, as any other, so that the next checkpoint
   * takes its pages. If that checkpoint is cut short by a crash, those pages match neither their
   * recorded checksum nor a record the recovery replays; so in the open after a checkpoint cut
   * short while it wrote pages, a hinted region viewed before {@link LogParticipant#recovered}
   * returns (see {@link #recoveredFromCutCheckpoint}) has its pages taken as they are: its hinted
   * bytes may be in any mix of the states they had since the checkpoint the recovery starts from,
   * torn pages included, while every byte a record changed is made exact by the replay, as for
   * {@link #region}. The price: damage on disk to such a region's pages goes unnoticed in that one
   * case. Otherwise it is {@link #region} exactly.
   *
   * @throws dev.cairn.pile.StalePointerException if the value is gone
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's
   * @throws IllegalArgumentException if the value is not of kind BYTES
   * @throws dev.cairn.codec.CorruptValueException if a page of the block does not match its
   *     recorded checksum (outside the replay after a cut checkpoint)
   * @throws IllegalStateException if the calling thread holds a lock of the pile's (it is inside an
   *     attachment)
   * @throws dev.cairn.pile.PileClosedException if the pile is closed
   */
  MemorySegment hintedRegion(long pointer);

  /**
   * Reports that bytes {@code [offset, offset + length)} of the payload of region {@code pointer}
   * were written since the last checkpoint, after they were written: the next checkpoint writes
   * their pages to the files. Call it inside the attachment that wrote them (or in replay, after
   * rewriting them). It takes no lock: any thread may call it, under the attachment's stripe lock
   * whichever stripe owns the region's block. A volatile pile checks the arguments and does nothing
   * more.
   *
   * @throws IndexOutOfBoundsException if the range is not inside the value's payload
   * @throws dev.cairn.pile.StalePointerException if the value is gone
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's
   * @throws dev.cairn.pile.PileClosedException if the pile is closed
   */
  void written(long pointer, long offset, long length);

  /**
   * {@link #written} for a change made without a record, outside any attachment: a hint in a region
   * viewed with {@link #hintedRegion}. Besides marking the pages for the next checkpoint, it makes
   * sure the pile's files no longer say they were closed cleanly (the first such call after a clean
   * reopen writes the superblock once, as a pile's first write does): the next checkpoint writes
   * those pages in place, and a crash that cuts it short must be recovered as a crash.
   *
   * @throws IndexOutOfBoundsException if the range is not inside the value's payload
   * @throws dev.cairn.pile.StalePointerException if the value is gone
   * @throws dev.cairn.pile.InvalidPointerException if {@code pointer} was never this pile's
   * @throws dev.cairn.pile.PileClosedException if the pile is closed
   */
  void hinted(long pointer, long offset, long length);

  /**
   * Whether this open recovered from a checkpoint cut short while it wrote pages in place (a crash
   * during a checkpoint). Then a page that held hints may match neither its checksum nor a record,
   * and values of other owners may share it: so {@link LogParticipant#recovered} must view every
   * region it views with {@link #hintedRegion} (each region it holds, retired ones included), which
   * takes their pages as they are and has the open's checkpoint record their checksums anew. A
   * hinted region first viewed after {@code recovered} returns is checked as {@link #region}
   * checks. False on a clean reopen, after an ordinary crash, and in a volatile pile; constant for
   * the open.
   */
  boolean recoveredFromCutCheckpoint();
}
