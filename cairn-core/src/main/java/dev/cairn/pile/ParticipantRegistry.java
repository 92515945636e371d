package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.pile.participant.LogParticipant;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * The participants registered with one pile (see {@link LogParticipant}): who they are, their logs
 * in the pile ({@link PileParticipantLog}, which take writes once the open is over), their records'
 * header, their states in a checkpoint's metadata, and the dispatch of their records at replay.
 *
 * <pre>
 * ParticipantHeader --> Participant:u8, Type:u8, Zero:u16, Length:u32      then Payload[Length]
 * Participant (log)  --> ParticipantHeader, Payload                   record type 22
 * ParticipantOp (log) --> ParticipantHeader, Payload, OpRecord        record type 23 (Journal)
 * States (metadata) --> (Participant:u8, Zero:u8, Zero:u16, Length:u32, State[Length])^*
 * </pre>
 *
 * <p>Thread-safety: immutable after the open (the logs are bound before any participant is opened,
 * and the writable flag is volatile), but for the participants' own state.
 */
final class ParticipantRegistry {

  /** Bytes of a participant record's header, and of a state entry's. */
  static final int HEADER_BYTES = RedoLayout.PARTICIPANT_HEADER_BYTES;

  /** A bound on the States section of a metadata file. */
  static final long MAX_SECTION_BYTES =
      (long) LogParticipant.MAX_ID * (HEADER_BYTES + LogParticipant.MAX_STATE_BYTES);

  /** A pile with no participants. */
  static final ParticipantRegistry NONE = new ParticipantRegistry(List.of());

  private final LogParticipant[] byId = new LogParticipant[LogParticipant.MAX_ID + 1];
  private final List<LogParticipant> all;
  // each participant's log in the pile, made once the pile is (bind)
  private final PileParticipantLog[] logs = new PileParticipantLog[LogParticipant.MAX_ID + 1];
  // false until the pile is returned to its opener: the logs take no writes before (replay)
  private volatile boolean writable;
  // at open: whether the checkpoint held a state of the participant, or the log a record of it
  private final boolean[] known = new boolean[LogParticipant.MAX_ID + 1];

  ParticipantRegistry(List<LogParticipant> participants) {
    for (LogParticipant participant : participants) {
      int id = participant.id();
      if (id < 1 || id > LogParticipant.MAX_ID) {
        throw new IllegalArgumentException(
            "a participant's id must be in [1, "
                + LogParticipant.MAX_ID
                + "]: id="
                + id
                + " participant="
                + participant);
      }
      if (byId[id] != null) {
        throw new IllegalArgumentException(
            "two participants have id " + id + ": " + byId[id] + " and " + participant);
      }
      byId[id] = participant;
    }
    this.all = List.copyOf(participants);
  }

  boolean isEmpty() {
    return all.isEmpty();
  }

  /**
   * Makes each participant's log in {@code pile}, before the participants are opened. A registry
   * belongs to one pile (but {@link #NONE}, which has no participant).
   */
  void bind(OffHeapPile pile) {
    for (LogParticipant participant : all) {
      logs[participant.id()] = new PileParticipantLog(pile, this, participant.id());
    }
  }

  /** The pile is returned to its opener: the participants' logs take writes from now on. */
  void opened() {
    writable = true;
  }

  /**
   * Throws unless the pile was returned to its opener ({@link #opened}): during open, replay and
   * recovered() a participant may rewrite regions, never write to the pile.
   */
  void requireWritable(String operation) {
    if (!writable) {
      throw new IllegalStateException(
          "a participant cannot "
              + operation
              + " while the pile is"
              + " being opened (open, replay, recovered): the log takes writes once the pile is"
              + " returned; replay rewrites regions through region() and written() only");
    }
  }

  /** The log of {@code participant}, registered (see {@link #idOf}) and bound. */
  PileParticipantLog logOf(LogParticipant participant) {
    return logs[idOf(participant)];
  }

  /** The registered participant {@code participant}, or an exception naming the mistake. */
  int idOf(LogParticipant participant) {
    int id = participant.id();
    if (id < 1 || id > LogParticipant.MAX_ID || byId[id] != participant) {
      throw new IllegalArgumentException(
          "the pile was not opened with this participant: "
              + participant
              + " (register it with Participants.open)");
    }
    return id;
  }

  /** Writes a participant record's header at {@code at} of {@code out}. */
  static void writeHeader(MemorySegment out, long at, int participant, int type, long length) {
    out.set(Journal.U8, at + RedoLayout.PARTICIPANT_ID_OFFSET, (byte) participant);
    out.set(Journal.U8, at + RedoLayout.PARTICIPANT_TYPE_OFFSET, (byte) type);
    out.set(Journal.U16, at + RedoLayout.PARTICIPANT_ZERO_OFFSET, (short) 0);
    out.set(Journal.U32, at + RedoLayout.PARTICIPANT_LENGTH_OFFSET, (int) length);
  }

  /** Checks a participant's record type. */
  static void checkType(int type) {
    if (type < 0 || type > 255) {
      throw new IllegalArgumentException(
          "a participant's record type must be in [0, 255]: type=" + type);
    }
  }

  /** Checks a payload a participant gave: its size and type. */
  static MemorySegment checked(int type, MemorySegment payload) {
    checkType(type);
    if (payload == null) {
      throw new IllegalArgumentException("an attachment returned no record (null)");
    }
    if (payload.byteSize() > LogParticipant.MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "participant record larger than allowed: bytes="
              + payload.byteSize()
              + " limit="
              + LogParticipant.MAX_RECORD_BYTES);
    }
    return payload;
  }

  /** The bytes of the participant record at {@code payload}'s offset 0, with its header. */
  static long recordBytes(MemorySegment payload) {
    long length =
        Integer.toUnsignedLong(payload.get(Journal.U32, RedoLayout.PARTICIPANT_LENGTH_OFFSET));
    if (HEADER_BYTES + length > payload.byteSize()) {
      throw new PileCorruptionException(
          "participant record of " + payload.byteSize() + " bytes says its payload has " + length);
    }
    return HEADER_BYTES + length;
  }

  /**
   * Replays the participant record starting at {@code payload}'s offset 0 and returns its bytes
   * with the header; a read-only open skips records of participants it does not know.
   */
  long replay(long lsn, MemorySegment payload, boolean readOnly, Path directory) {
    long length = recordBytes(payload) - HEADER_BYTES;
    int id = Byte.toUnsignedInt(payload.get(Journal.U8, RedoLayout.PARTICIPANT_ID_OFFSET));
    int type = Byte.toUnsignedInt(payload.get(Journal.U8, RedoLayout.PARTICIPANT_TYPE_OFFSET));
    LogParticipant participant = byId[id];
    if (participant != null) {
      known[id] = true;
      participant.replay(lsn, type, payload.asSlice(HEADER_BYTES, length));
    } else if (!readOnly) {
      throw new ParticipantRequiredException(directory, id, "log records");
    }
    return HEADER_BYTES + length;
  }

  /**
   * The States section of a checkpoint: each participant's {@link LogParticipant#checkpoint}.
   * Called under every stripe lock.
   */
  byte[] checkpoint(long checkpointLsn) {
    if (all.isEmpty()) {
      return new byte[0];
    }
    byte[][] states = new byte[all.size()][];
    long total = 0;
    for (int i = 0; i < states.length; i++) {
      LogParticipant participant = all.get(i);
      byte[] state = participant.checkpoint(checkpointLsn);
      if (state == null || state.length > LogParticipant.MAX_STATE_BYTES) {
        throw new IllegalStateException(
            "participant "
                + participant.id()
                + " returned a"
                + " checkpoint state of "
                + (state == null ? "null" : state.length + " bytes")
                + "; the limit is "
                + LogParticipant.MAX_STATE_BYTES
                + " bytes (keep a large"
                + " structure in pile values and name it in the state or a root)");
      }
      states[i] = state;
      total += HEADER_BYTES + state.length;
    }
    MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(total)]);
    long at = 0;
    for (int i = 0; i < states.length; i++) {
      writeHeader(out, at, all.get(i).id(), 0, states[i].length);
      MemorySegment.copy(
          MemorySegment.ofArray(states[i]), 0, out, at + HEADER_BYTES, states[i].length);
      at += HEADER_BYTES + states[i].length;
    }
    return out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }

  /**
   * At open: hands each registered participant its state from the States section {@code [at, at +
   * length)} of metadata file {@code file} (empty if it has none).
   */
  void open(
      Path file,
      MemorySegment meta,
      long at,
      long length,
      long checkpointLsn,
      boolean readOnly,
      Path directory) {
    byte[][] states = new byte[byId.length][];
    long end = at + length;
    while (at < end) {
      if (end - at < HEADER_BYTES) {
        throw new CorruptFileException(file, at, "participant states end inside an entry");
      }
      int id = Byte.toUnsignedInt(meta.get(Journal.U8, at + RedoLayout.PARTICIPANT_ID_OFFSET));
      long bytes =
          Integer.toUnsignedLong(meta.get(Journal.U32, at + RedoLayout.PARTICIPANT_LENGTH_OFFSET));
      if (id == 0 || bytes > end - at - HEADER_BYTES || states[id] != null) {
        throw new CorruptFileException(
            file,
            at,
            "invalid participant state entry: participant="
                + id
                + " bytes="
                + bytes
                + " (the section ends at "
                + end
                + ")");
      }
      states[id] =
          meta.asSlice(at + HEADER_BYTES, bytes).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
      if (byId[id] == null && !readOnly) {
        throw new ParticipantRequiredException(directory, id, "a checkpointed state");
      }
      at += HEADER_BYTES + bytes;
    }
    for (LogParticipant participant : all) {
      byte[] state = states[participant.id()];
      known[participant.id()] = state != null;
      participant.open(logs[participant.id()], state != null ? state : new byte[0], checkpointLsn);
    }
  }

  /**
   * At a read-write open, once with the checkpoint loaded (before the log is opened) and again
   * after the replay (before anything is logged): refuses a pile that holds {@code objects} values
   * or {@code roots} roots but no state or record of a participant that owns its pile ({@link
   * LogParticipant#ownsItsPile}).
   *
   * @throws ForeignPileException naming the participant and what the pile holds
   */
  void refuseForeignPile(Path directory, long objects, int roots) {
    if (objects == 0 && roots == 0) {
      return; // new, or emptied: nothing to adopt
    }
    for (LogParticipant participant : all) {
      if (participant.ownsItsPile() && !known[participant.id()]) {
        throw new ForeignPileException(directory, participant.id(), objects, roots);
      }
    }
  }

  /** A volatile pile's participants: opened empty, nothing to replay. */
  void openVolatile() {
    for (LogParticipant participant : all) {
      participant.open(logs[participant.id()], new byte[0], 0);
      participant.recovered();
    }
  }

  /** At open, after the replay. */
  void recovered() {
    for (LogParticipant participant : all) {
      participant.recovered();
    }
  }
}
