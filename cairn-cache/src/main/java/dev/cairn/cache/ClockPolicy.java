package dev.cairn.cache;

import dev.cairn.cache.index.SlotLayout;

/**
 * CLOCK: a hit sets the slot's reference bit; the hand clears it as it passes, and evicts a slot
 * it finds clear. Bit 7 pins.
 */
final class ClockPolicy implements EvictionPolicy {
  static final int REFERENCED = 1;
  static final int PINNED = 1 << 7;

  @Override
  public int initialBits(boolean pinned) {
    return pinned ? PINNED : 0;
  }

  @Override
  public void onHit(OffHeapTable<?, ?> table, long slot, long meta) {
    int bits = SlotLayout.policyOfMeta(meta);
    if ((bits & REFERENCED) == 0) {
      table.index.casPolicy(slot, meta, bits | REFERENCED);
    }
  }

  @Override
  public boolean sweep(OffHeapTable<?, ?> table, long slot, long meta) {
    int bits = SlotLayout.policyOfMeta(meta);
    if ((bits & PINNED) != 0) {
      return false;
    }
    if ((bits & REFERENCED) != 0) {
      table.index.casPolicy(slot, meta, bits & ~REFERENCED);
      return false;
    }
    return true;
  }

  @Override
  public boolean pinned(int bits) {
    return (bits & PINNED) != 0;
  }
}
