package dev.cairn.cache;

import dev.cairn.pile.participant.LogParticipant;
import java.lang.foreign.MemorySegment;

/**
 * The cache as a participant of its pile's log: its records replayed at open, its state in each
 * checkpoint.
 */
final class CacheParticipant implements LogParticipant {
  /** The cache's participant id in its pile. */
  static final int ID = 1;

  private volatile CacheCore core;

  void attach(CacheCore core) {
    this.core = core;
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public void open(byte[] state, long checkpointLsn) {}

  @Override
  public void replay(long lsn, int type, MemorySegment payload) {}

  @Override
  public byte[] checkpoint(long checkpointLsn) {
    CacheCore c = core;
    if (c == null) {
      return new byte[0];
    }
    c.checkpointBegun();
    return CacheState.encode(c.tables(), c.retiredRegions());
  }
}
