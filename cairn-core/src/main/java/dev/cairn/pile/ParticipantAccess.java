package dev.cairn.pile;

import dev.cairn.durability.file.FileLayer;
import dev.cairn.pile.participant.LogParticipant;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.PileAccess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The pile's side of {@link dev.cairn.pile.participant.Participants}. */
final class ParticipantAccess implements PileAccess {

  @Override
  public Pile offHeap(PileOptions options, List<LogParticipant> participants) {
    ParticipantRegistry registry = new ParticipantRegistry(participants);
    OffHeapPile pile = new OffHeapPile(options, registry);
    registry.bind(pile);
    registry.openVolatile();
    registry.opened();
    return pile;
  }

  @Override
  public Pile open(
      FileLayer layer, Path directory, PileOptions options, List<LogParticipant> participants)
      throws IOException {
    ParticipantRegistry registry = new ParticipantRegistry(participants);
    OffHeapPile pile = PersistentStore.open(layer, directory, options, registry);
    registry.opened(); // bound and opened by the store's recovery
    return pile;
  }

  @Override
  public Pile openReadOnly(
      FileLayer layer, Path directory, PileOptions options, List<LogParticipant> participants)
      throws IOException {
    ParticipantRegistry registry = new ParticipantRegistry(participants);
    OffHeapPile pile = PersistentStore.openReadOnly(layer, directory, options, registry);
    registry.opened();
    return pile;
  }

  @Override
  public ParticipantLog log(Pile pile, LogParticipant participant) {
    if (!(pile instanceof OffHeapPile offHeap)) {
      throw new IllegalArgumentException("not a Cairn pile: " + pile);
    }
    return offHeap.participants().logOf(participant);
  }
}
