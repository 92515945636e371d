package dev.cairn.pile;

import java.nio.file.Path;

/**
 * A pile that holds values or roots, but neither a checkpointed state nor a log record of a
 * participant that owns its pile ({@link dev.cairn.pile.participant.LogParticipant#ownsItsPile}),
 * was opened for writing with that participant: a plain pile's directory given to {@code
 * Cache.open}, say. The participant would take the pile's values for its own (a cache reports each
 * as an orphan) and, at the next checkpoint, bind the pile to itself; the open refuses instead. It
 * refuses before it opens the log when the pile's last checkpoint holds values, so that no file is
 * touched; else after the log's replay, when only the log's own metadata has been written (as by
 * any open), and nothing of the pile's values, roots or checkpoints. Open the pile through what
 * made it ({@link Pile#open} for a plain pile), or give the participant a missing or empty
 * directory.
 */
public final class ForeignPileException extends PileException {
  private final int participantId;

  public ForeignPileException(Path directory, int participantId, long objects, int roots) {
    super(
        "the pile in "
            + directory
            + " holds "
            + objects
            + " values and "
            + roots
            + " roots, but no state or log record of participant "
            + participantId
            + ", which keeps every value of its pile (a cache's index does): it was made by"
            + " something else, a plain pile perhaps. Open it as what made it (Pile.open for a"
            + " plain pile), or give this open a missing or empty directory; its values were left"
            + " as they were");
    this.participantId = participantId;
  }

  /** The id of the participant that found the pile foreign. */
  public int participantId() {
    return participantId;
  }
}
