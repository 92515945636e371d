package dev.cairn.cache;

import java.lang.foreign.MemorySegment;

/**
 * How a table places its keys in its index: the function from a key's bytes to the 64-bit hash
 * whose top 8 bits pick the shard and whose bits 24..55 pick the slot ({@code SlotLayout}). Chosen
 * when the table is created and kept in its descriptor: the index's positions depend on it.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * HASHED: a seeded hash of the key's bytes (KeyHash#hash). Keys land in slots at random, so no
 * choice of keys makes them collide (the seed is random per table and never shown).
 *
 * RUNS: the same for keys that are not 8 bytes long. An 8-byte key k (read big-endian: a long
 * key's own value) is placed by its neighbourhood, so that neighbouring keys, as a load of
 * sequential ids writes them, share cache lines and do not collide:
 * P1  The 4 keys of a group (k >>> 2) share one block of four slots, one 64-byte line: the
 *     slot's low 2 bits are k's (hash32's bits 0-1; a block's four slots are aligned).
 * P2  Groups are taken in runs of 2^RUN_BITS (group >>> RUN_BITS). A run starts at a point
 *     p0 = mix(seed ^ run), a random 64-bit number under the table's seed, and its group i sits at
 *     p0 + i * 2^64/phi (golden-ratio steps, a Kronecker sequence): any stretch of a run's groups
 *     is spread evenly over the 2^64 points, the gaps between neighbours taking at most three
 *     sizes, so a load of sequential keys fills every shard evenly and probes almost never.
 * P3  The point's top 8 bits pick the shard; bits 26..55, reversed, are hash32's bits 2..31, so
 *     that the slot's block at any capacity is read from the point's high bits (bit 55 first):
 *     points far apart on the circle of a shard's fractions never share a block, at any size,
 *     and doubling a shard splits every block as it does for the seeded hash.
 * P4  Runs of one table start at unrelated points (the seed's mix), so keys of different runs,
 *     and random keys (each in a run of its own, nearly always), are placed at random as
 *     HASHED places them.
 *
 * What it gives up: within a run the relative places of groups are fixed (i * 2^64/phi), so
 * keys can crowd some blocks, by choice or by pattern (KeyPlacementTest measures both):
 * - Chosen: the groups of any narrow window of steps land one block in every so many across the
 *   shard (P3), so no choice of keys puts more groups in a block than a whole run would; the
 *   worst windows the test knows give a longest probe of 381 slots (about 2^((RUN_BITS - 5) / 2)),
 *   where random keys reach 113 in a shard of 2^(RUN_BITS - 6) slots at three quarters full.
 * - Patterned: F * 2^64/phi is within 2^64/(F sqrt 5) of a multiple of 2^64 for a Fibonacci
 *   number F (the golden ratio is a Pisot number), so keys whose stride is 4F (F from 233 to
 *   610, and small multiples: 932, 1508, 2440, 4880, 7320) nearly repeat their places within a
 *   run, up to five groups to a block: 8.8 lines of slots per insert at worst against 1.56 for
 *   random keys, and a longest probe of 867 slots against 222. Common strides (1 to 86,400,000
 *   in the test) read fewer lines than random keys. Other steps tried trade this for worse common
 *   strides (sequential keys at 1.4-1.5 lines, as random ones) or bad strides elsewhere (64, 576).
 * Both are crowding bounded by the fill: a shard still doubles at three quarters, and every key
 * is found by its own stored bytes. Why runs of 2^22 groups: shorter runs bound the chosen case
 * better (189 slots at 2^20) but a load of sequential keys then crosses more runs, whose groups
 * overlap at random and collide; at 2^22 a load of 10M sequential keys stays in one run.
 * A collision of the seeded hash cannot be crafted at all; tables whose 8-byte keys an adversary
 * picks are created HASHED (CacheOptions.hashedKeys).
 * }</pre>
 */
enum KeyPlacement {
  HASHED,
  RUNS;

  /** log2 of the groups in a run (P2): 2^22 groups, 16M keys. */
  static final int RUN_BITS = 22;

  private static final long PHI = 0x9E3779B97F4A7C15L; // 2^64 / golden ratio, odd
  private static final long RUN_MASK = (1L << RUN_BITS) - 1;

  /** The hash of the key of {@code length} bytes in {@code bytes}, under {@code seed}. */
  long hash(MemorySegment bytes, int length, long seed) {
    if (this == RUNS && length == Long.BYTES) {
      return ofLong(bytes.get(KeyHash.BE_LONG, 0), seed);
    }
    return KeyHash.hash(bytes, length, seed);
  }

  /** The hash of the 8-byte key {@code key} (its big-endian bytes), under {@code seed}. */
  long hashLong(long key, long seed, MemorySegment bytes) {
    return this == RUNS ? ofLong(key, seed) : KeyHash.hash(bytes, Long.BYTES, seed);
  }

  /** P1-P4. */
  static long ofLong(long key, long seed) {
    long group = key >>> 2;
    long point = KeyHash.mix(seed ^ (group >>> RUN_BITS)) + (group & RUN_MASK) * PHI;
    int high = (int) (point >>> 26) & ((1 << 30) - 1); // bits 26..55
    int hash32 = (Integer.reverse(high) & ~3) | ((int) key & 3);
    return (point & 0xFF00_0000_0000_0000L)
        | ((hash32 & 0xFFFF_FFFFL) << 24)
        | (point & 0xFF_FFFFL);
  }

  /** The byte that stores this placement in a table's descriptor. */
  int code() {
    return ordinal();
  }

  /**
   * The placement stored as {@code code}.
   *
   * @throws CacheCorruptionException if no placement has that code
   */
  static KeyPlacement ofCode(int code, String table) {
    KeyPlacement[] all = values();
    if (code < 0 || code >= all.length) {
      throw new CacheCorruptionException(
          "table \"" + table + "\" has key placement " + code + ", which this build does not know");
    }
    return all[code];
  }
}
