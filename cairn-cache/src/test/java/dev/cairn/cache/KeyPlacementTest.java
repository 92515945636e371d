package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KeyPlacement}: neighbouring 8-byte keys share blocks and spread evenly (P1-P4), common
 * progressions probe less than random keys, keys crowded by choice or by pattern probe further only
 * within the bounds its note and CACHE.md state, other keys hash as before, and a table keeps its
 * placement. Probe lengths come from a model of a shard: linear probing over hash32's low bits,
 * grown by {@code HashIndex.neededCapacity}, as {@code HashIndex} does; a line is four slots.
 */
class KeyPlacementTest {
  private static final long SEED = 0x5DEECE66DL;

  @TempDir Path temp;

  @Test
  void hashedKeys_makesNewTablesHash_andEveryTableKeepsItsPlacementAcrossOpens()
      throws IOException {
    Path directory = temp.resolve("cache");
    try (Cache cache = Cache.open(directory, CacheOptions.builder().hashedKeys(true).build())) {
      LongCacheTable<String> hashed = cache.longTable("hashed", String.class);
      for (long k = 0; k < 100; k++) {
        hashed.put(k, "v" + k);
      }
    }
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      LongCacheTable<String> runs = cache.longTable("runs", String.class);
      for (long k = 0; k < 100; k++) {
        runs.put(k, "w" + k);
      }
      LongCacheTable<String> hashed = cache.longTable("hashed", String.class);
      assertThat(hashed.get(42)).isEqualTo("v42");
      hashed.put(100, "v100"); // placed as the table's other keys
    }
    try (Cache cache = Cache.open(directory, CacheOptions.builder().hashedKeys(true).build())) {
      assertThat(cache.longTable("runs", String.class).get(99)).isEqualTo("w99");
      assertThat(cache.longTable("hashed", String.class).get(100)).isEqualTo("v100");
    }
    CacheDirectory.Inspection inspection = CacheDirectory.verify(directory);
    assertThat(inspection.tables())
        .extracting(CacheDirectory.Table::name, CacheDirectory.Table::keyPlacement)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("hashed", "hashed"),
            org.assertj.core.groups.Tuple.tuple("runs", "runs"));
    assertThat(inspection.verifiedEntries()).isEqualTo(201);
  }

  @Test
  void theFourKeysOfAGroup_shareAShardAndABlock_inTheirOwnSlotsOfIt() {
    for (long group : new long[] {0, 1, 12_345, -7, Long.MAX_VALUE >>> 2}) {
      long first = KeyPlacement.ofLong(group << 2, SEED);
      for (int lo = 0; lo < 4; lo++) {
        long hash = KeyPlacement.ofLong((group << 2) | lo, SEED);
        assertThat(HashIndex.shardOf(hash)).isEqualTo(HashIndex.shardOf(first));
        assertThat(SlotLayout.hash32(hash) >>> 2).isEqualTo(SlotLayout.hash32(first) >>> 2);
        assertThat(SlotLayout.hash32(hash) & 3).isEqualTo(lo);
      }
    }
  }

  @Test
  void sequentialKeys_fillEveryShardEvenly() {
    int keys = 1 << 22; // a whole run of groups
    int[] perShard = new int[HashIndex.SHARDS];
    for (long k = 0; k < keys; k++) {
      perShard[HashIndex.shardOf(KeyPlacement.ofLong(k, SEED))]++;
    }
    int mean = keys / HashIndex.SHARDS;
    // golden-ratio steps: a few groups from the mean; a random hash would spread some 3% (±3σ)
    assertThat(java.util.Arrays.stream(perShard).min().orElseThrow()).isBetween(mean - 16, mean);
    assertThat(java.util.Arrays.stream(perShard).max().orElseThrow()).isBetween(mean, mean + 16);
  }

  @Test
  void sequentialKeys_probeLessThanRandomKeys_inAShard() {
    Shard sequential = new Shard();
    Shard random = new Shard();
    SplittableRandom rnd = new SplittableRandom(SEED);
    int shard = HashIndex.shardOf(KeyPlacement.ofLong(0, SEED));
    for (long k = 0; sequential.count < 40_000; k++) {
      long hash = KeyPlacement.ofLong(k, SEED);
      if (HashIndex.shardOf(hash) == shard) {
        sequential.insert(SlotLayout.hash32(hash));
      }
    }
    while (random.count < 40_000) {
      random.insert(SlotLayout.hash32(KeyPlacement.ofLong(rnd.nextLong(), SEED)));
    }
    System.out.printf(
        "40,000 keys in a shard: lines per insert %.3f sequential, %.3f random; slots %.3f and"
            + " %.3f; longest %d and %d slots%n",
        sequential.meanLines(),
        random.meanLines(),
        sequential.meanProbe(),
        random.meanProbe(),
        sequential.longest,
        random.longest);
    assertThat(sequential.meanLines()).isLessThan(random.meanLines());
    assertThat(sequential.longest).isLessThan(random.longest);
  }

  /**
   * Keys whose groups' golden-ratio steps fall in one narrow window, in one run and one shard: the
   * crowding an attacker can choose (P3, "What it gives up"). Windows of 2^-10 to 2^-18 of the
   * circle, each at several places, every key of each group. A whole run is walked: some seconds.
   */
  @Test
  void keysChosenToCrowdAShard_probeBoundedly_withinFourTimesWhatRandomKeysReach() {
    long phi = 0x9E3779B97F4A7C15L;
    int groups = 1 << KeyPlacement.RUN_BITS;
    int worst = 0;
    String worstCase = "";
    for (int width = 10; width <= 18; width++) {
      for (long place : new long[] {0, 0x3L << 60, 0x7123_4567_89AB_CDEFL, -1L << 62}) {
        Shard shard = new Shard();
        for (long i = 0; i < groups; i++) {
          if (((i * phi) - place) >>> (64 - width) == 0) {
            for (int lo = 0; lo < 4; lo++) {
              shard.insert(SlotLayout.hash32(KeyPlacement.ofLong((i << 2) | lo, SEED)));
            }
          }
        }
        if (shard.longest > worst) {
          worst = shard.longest;
          worstCase = shard.count + " keys in a window of 2^-" + width;
        }
      }
    }
    // random keys in one shard as large as a run's share of it, filled to three quarters, the
    // fill at which it doubles: their longest probe
    int slots = 1 << (KeyPlacement.RUN_BITS - 6);
    Shard random = new Shard();
    SplittableRandom rnd = new SplittableRandom(SEED);
    int randomLongest = 0;
    while (random.count < 3 * slots / 4 - 1) {
      random.insert(SlotLayout.hash32(KeyPlacement.ofLong(rnd.nextLong(), SEED)));
      randomLongest = Math.max(randomLongest, random.lastProbe);
    }
    System.out.printf(
        "longest probe of crafted keys %d slots (%s); of random keys in a shard of %,d slots: %d%n",
        worst, worstCase, slots, randomLongest);
    // about 2^((RUN_BITS - 5) / 2) slots by the count in KeyPlacement's note
    assertThat(worst).isLessThanOrEqualTo(1 << ((KeyPlacement.RUN_BITS - 5) / 2 + 1));
    assertThat(worst).isLessThanOrEqualTo(4 * randomLongest);
  }

  /**
   * Keys in arithmetic progressions, as ids, counters, timestamps and composite keys make them,
   * placed into all 256 shards as an index holds them: common strides probe less than random keys.
   */
  @Test
  void keysInCommonProgressions_probeLessThanRandomKeys() {
    Shards random = randomKeys();
    StringBuilder report = new StringBuilder();
    for (long stride :
        new long[] {
          1,
          2,
          3,
          7,
          10,
          16,
          32,
          60,
          64,
          100,
          128,
          256,
          512,
          1000,
          1024,
          3600,
          4096,
          86_400,
          1_000_000,
          86_400_000
        }) {
      Shards shards = progression(stride);
      report.append(String.format(" %d: %.2f/%d", stride, shards.meanLines(), shards.longest()));
      assertThat(shards.meanLines()).as("stride " + stride).isLessThan(random.meanLines());
      assertThat(shards.longest()).as("stride " + stride).isLessThan(random.longest());
    }
    System.out.printf(
        "lines per insert / longest probe: random %.2f/%d;%s%n",
        random.meanLines(), random.longest(), report);
  }

  /**
   * The weakness of golden-ratio steps (KeyPlacement, "What it gives up"): strides of four times a
   * Fibonacci number F (F x 2^64/phi is within 2^64/(F sqrt 5) of a multiple of 2^64) nearly repeat
   * their places within a run. Worse than random keys, as documented, and no worse than that.
   */
  @Test
  void keysInProgressionsOfFourFibonacciNumbers_probeFurther_withinTheDocumentedBound() {
    Shards random = randomKeys();
    double worstLines = 0;
    int worstProbe = 0;
    StringBuilder report = new StringBuilder();
    for (long stride : new long[] {4 * 233, 4 * 377, 4 * 610, 8 * 610, 12 * 610, 4 * 10_946}) {
      Shards shards = progression(stride);
      report.append(String.format(" %d: %.2f/%d", stride, shards.meanLines(), shards.longest()));
      worstLines = Math.max(worstLines, shards.meanLines());
      worstProbe = Math.max(worstProbe, shards.longest());
    }
    System.out.printf(
        "lines per insert / longest probe: random %.2f/%d;%s%n",
        random.meanLines(), random.longest(), report);
    assertThat(worstLines).isGreaterThan(random.meanLines()).isLessThan(10);
    assertThat(worstProbe).isGreaterThan(random.longest()).isLessThan(1024);
  }

  private static final int PROGRESSION_KEYS = 1 << 19;

  private static Shards randomKeys() {
    Shards random = new Shards();
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < PROGRESSION_KEYS; i++) {
      random.insert(KeyPlacement.ofLong(rnd.nextLong(), SEED));
    }
    return random;
  }

  private static Shards progression(long stride) {
    Shards shards = new Shards();
    for (long i = 0; i < PROGRESSION_KEYS; i++) {
      shards.insert(KeyPlacement.ofLong(-7_000_000_000L + i * stride, SEED));
    }
    return shards;
  }

  /** The 256 shards of an index, each as {@link Shard} models it. */
  private static final class Shards {
    final Shard[] shards = new Shard[HashIndex.SHARDS];

    Shards() {
      for (int i = 0; i < shards.length; i++) {
        shards[i] = new Shard();
      }
    }

    void insert(long hash) {
      shards[HashIndex.shardOf(hash)].insert(SlotLayout.hash32(hash));
    }

    double meanLines() {
      long lines = 0;
      long count = 0;
      for (Shard s : shards) {
        lines += s.lines;
        count += s.count;
      }
      return (double) lines / count;
    }

    int longest() {
      int longest = 0;
      for (Shard s : shards) {
        longest = Math.max(longest, s.longest);
      }
      return longest;
    }
  }

  @Test
  void keysOfOtherLengths_andHashedTables_hashAsBefore() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment key = arena.allocate(16);
      key.set(KeyHash.BE_LONG, 0, 42L);
      assertThat(KeyPlacement.RUNS.hash(key, 8, SEED)).isEqualTo(KeyPlacement.ofLong(42L, SEED));
      assertThat(KeyPlacement.RUNS.hashLong(42L, SEED, key))
          .isEqualTo(KeyPlacement.ofLong(42L, SEED));
      assertThat(KeyPlacement.HASHED.hash(key, 8, SEED)).isEqualTo(KeyHash.hash(key, 8, SEED));
      assertThat(KeyPlacement.HASHED.hashLong(42L, SEED, key))
          .isEqualTo(KeyHash.hash(key, 8, SEED));
      for (int length : new int[] {0, 1, 7, 9, 16}) {
        assertThat(KeyPlacement.RUNS.hash(key, length, SEED))
            .isEqualTo(KeyHash.hash(key, length, SEED));
      }
    }
  }

  @Test
  void anotherSeed_placesTheSameKeysElsewhere() {
    int same = 0;
    for (long k = 0; k < 4096; k += 4) {
      long a = KeyPlacement.ofLong(k, SEED);
      long b = KeyPlacement.ofLong(k, SEED + 1);
      if (HashIndex.shardOf(a) == HashIndex.shardOf(b)) {
        same++;
      }
    }
    assertThat(same).as("groups in the same shard under both seeds, of 1,024").isLessThan(32);
  }

  /** One shard as HashIndex keeps it: hash32s in linear-probing slots, grown at 3/4. */
  private static final class Shard {
    int[] slots = new int[0];
    boolean[] used = new boolean[0];
    int count;
    long probes;
    long lines;
    int longest;
    int lastProbe;

    void insert(int hash32) {
      int needed = HashIndex.neededCapacity(used.length, count, 0);
      if (needed != 0) {
        int[] old = slots;
        boolean[] oldUsed = used;
        slots = new int[needed];
        used = new boolean[needed];
        for (int i = 0; i < old.length; i++) {
          if (oldUsed[i]) {
            place(old[i]);
          }
        }
      }
      lastProbe = place(hash32);
      int first = hash32 & (slots.length - 1);
      lines += ((first + lastProbe - 1) >> 2) - (first >> 2) + 1; // 4 slots a 64-byte line
      count++;
      probes += lastProbe;
      longest = Math.max(longest, lastProbe);
    }

    private int place(int hash32) {
      int mask = slots.length - 1;
      int probe = 1;
      for (int i = hash32 & mask; used[i]; i = (i + 1) & mask) {
        probe++;
      }
      int i = (hash32 + probe - 1) & mask;
      slots[i] = hash32;
      used[i] = true;
      return probe;
    }

    double meanProbe() {
      return (double) probes / count;
    }

    double meanLines() {
      return (double) lines / count;
    }
  }
}
