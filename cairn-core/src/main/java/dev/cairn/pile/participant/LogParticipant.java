package dev.cairn.pile.participant;

import java.lang.foreign.MemorySegment;

/**
 * A durable structure that shares a persistent pile's log, checkpoints and recovery. Registered
 * when the pile is opened ({@link Participants#withParticipants}); the pile calls it back.
 *
 * <h2>The contract</h2>
 *
 * <pre>{@code
 * P1  Apply, then log, under a pile lock: a participant changes its state only inside an
 *     Attachment, which the pile runs under the lock of the write it belongs to (a record of the
 *     participant's own takes a stripe lock too) and logs right after. A checkpoint takes its
 *     state under every stripe lock, so the state holds every change whose record is before the
 *     checkpoint's LSN, and no change whose record is not yet in the log.
 * P2  Records set, never add: replaying a record twice, or over a state that already holds it,
 *     leaves the same state. A checkpoint's state may hold changes logged after its LSN, which
 *     recovery replays again.
 * P3  No pile calls while holding the participant's own lock, and no blocking in a callback:
 *     callbacks run under the pile's locks (lock order: pile, then participant).
 * P4  The same id at every open. A read-write open of a pile whose log or checkpoint holds
 *     records or state of a participant not registered fails (ParticipantRequiredException);
 *     a read-only open (inspect, verify) ignores them.
 * P5  Records reach the log in the order they are appended, as each write's lock is released,
 *     not in the order their attachments ran: two writes on different stripes may log in the
 *     other order. Replay must not depend on the order of records whose changes another
 *     thread could see before they were logged: keep each piece of state (a region's word, a
 *     counter) changed by one writer at a time until its write returns, or make the records
 *     independent of their order.
 * P6  Replay meets the future: a checkpoint copies pages after its LSN, so when a record is
 *     replayed the pile holds everything logged before it and possibly bytes of later records
 *     too, which their own replay rewrites. Records must say what to set, never read what the
 *     pile holds to decide it; a region a later record freed may be stale at region() (skip
 *     its writes), and open() must not call region() for regions its state names (their put
 *     may be replayed after it).
 * }</pre>
 *
 * <h2>Lifecycle at open</h2>
 *
 * {@link #open} with the participant's {@link ParticipantLog} and the state of the last checkpoint,
 * then {@link #replay} of every record of the participant logged since, in LSN order and
 * interleaved with the pile's own records (when a record is replayed, the pile holds everything
 * logged before it, P6), then {@link #recovered}. Until the pile is returned the log takes no
 * writes (they throw {@link IllegalStateException}); replay rewrites regions through {@link
 * ParticipantLog#region} and {@link ParticipantLog#written}. Later, each checkpoint calls {@link
 * #checkpoint}.
 *
 * <p>Thread-safety: {@link #open}, {@link #replay} and {@link #recovered} are called by the opening
 * thread, one at a time; {@link #checkpoint} by the checkpointing thread while writers run on
 * others.
 */
public interface LogParticipant {

  /** The greatest participant id. */
  int MAX_ID = 255;

  /** The largest payload of a participant's record. */
  int MAX_RECORD_BYTES = 4096;

  /** The largest state {@link #checkpoint} returns. */
  int MAX_STATE_BYTES = 1 << 20;

  /** The participant's id in the pile's log and metadata: 1 to {@link #MAX_ID}, stable (P4). */
  int id();

  /**
   * At open, before any replay: the participant's log in this pile (the same object {@link
   * Participants#log} returns later), and the state {@link #checkpoint} returned at the pile's last
   * checkpoint (empty for a new pile, or one whose checkpoints never included this participant).
   * The log takes no writes until the pile is returned, and the pile may not yet hold the values
   * the state names (P6): keep the log and the state, and reach the pile in {@link #replay} or
   * {@link #recovered}.
   *
   * @param log the participant's log: for {@link ParticipantLog#region}, {@link
   *     ParticipantLog#written} and {@link ParticipantLog#codecs} during replay, for everything
   *     once the pile is returned
   * @param state the bytes, a copy the participant may keep
   * @param checkpointLsn the LSN of that checkpoint: records from it on are replayed
   */
  void open(ParticipantLog log, byte[] state, long checkpointLsn);

  /**
   * At open: one record this participant logged ({@link ParticipantLog#append}, or attached to a
   * pile write), in LSN order. The pile holds every record logged before it (and maybe bytes of
   * later ones, P6); the participant must not write to the pile here, but rewrites the regions the
   * record changed ({@link ParticipantLog#region}, then {@link ParticipantLog#written} for the
   * bytes set).
   *
   * @param lsn the record's LSN
   * @param type the type the participant gave it, 0 to 255
   * @param payload its bytes, valid only during the call
   */
  void replay(long lsn, int type, MemorySegment payload);

  /**
   * At open, after the last {@link #replay}, before the pile is returned: the pile now holds
   * exactly what the log says, and {@link ParticipantLog#region} sees every region the state and
   * the records name (call it again for views taken during replay, which checks, in the rare replay
   * that had to defer them, the pages it had not checked yet). If {@link
   * ParticipantLog#recoveredFromCutCheckpoint} says so, view here every region the participant
   * views with {@link ParticipantLog#hintedRegion}: their pages are taken as they are only until
   * this returns.
   */
  default void recovered() {}

  /**
   * A checkpoint at {@code checkpointLsn}: returns the participant's state, which the pile writes
   * into the checkpoint's metadata and hands back to {@link #open}. Called under every stripe lock
   * of the pile (so no attached write is half done); it must be quick (a copy), and hold every
   * change whose record is before {@code checkpointLsn} (P1). Keep it small (at most {@link
   * #MAX_STATE_BYTES}): a large structure keeps itself in pile values, found again through a named
   * root, and its state here says where.
   */
  byte[] checkpoint(long checkpointLsn);

  /**
   * Whether this participant owns every value and root of the pile it is opened with, so that it
   * must have made the pile itself (false by default). A cache says true: it holds each value of
   * its pile through its index, and takes any other as damage (an orphan). A read-write open of an
   * existing pile that holds values or roots but neither a checkpointed state nor a log record of
   * such a participant, a plain pile opened as a cache say, then fails with {@link
   * dev.cairn.pile.ForeignPileException} and changes nothing, instead of adopting values that the
   * participant never wrote. A read-only open does not check.
   */
  default boolean ownsItsPile() {
    return false;
  }
}
