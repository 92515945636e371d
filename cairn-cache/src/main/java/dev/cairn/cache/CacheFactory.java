package dev.cairn.cache;

import dev.cairn.durability.file.FileLayer;
import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.participant.Participants;
import java.io.IOException;
import java.nio.file.Path;

/** Makes caches: a pile with the cache registered as its participant, and the cache over it. */
final class CacheFactory {
  private CacheFactory() {}

  static Cache offHeap(CacheOptions options) {
    CacheParticipant participant = new CacheParticipant();
    Pile pile = Participants.offHeap(options.pile(), participant);
    return over(pile, participant, options, false, false);
  }

  static Cache open(FileLayer layer, Path directory, CacheOptions options) throws IOException {
    CacheParticipant participant = new CacheParticipant();
    Pile pile = Participants.open(layer, directory, options.pile(), participant);
    // with a log, a retired region may be read by a replay until later checkpoints complete
    // (CacheCore's note); without one, no replay reads anything
    return over(pile, participant, options, options.pile().durability() != Durability.NONE, true);
  }

  /** The cache in {@code directory}, read-only: for inspect and verify. */
  static Cache openReadOnly(FileLayer layer, Path directory) throws IOException {
    CacheParticipant participant = new CacheParticipant();
    CacheOptions options = CacheOptions.defaults();
    Pile pile = Participants.openReadOnly(layer, directory, options.pile(), participant);
    return over(pile, participant, options, false, true);
  }

  /**
   * The cache over {@code pile}; {@code replayable}: the pile has a log, which a replay reads;
   * {@code persistent}: the pile has files, whose checkpoints need to know what the index wrote.
   */
  private static Cache over(
      Pile pile,
      CacheParticipant participant,
      CacheOptions options,
      boolean replayable,
      boolean persistent) {
    boolean success = false;
    try {
      PileEntryLog log = new PileEntryLog(Participants.log(pile, participant), persistent);
      CacheCore core = new CacheCore(log, options.clock(), options.budgetBytes(), replayable);
      for (CacheState.Table t : participant.recoveredTables()) {
        // the policy's totals start at zero (CacheSlots, Recovery): a bounded cache's slots are
        // uncounted, each shard's at its first view (HashIndex V2), so the open reads no index.
        // An unbounded one never counts, evicts or checks the bits (Evictor): they stay
        if (core.evictor().bounded()) {
          t.index().resetPolicyAtFirstView(CacheSlots::uncounted);
        }
        core.addTable(new OffHeapTable<>(core, t.descriptor(), t.index()));
      }
      core.restoreRetired(participant.recoveredRetired());
      participant.attach(core);
      Cache cache =
          new Cache(pile, core, options.hashedKeys() ? KeyPlacement.HASHED : KeyPlacement.RUNS);
      success = true;
      return cache;
    } finally {
      if (!success) {
        pile.close();
      }
    }
  }
}
