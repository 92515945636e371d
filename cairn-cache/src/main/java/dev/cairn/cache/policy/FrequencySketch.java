package dev.cairn.cache.policy;

/**
 * How often each key was asked for lately, approximately: a count-min sketch of 4-bit counters that
 * forgets by halving, a few counters at a time. The eviction policy compares a newcomer's count
 * with its victim's to decide which one the cache keeps (TinyLFU admission).
 *
 * <p>Thread-safety: {@link #increment} and {@link #frequency} may be called from any thread without
 * a lock; concurrent increments of counters in the same word may lose one of them, an increment
 * racing with the halving of its block may undo that halving for one word, and an increment racing
 * with {@link #ensureCapacity} may land in the table being replaced and be lost. All of these only
 * blur an estimate that is approximate by design. {@link #ensureCapacity} must not run concurrently
 * with itself (the cache calls it under its eviction lock); each call reads the table once, and
 * derives its block from that table's length (I4).
 *
 * <p>Example, as the policy uses it:
 *
 * {@snippet :
 * FrequencySketch sketch = new FrequencySketch(10_000); // about 10 KB
 * sketch.increment(hash); // on every access, hit or miss
 * boolean keepCandidate = sketch.frequency(candidateHash) > sketch.frequency(victimHash);
 * }
 */
/*
 * Implementation note
 *
 * Layout. The table is a long[] of 16 counters per word, grouped in blocks of 8 words (64 bytes,
 * one cache line, 128 counters). A key's hash picks one block; within it, it picks one counter in
 * each of 4 pairs of words (word 2i or 2i+1, counter 0..15): 4 counters of one line, as in
 * Caffeine's sketch. Its frequency is the least of the 4 (count-min).
 *
 * Size. BYTES_PER_ENTRY bytes per expected entry, rounded up to a power-of-two number of blocks,
 * and never less than MIN_BYTES (16 KiB, 256 blocks): 1 byte (2 counters) per entry is 8 times
 * less than Caffeine's 8 bytes. The floor is for small caches: below 16,384 entries the table
 * is wider than 1 byte per entry, at a cost of 16 KiB of heap per cache, which is nothing beside
 * the index of even a small table (at least 64 KiB once every shard is used); on the traces it
 * lifts the mean hit ratio from 0.93 points below Caffeine's to 0.31 above (docs/CACHE-POLICY.md,
 * where the 1-byte figures are given too, as a cache of more than 16,384 entries gets them), in
 * part through the probation grace it allows (TinyLfuClock.GRACE_MIN_SKETCH_BYTES_PER_ENTRY).
 * Two things keep a narrow table accurate enough for admission:
 *   - conservative update: an increment raises only the counters equal to the current minimum,
 *     so a key's own counters grow no faster than its count, and collisions inflate less;
 *   - a shorter memory: all counters are halved once every SAMPLE_FACTOR * entries increments.
 *
 * Ageing. Caffeine halves the whole table in one pass when its sample is full; here one block is
 * halved every (period / blocks) increments, by a cursor that goes round the table, so no call
 * ever does more than 8 words of ageing; the increments are counted per thread (I5). A key's four
 * counters share a block, so they are always halved together (its estimate stays consistent); two
 * keys in different blocks may be half an ageing period apart, which blurs a comparison by at most
 * a factor 2 and did not cost measurable hit ratio on the traces (docs/CACHE-POLICY.md).
 *
 * Growth. ensureCapacity doubles the table by copying it into both halves: a key's block index
 * gains one hash bit, and both blocks it can now map to hold its old counters, so every estimate
 * is unchanged by the growth (I2). Counters then diverge as new increments land.
 *
 * Invariants
 *   I1. Every counter is in 0..15; an increment never carries into the next counter.
 *   I2. Growth changes no estimate: frequency(h) after ensureCapacity equals frequency(h) before.
 *   I3. A full round of the ageing cursor halves every counter exactly once, within one period
 *       (single-threaded; concurrent increments may age a block twice or skip it, a blur).
 *   I4. An index is always within the table it indexes: increment, frequency and the ageing step
 *       read the table field once and mask with that table's own block count, so a concurrent
 *       growth never makes them read past the end.
 *   I5. Each thread counts its own increments to its next ageing step (StripedCounts), so the
 *       blocks are aged at one step per (period / blocks) increments of all threads together, and
 *       an increment writes no line that another thread's increments write, but its counters'.
 *       One thread alone ages exactly as one shared count did (the simulator's runs repeat).
 */
public final class FrequencySketch {
  /** The largest count a counter holds; increments beyond it are dropped. */
  public static final int MAX_COUNT = 15;

  /** Sketch bytes per expected entry (2 counters of 4 bits). */
  static final int BYTES_PER_ENTRY = 1;

  /** Increments per full ageing round, per expected entry. */
  static final int SAMPLE_FACTOR = 10;

  static final int WORDS_PER_BLOCK = 8;
  static final int COUNTERS_PER_WORD = 16;

  /** The least size of the table, whatever the number of entries (the floor, see the note). */
  public static final long MIN_BYTES = 16 * 1024;

  static final int BLOCK_BYTES = WORDS_PER_BLOCK * Long.BYTES;

  private static final long HALF_MASK = 0x7777_7777_7777_7777L;

  // replaced by ensureCapacity while other threads increment: read once per call (I4)
  private volatile long[] table;
  private long incrementsPerAgeing;
  // each thread's increments until its next ageing step (I5): a field that every increment wrote
  // passed its cache line between the cores on every hit
  private final StripedCounts untilAgeing = new StripedCounts();
  private int ageingCursor;
  private final StripedCounts fetchSink = new StripedCounts(); // incrementAll's first pass
  private final int minBlocks;

  /**
   * Creates a sketch sized for about {@code expectedEntries} resident entries, of at least {@link
   * #MIN_BYTES}.
   *
   * @throws IllegalArgumentException if {@code expectedEntries} is negative
   */
  public FrequencySketch(long expectedEntries) {
    this(expectedEntries, MIN_BYTES);
  }

  /**
   * Creates a sketch sized for about {@code expectedEntries} resident entries, of at least {@code
   * minBytes} (rounded up to a power-of-two number of 64-byte blocks, at least one). For the
   * simulator's comparisons: with {@code minBytes} of 512 the table has 1 byte per entry from 512
   * entries up, as a cache of more than 16,384 entries has with the default floor.
   *
   * @throws IllegalArgumentException if {@code expectedEntries} or {@code minBytes} is negative
   */
  public FrequencySketch(long expectedEntries, long minBytes) {
    if (expectedEntries < 0 || minBytes < 0) {
      throw new IllegalArgumentException(
          "expected entries and the least size must not be negative: expectedEntries="
              + expectedEntries
              + " minBytes="
              + minBytes);
    }
    minBlocks = (int) Math.min(1 << 26, Math.max(1, (minBytes + BLOCK_BYTES - 1) / BLOCK_BYTES));
    table = new long[blocksFor(expectedEntries) * WORDS_PER_BLOCK];
    setPeriod(expectedEntries);
  }

  /**
   * Grows the table when {@code expectedEntries} needs more blocks than it has; never shrinks it.
   * Every estimate is the same after the growth (I2). Allocates the new table.
   */
  public void ensureCapacity(long expectedEntries) {
    int blocks = blocksFor(expectedEntries);
    long[] old = table;
    if (blocks > old.length / WORDS_PER_BLOCK) {
      long[] grown = new long[blocks * WORDS_PER_BLOCK];
      for (int at = 0; at < grown.length; at += old.length) {
        System.arraycopy(old, 0, grown, at, old.length);
      }
      table = grown;
      ageingCursor = 0;
    }
    setPeriod(expectedEntries);
  }

  /** Counts one more access to the key of {@code hash}; saturates at {@link #MAX_COUNT}. */
  public void increment(long hash) {
    long[] table = this.table;
    int blockHash = spread(hash);
    int counterHash = rehash(blockHash);
    int block = (blockHash & blockMask(table)) * WORDS_PER_BLOCK;
    int min = MAX_COUNT;
    for (int i = 0; i < 4; i++) {
      int h = counterHash >>> (i << 3);
      int word = block + (i << 1) + (h & 1);
      int shift = ((h >>> 1) & 15) << 2;
      min = Math.min(min, (int) (table[word] >>> shift) & 15);
    }
    if (min == MAX_COUNT) {
      return;
    }
    for (int i = 0; i < 4; i++) {
      int h = counterHash >>> (i << 3);
      int word = block + (i << 1) + (h & 1);
      int shift = ((h >>> 1) & 15) << 2;
      if (((int) (table[word] >>> shift) & 15) == min) {
        table[word] += 1L << shift;
      }
    }
    int stripe = StripedCounts.stripe();
    if (untilAgeing.add(stripe, -1) <= 0) {
      untilAgeing.set(stripe, incrementsPerAgeing);
      ageOneBlock(table);
    }
  }

  /**
   * As {@link #increment} for each of the {@code count} hashes of {@code hashes} from {@code from}:
   * first reads a word of each one's block, so that the processor fetches their lines together
   * rather than one after the other, then increments.
   */
  public void incrementAll(long[] hashes, int from, int count) {
    long[] table = this.table;
    int mask = blockMask(table);
    long fetched = 0;
    for (int i = from; i < from + count; i++) {
      fetched += table[(spread(hashes[i]) & mask) * WORDS_PER_BLOCK];
    }
    // kept where only this thread writes, so that the compiler cannot drop the reads above
    fetchSink.set(StripedCounts.stripe(), fetched);
    for (int i = from; i < from + count; i++) {
      increment(hashes[i]);
    }
  }

  /** Returns the estimated count of accesses to the key of {@code hash}, 0..{@link #MAX_COUNT}. */
  public int frequency(long hash) {
    long[] table = this.table;
    int blockHash = spread(hash);
    int counterHash = rehash(blockHash);
    int block = (blockHash & blockMask(table)) * WORDS_PER_BLOCK;
    int min = MAX_COUNT;
    for (int i = 0; i < 4; i++) {
      int h = counterHash >>> (i << 3);
      int word = block + (i << 1) + (h & 1);
      int shift = ((h >>> 1) & 15) << 2;
      min = Math.min(min, (int) (table[word] >>> shift) & 15);
    }
    return min;
  }

  /** The table's size in bytes. */
  public long sizeBytes() {
    return (long) table.length * Long.BYTES;
  }

  private static int blockMask(long[] table) {
    return table.length / WORDS_PER_BLOCK - 1;
  }

  /** The number of increments between two ageing steps (each halves one block). */
  long incrementsPerAgeing() {
    return incrementsPerAgeing;
  }

  /** The number of blocks (of 128 counters). */
  int blocks() {
    return table.length / WORDS_PER_BLOCK;
  }

  private void ageOneBlock(long[] table) {
    int mask = blockMask(table);
    int cursor = ageingCursor & mask;
    int word = cursor * WORDS_PER_BLOCK;
    for (int i = 0; i < WORDS_PER_BLOCK; i++) {
      table[word + i] = (table[word + i] >>> 1) & HALF_MASK;
    }
    ageingCursor = (cursor + 1) & mask;
  }

  private void setPeriod(long expectedEntries) {
    long period = Math.max(1, expectedEntries) * SAMPLE_FACTOR;
    long perAgeing = Math.max(1, period / blocks());
    if (perAgeing == incrementsPerAgeing) {
      return; // every drain asks: then no thread's count is written (I5), and none needs to be
    }
    incrementsPerAgeing = perAgeing;
    for (int stripe = 0; stripe < StripedCounts.STRIPES; stripe++) {
      untilAgeing.set(stripe, Math.min(Math.max(untilAgeing.get(stripe), 1), incrementsPerAgeing));
    }
  }

  private int blocksFor(long expectedEntries) {
    long bytes = Math.max(1, expectedEntries) * BYTES_PER_ENTRY;
    long blocks = Math.max(minBlocks, (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES);
    if (blocks > (1 << 26)) {
      throw new IllegalArgumentException(
          "sketch too large: expectedEntries=" + expectedEntries + " maxBlocks=" + (1 << 26));
    }
    return blocks == 1 ? 1 : Integer.highestOneBit((int) blocks - 1) << 1;
  }

  /** Mixes the index's hash bits, so that the sketch's choice is unrelated to the slot's. */
  private static int spread(long hash) {
    long h = hash * 0x9E37_79B9_7F4A_7C15L;
    h ^= h >>> 29;
    h *= 0xBF58_476D_1CE4_E5B9L;
    return (int) (h ^ (h >>> 32));
  }

  private static int rehash(int x) {
    x *= 0x31848bab;
    x ^= x >>> 14;
    return x;
  }
}
