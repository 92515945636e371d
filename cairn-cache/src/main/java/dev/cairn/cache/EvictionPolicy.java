package dev.cairn.cache;

/**
 * What the evictor asks of the eviction policy, in terms of a slot's policy bits ({@link
 * dev.cairn.cache.index.SlotLayout}): the bits of a new entry, what a hit does, and whether the
 * hand evicts a slot as it passes.
 *
 * <p>Thread-safety: every method may be called from any thread; bits change by CAS, and a lost
 * update is a lost hint, never a wrong answer.
 */
interface EvictionPolicy {

  /** The policy bits of a new entry. */
  int initialBits(boolean pinned);

  /** A read hit the entry of {@code slot}, whose meta word was {@code meta}. */
  void onHit(OffHeapTable<?, ?> table, long slot, long meta);

  /**
   * The hand passes {@code slot}: true to evict its entry; else the policy may have aged its
   * bits. Never true for a pinned entry.
   */
  boolean sweep(OffHeapTable<?, ?> table, long slot, long meta);

  /** Whether the bits say the entry is pinned. */
  boolean pinned(int bits);
}
