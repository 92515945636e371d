package dev.cairn.pile.participant;

import dev.cairn.durability.file.FileLayer;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The pile's side of {@link Participants}: implemented in {@code dev.cairn.pile}, found by name.
 * Not for participants to call; they use {@link Participants}.
 */
public interface PileAccess {

  /** See {@link Participants#offHeap}. */
  Pile offHeap(PileOptions options, List<LogParticipant> participants);

  /** See {@link Participants#open(FileLayer, Path, PileOptions, LogParticipant...)}. */
  Pile open(FileLayer layer, Path directory, PileOptions options, List<LogParticipant> participants)
      throws IOException;

  /** See {@link Participants#openReadOnly}. */
  Pile openReadOnly(
      FileLayer layer, Path directory, PileOptions options, List<LogParticipant> participants)
      throws IOException;

  /** See {@link Participants#log}. */
  ParticipantLog log(Pile pile, LogParticipant participant);
}
