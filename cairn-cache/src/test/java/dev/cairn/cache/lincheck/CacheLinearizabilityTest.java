package dev.cairn.cache.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.pile.PileOptions;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The per-key operations of a table are linearizable: five threads (more than the cores) run random
 * puts, gets, containsKey, removes, putIfAbsent, replace, compare-and-set replace and remove, and
 * computeIfAbsent on a few keys at once, in many short rounds; every key's history of each round
 * (some 20-40 operations, with their invocation and return times) must be explainable by one order
 * of its operations that respects real time, in which each returns what a register of one value (or
 * none) says ({@link LinearizabilityChecker}, {@link RegisterModel}).
 *
 * <p>Each test prints its seed ({@code -Dcairn.seed=N} reruns the same operations; the interleaving
 * is the machine's). A failure prints the key, the round and the history.
 */
class CacheLinearizabilityTest {
  private static final int THREADS = 5;
  private static final int KEYS_PER_ROUND = 3;
  private static final int OPS_PER_THREAD_PER_ROUND = 16;

  private static long seed(String test) {
    long seed = Long.getLong("cairn.seed", new Random().nextLong());
    System.out.println("CacheLinearizabilityTest." + test + " seed=" + seed);
    return seed;
  }

  private static ConcurrentRounds.Plan plan(String name, int rounds, boolean evicting) {
    return new ConcurrentRounds.Plan(
        name, seed(name), THREADS, rounds, KEYS_PER_ROUND, OPS_PER_THREAD_PER_ROUND, evicting);
  }

  private static void print(String name, ConcurrentRounds.Report r) {
    System.out.println(
        "CacheLinearizabilityTest."
            + name
            + ": "
            + r.histories()
            + " histories, "
            + r.operations()
            + " operations ("
            + r.overlapping()
            + " overlapping another of their key), longest history "
            + r.longestHistory()
            + ", "
            + r.statesTried()
            + " search states"
            + (r.historiesThatNeededAnEviction() > 0
                ? ", " + r.historiesThatNeededAnEviction() + " explained only by an eviction"
                : ""));
  }

  /** A {@link LongCacheTable} without budget or expiry: a register per key, nothing else. */
  @Test
  void perKeyOperations_areLinearizable() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<Long> t = cache.longTable("t", Long.class);
      ConcurrentRounds.Plan plan = plan("perKeyOperations_areLinearizable", 2_000, false);
      ConcurrentRounds.Report r =
          new ConcurrentRounds(plan, KeyedTarget.of(t), 0, round -> {}).run();
      print(plan.name(), r);
      assertThat(r.histories()).isEqualTo(plan.rounds() * KEYS_PER_ROUND);
      assertThat(r.overlapping()).as("operations that overlap another").isPositive();
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  /**
   * A table of String values whose entries change form as they are written: bare (no header) for a
   * put of an even value, with a header for an odd one (pinned), so that readers meet a slot whose
   * entry just changed form (its form is told by the pile's mark on the block, not by the slot).
   */
  @Test
  void perKeyOperations_areLinearizable_asEntriesChangeForm() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class);
      ConcurrentRounds.Plan plan =
          plan("perKeyOperations_areLinearizable_asEntriesChangeForm", 1_000, false);
      ConcurrentRounds.Report r =
          new ConcurrentRounds(plan, KeyedTarget.ofChangingForms(t), 0, round -> {}).run();
      print(plan.name(), r);
      assertThat(r.histories()).isEqualTo(plan.rounds() * KEYS_PER_ROUND);
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  /**
   * A table of String keys whose index grows all along: a helper thread inserts 1,500 other keys in
   * each round, beside the recorded operations, so that shards are rebuilt (into regions twice the
   * size) while the recorded keys are read and written.
   */
  @Test
  void perKeyOperations_areLinearizable_whileTheIndexGrows() throws Exception {
    int rounds = 200;
    int growthPerRound = 1_500;
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, Long> t = cache.table("t", String.class, Long.class);
      ConcurrentRounds.Plan plan =
          plan("perKeyOperations_areLinearizable_whileTheIndexGrows", rounds, false);
      ConcurrentRounds.Report r =
          new ConcurrentRounds(
                  plan,
                  KeyedTarget.ofStrings(t),
                  1,
                  round -> {
                    for (long i = 0; i < growthPerRound; i++) {
                      long n = (long) round * growthPerRound + i;
                      t.put("grown" + n, n);
                    }
                  })
              .run();
      print(plan.name(), r);
      long grown = (long) rounds * growthPerRound;
      System.out.println(
          "CacheLinearizabilityTest: index grew to "
              + t.stats().indexBytes()
              + " bytes for "
              + t.size()
              + " entries");
      assertThat(t.stats().indexBytes())
          .as("the shards grew from 16 slots to at least 1024 each (16 bytes a slot)")
          .isGreaterThanOrEqualTo(256L * 1024 * 16);
      for (long n = 0; n < grown; n += 97) {
        assertThat(t.get("grown" + n)).as("grown key " + n).isEqualTo(n);
      }
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  /**
   * Under a budget of 512 KiB that two helper threads overfill in each round (2 KiB values in
   * another table of the same cache), so that the cache evicts all along: evictions are spontaneous
   * removes that may happen at any moment ({@link RegisterModel}), so a read may miss after a
   * write, but one that returns a value returns the latest one linearized before it.
   */
  @Test
  void perKeyOperations_areLinearizable_underEviction() throws Exception {
    CacheOptions options =
        CacheOptions.builder()
            .budgetBytes(512 << 10)
            .pile(PileOptions.builder().segmentBytes(1 << 20).build())
            .build();
    try (Cache cache = Cache.offHeap(options)) {
      LongCacheTable<Long> t = cache.longTable("t", Long.class);
      CacheTable<Long, byte[]> filler = cache.table("filler", Long.class, byte[].class);
      ConcurrentRounds.Plan plan =
          plan("perKeyOperations_areLinearizable_underEviction", 500, true);
      ConcurrentRounds.Report r =
          new ConcurrentRounds(
                  plan,
                  KeyedTarget.of(t),
                  2,
                  round -> {
                    Random random = new Random(plan.seed() + round);
                    for (int i = 0; i < 100; i++) {
                      filler.put(random.nextLong(50_000), new byte[2_048]);
                    }
                  })
              .run();
      print(plan.name(), r);
      long evictions = t.stats().evictions() + filler.stats().evictions();
      System.out.println(
          "CacheLinearizabilityTest: "
              + evictions
              + " evictions, "
              + t.stats().evictions()
              + " of them in the recorded table");
      assertThat(filler.stats().evictions()).as("the budget evicted").isPositive();
      assertThat(cache.verify()).isEqualTo(t.size() + filler.size());
    }
  }
}
