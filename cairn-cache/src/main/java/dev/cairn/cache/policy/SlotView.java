package dev.cairn.cache.policy;

/**
 * What the eviction policy sees of the index: an array of slots in table order, each empty or
 * holding one entry, with the entry's hash bits, its size and the 8 policy bits of its meta word.
 * The index implements it over its buckets; a cache with several tables presents them as one view
 * (their slot ranges one after the other), so that one hand sweeps them all and one byte budget
 * covers them.
 *
 * <p>Slot numbers are {@code 0..slotCount()-1}. The count may change between calls as the index
 * grows; the policy only keeps a hand position, which it wraps. The policy bits travel with the
 * entry when the index moves it (a bucket split), as they live in its meta word.
 *
 * <p>Thread-safety: {@link #compareAndSetBits} is called from readers on a hit, with no lock, and
 * must be atomic against every other change of the slot's meta word. Every other method is called
 * by the thread that holds the cache's eviction lock, except {@link #hash} and {@link #bits},
 * which a hit also reads.
 */
public interface SlotView {
  /** The number of slots, empty or not. */
  long slotCount();

  /** Whether {@code slot} holds an entry. */
  boolean occupied(long slot);

  /** Whether the entry in {@code slot} is pinned: never evicted, skipped by the hand. */
  boolean pinned(long slot);

  /**
   * The hash bits the index keeps for the entry in {@code slot}: the same value the cache passes
   * to {@link TinyLfuClock#onMiss} for that key, since the frequency sketch is keyed by it.
   */
  long hash(long slot);

  /**
   * The slot of an entry whose {@link #hash} is {@code hash}, or -1 if there is none. Called
   * under the eviction lock, once per entry that leaves the window.
   */
  long find(long hash);

  /** The bytes the entry in {@code slot} counts against the budget, at least 1. */
  long sizeBytes(long slot);

  /** The policy bits of {@code slot}, 0..255 ({@link PolicyBitsLayout}). */
  int bits(long slot);

  /** Sets the policy bits of {@code slot}; called under the eviction lock. */
  void setBits(long slot, int bits);

  /**
   * Sets the policy bits of {@code slot} to {@code bits} if they are {@code expected}, atomically
   * with respect to every other change of the slot; returns whether it did. A hit calls it once
   * and gives up on failure (a lost reference only ages the entry a little sooner).
   */
  boolean compareAndSetBits(long slot, int expected, int bits);
}
