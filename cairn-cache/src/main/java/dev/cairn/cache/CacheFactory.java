package dev.cairn.cache;

import dev.cairn.pile.Pile;
import dev.cairn.pile.participant.Participants;

/** Makes caches: a pile with the cache registered as its participant, and the cache over it. */
final class CacheFactory {
  private CacheFactory() {}

  static Cache offHeap(CacheOptions options) {
    CacheParticipant participant = new CacheParticipant();
    Pile pile = Participants.offHeap(options.pile(), participant);
    boolean success = false;
    try {
      PileEntryLog log = new PileEntryLog(pile, Participants.log(pile, participant),
          options.pile().codecs());
      CacheCore core = new CacheCore(log, options.clock(), options.budgetBytes(), false);
      participant.attach(core);
      Cache cache = new Cache(pile, core);
      success = true;
      return cache;
    } finally {
      if (!success) {
        pile.close();
      }
    }
  }
}
