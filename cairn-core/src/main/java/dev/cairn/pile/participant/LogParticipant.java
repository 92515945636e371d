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
 * }</pre>
 *
 * <h2>Lifecycle at open</h2>
 *
 * {@link #open} with the state of the last checkpoint, then {@link #replay} of every record of
 * the participant logged since, in LSN order and interleaved with the pile's own records (when
 * a record is replayed, the pile holds everything logged before it), then {@link #recovered}.
 * Later, each checkpoint calls {@link #checkpoint}.
 *
 * <p>Thread-safety: {@link #open}, {@link #replay} and {@link #recovered} are called by the
 * opening thread, one at a time; {@link #checkpoint} by the checkpointing thread while writers
 * run on others.
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
   * At open, before any replay: the state {@link #checkpoint} returned at the pile's last
   * checkpoint (empty for a new pile, or one whose checkpoints never included this participant).
   *
   * @param state the bytes, a copy the participant may keep
   * @param checkpointLsn the LSN of that checkpoint: records from it on are replayed
   */
  void open(byte[] state, long checkpointLsn);

  /**
   * At open: one record this participant logged ({@link ParticipantLog#append}, or attached to a
   * pile write), in LSN order. The pile holds every record logged before it; the participant
   * must not write to the pile here.
   *
   * @param lsn the record's LSN
   * @param type the type the participant gave it, 0 to 255
   * @param payload its bytes, valid only during the call
   */
  void replay(long lsn, int type, MemorySegment payload);

  /** At open, after the last {@link #replay}, before the pile is returned. */
  default void recovered() {}

  /**
   * A checkpoint at {@code checkpointLsn}: returns the participant's state, which the pile
   * writes into the checkpoint's metadata and hands back to {@link #open}. Called under every
   * stripe lock of the pile (so no attached write is half done); it must be quick (a copy), and
   * hold every change whose record is before {@code checkpointLsn} (P1). Keep it small (at
   * most {@link #MAX_STATE_BYTES}): a large structure keeps itself in pile values,
   * found again through a named root, and its state here says where.
   */
  byte[] checkpoint(long checkpointLsn);
}
