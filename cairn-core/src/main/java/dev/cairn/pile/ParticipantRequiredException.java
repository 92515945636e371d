package dev.cairn.pile;

/**
 * A pile whose log or last checkpoint holds the records or state of a participant (a durable
 * structure sharing its log, such as a cache's index) was opened for writing without that
 * participant. Opening it so would drop the participant's records at the next checkpoint and leave
 * it disagreeing with the pile; nothing was changed. Open the pile through what made it (the cache,
 * for a cache's directory), or read-only ({@code cairn inspect}, {@code cairn verify}), which
 * ignores participants.
 */
public final class ParticipantRequiredException extends PileException {
  private final int participantId;

  public ParticipantRequiredException(
      java.nio.file.Path directory, int participantId, String where) {
    super(
        "the pile in "
            + directory
            + " holds "
            + where
            + " of participant "
            + participantId
            + ", which this open did not register: open it through what created that participant"
            + " (a cache's directory through the cache), or read-only to inspect it; nothing was"
            + " changed");
    this.participantId = participantId;
  }

  /** The id of the participant that was missing. */
  public int participantId() {
    return participantId;
  }
}
