package dev.cairn.pile;

import java.security.SecureRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pile-wide source of block tags, and the secret that seals them into headers.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * A tag is the low 23 bits (Pointers.TAG_BITS) of a value of a 62-bit clock. A stripe takes the
 * clock's values CHUNK at a time (Stripe.nextTag), so the clock is written once per CHUNK puts.
 * Why one clock per pile, not one per stripe: a segment index, and with it every address,
 * passes between stripes, so two stripes' counters could put the same tag at the same address,
 * and a deleted pointer would name a new value (see Stripe).
 *
 * Invariants:
 *   C1 the clock never moves back: takeChunk and atLeast only add to it;
 *   C2 every tag a block holds came from a value below the clock: a restored stripe moves the
 *      clock past its own (atLeast), and tags taken before a crash are skipped (the durable
 *      bound PersistentStore.tagsTaken keeps, from which the clock restarts);
 *   C3 in a persistent pile the hooks learn of a chunk before any of its tags is handed out
 *      (PersistenceHooks.tagsTaken), so that a durable bound can stay ahead of the clock;
 *   C4 seal is an involution for a given address: seal(seal(t, a), a) == t.
 *
 * Concurrency: the clock is one AtomicLong; every method may run on any thread. key and
 * origin are fixed when the pile is made (a persistent pile's come from its superblock).
 * }</pre>
 */
final class TagClock {

  /** Tags a stripe takes from the clock at a time: one shared write per 1024 puts. */
  static final int CHUNK = 1024;

  /** The per-pile secret that seals tags into headers; see {@link #seal}. */
  private final long key;

  /**
   * Where the clock started, a random value in [1, 2^23) chosen when the pile was made (0 for a
   * persistent pile of an earlier build, which recorded none). Why random: two piles started at the
   * same value put the same tag at the same address, so a pointer of one pile read another's value;
   * and it tells a tag this pile never handed out from a stale one ({@link #handedOut}).
   */
  private final long origin;

  private final AtomicLong clock;
  private final PersistenceHooks hooks;

  TagClock(long key, long origin, PersistenceHooks hooks) {
    this.key = key;
    this.origin = origin;
    this.clock = new AtomicLong(Math.max(1, origin));
    this.hooks = hooks;
  }

  /** A new pile's sealing key: random, and odd, so that the hash of {@link #seal} mixes. */
  static long randomKey() {
    return new SecureRandom().nextLong() | 1;
  }

  /** A clock's random starting point, in [1, 2^23). */
  static long randomOrigin() {
    return ThreadLocalRandom.current().nextLong(1, 1L << Pointers.TAG_BITS);
  }

  /** The start of the next chunk of {@link #CHUNK} values for a stripe (C3). */
  long takeChunk() {
    long start = clock.getAndAdd(CHUNK);
    hooks.tagsTaken(start + CHUNK); // a persistent pile reserves tags durably first
    return start;
  }

  /** The next value the clock hands out: every tag handed out so far came from below it. */
  long current() {
    return clock.get();
  }

  /** Moves the clock to at least {@code value}: a restored stripe's clock (C2). */
  void atLeast(long value) {
    // a loop, not accumulateAndGet(value, Math::max): see OffHeapPile, "Start-up"
    long current = clock.get();
    while (current < value && !clock.compareAndSet(current, value)) {
      current = clock.get();
    }
  }

  /**
   * The tag field a header stores for a block at {@code address} whose pointer carries {@code tag}:
   * the tag XOR a keyed hash of the address. A pointer aimed into the middle of a value then
   * matches only if the payload holds that exact sealed word, which a caller cannot compute without
   * the pile's secret key; so a header-shaped word in a payload (copied from anywhere) does not
   * make a forged pointer valid, except by a 1 in 2^23 chance. Applying it twice unseals (C4).
   */
  int seal(int tag, long address) {
    return seal(key, tag, address);
  }

  /**
   * {@link #seal(int, long)} with the clock's {@link #key}, for the read and write paths, which
   * keep a copy of the key (it never changes) and so seal without a load of the clock.
   */
  static int seal(long key, int tag, long address) {
    return (tag ^ (int) ((address * key) >>> (64 - Pointers.TAG_BITS))) & Pointers.TAG_MASK;
  }

  /** The sealing key, for {@link #seal(long, int, long)}. */
  long key() {
    return key;
  }

  /**
   * Whether the clock has handed out {@code tag}, or may have: tags go out in order from {@link
   * #origin}, so until the clock has gone once round the 2^23 tags, a tag outside [origin, clock)
   * was never any pointer's. Chunks a stripe took count as handed out.
   */
  boolean handedOut(int tag) {
    if (origin == 0) {
      return true; // a pile of an earlier build: where its clock started is unknown
    }
    long span = clock.get() - origin;
    return span >= 1L << Pointers.TAG_BITS || ((tag - origin) & Pointers.TAG_MASK) < span;
  }
}
