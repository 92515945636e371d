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
 * <p>Identity: the policy changes a slot's bits only by {@link #compareAndSetBits}, right after it
 * read them with {@link #bits} (and the entry's size with {@link #sizeBytes}) from the same slot. A
 * view over an index whose writers run concurrently (entries inserted, removed, or moved by a
 * shard's rebuild while the policy works) refuses that compare-and-set when the slot no longer
 * holds the entry that read saw, and the policy leaves such a slot alone (TinyLfuClock I6).
 *
 * <p>Thread-safety: {@link #compareAndSetBits} is called from readers on a hit ({@link
 * TinyLfuClock#onHit}), with no lock, and must be atomic against every other change of the slot's
 * meta word. Every other method is called by the thread that holds the cache's eviction lock,
 * except {@link #hash} and {@link #bits}, which a hit also reads.
 */
public interface SlotView {
  /** The number of slots, empty or not. */
  long slotCount();

  /** Whether {@code slot} holds an entry. */
  boolean occupied(long slot);

  /** Whether the entry in {@code slot} is pinned: never evicted, skipped by the hand. */
  boolean pinned(long slot);

  /**
   * The hash bits the index keeps for the entry in {@code slot}: the same value the cache passes to
   * {@link TinyLfuClock#onMiss} for that key, since the frequency sketch is keyed by it.
   */
  long hash(long slot);

  /**
   * The slot of the window entry (segment WINDOW) whose {@link #hash} is {@code hash}, or -1 if
   * there is none. Called under the eviction lock, for the ring's records: once per entry that
   * leaves the window, and when the ring is compacted.
   */
  long find(long hash);

  /** The bytes the entry in {@code slot} counts against the budget, at least 1. */
  long sizeBytes(long slot);

  /**
   * The policy's bits of {@code slot} ({@link PolicyBitsLayout}): the segment, referenced and age
   * fields; the spare bits read as 0 (they are the view's).
   */
  int bits(long slot);

  /**
   * Sets the policy's bits of {@code slot} to {@code bits} if they are {@code expected}, atomically
   * with respect to every other change of the slot, keeping the spare bits; returns whether it did.
   * Under the eviction lock it may also refuse when the slot no longer holds the entry whose bits
   * the policy last read there (see Identity above). A hit calls it once and gives up on failure (a
   * lost reference only ages the entry a little sooner).
   */
  boolean compareAndSetBits(long slot, int expected, int bits);
}
