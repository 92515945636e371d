package dev.cairn.cache;

import static dev.cairn.durability.file.FileDamage.damage;
import static dev.cairn.durability.file.FileDamage.deleteTree;
import static dev.cairn.durability.file.FileDamage.filesOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.CairnException;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileTestSupport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flips, zeroes and truncates bytes in every kind of file of a persistent cache (the pile's files,
 * the segments that hold the index's regions, the tables' entries and the cache's state), then
 * opens it and uses it as an application would. The open gives a clear exception (a {@link
 * CairnException} or an {@link IOException}) or a cache in which every read of a key written
 * returns exactly its value or raises a CairnException: never another key's value, a removed key's,
 * a key silently gone, another exception, or a JVM crash. What the damage hit, the cache reports
 * when it first reads it (the index's regions are read lazily, LazyIndexViewTest).
 */
class CacheCorruptionFuzzTest {

  private static final int TRIALS = Integer.getInteger("cairn.fuzz.trials", 120);
  private static final int KEYS = 3_000;

  @TempDir Path root;

  @Test
  void damagedFilesGiveAClearErrorOrACorrectCache() throws IOException {
    long seed = Long.getLong("cairn.seed", new Random().nextLong());
    System.out.println("CacheCorruptionFuzzTest seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    Path template = root.resolve("template");
    Map<String, String> strings = new HashMap<>();
    Map<Long, String> longs = new HashMap<>();
    Set<String> removed = new HashSet<>();
    try (Cache cache = Cache.open(template, options())) {
      CacheTable<String, String> s = cache.table("s", String.class, String.class);
      LongCacheTable<String> l = cache.longTable("l", String.class);
      for (int op = 0; op < 3 * KEYS; op++) { // enough for every shard's index to grow
        String key = "key" + random.nextInt(KEYS);
        if (random.nextInt(5) == 0) {
          s.remove(key);
          if (strings.remove(key) != null) {
            removed.add(key);
          }
        } else {
          String value = key + "=" + random.nextInt() + "-".repeat(random.nextInt(40));
          s.put(key, value);
          strings.put(key, value);
          removed.remove(key);
        }
        long id = random.nextLong(KEYS);
        String value = "id " + id + " " + random.nextInt();
        l.put(id, value);
        longs.put(id, value);
      }
    }
    List<Path> files = filesOf(template);

    int opened = 0;
    int refused = 0;
    int reported = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
      Path dir = root.resolve("trial-" + trial);
      PileTestSupport.copyTree(template, dir);
      Path victim = dir.resolve(template.relativize(files.get(random.nextInt(files.size()))));
      String where = "seed " + seed + " trial " + trial + ": " + damage(victim, random);
      Cache cache;
      try {
        cache = Cache.open(dir, options());
      } catch (CairnException | IOException refusedClearly) {
        assertThat(refusedClearly.getMessage()).as(where).isNotBlank();
        refused++;
        deleteTree(dir);
        continue;
      } catch (RuntimeException other) {
        throw new AssertionError(where + ": the open failed with an unclear exception", other);
      }
      opened++;
      reported += use(cache, strings, removed, longs, where); // a failure leaves it open
      reported += close(cache, where);
      deleteTree(dir);
    }
    System.out.printf(
        "CacheCorruptionFuzzTest: %d trials, %d refused at open, %d opened (%d damaged reads"
            + " reported)%n",
        TRIALS, refused, opened, reported);
    assertThat(refused + opened).isEqualTo(TRIALS);
  }

  /**
   * Reads every key of the model, iterates, verifies and writes, as an application would after the
   * open; returns how many of those reported damage.
   */
  private static int use(
      Cache cache,
      Map<String, String> strings,
      Set<String> removed,
      Map<Long, String> longs,
      String where) {
    int reported = 0;
    CacheTable<String, String> s;
    LongCacheTable<String> l;
    try {
      s = cache.table("s", String.class, String.class);
      l = cache.longTable("l", String.class);
    } catch (CairnException damagedTable) {
      return 1;
    } catch (RuntimeException other) {
      throw new AssertionError(where + ": a table's open failed with an unclear exception", other);
    }
    for (Map.Entry<String, String> e : strings.entrySet()) {
      reported += read(() -> s.get(e.getKey()), e.getValue(), where + " key " + e.getKey());
    }
    for (String key : removed) {
      reported += read(() -> s.get(key), null, where + " removed key " + key);
    }
    for (Map.Entry<Long, String> e : longs.entrySet()) {
      reported += read(() -> l.get(e.getKey()), e.getValue(), where + " id " + e.getKey());
    }
    try {
      s.forEach(
          e ->
              assertThat(e.getValue())
                  .as(where + " iterated key " + e.getKey())
                  .isEqualTo(strings.get(e.getKey())));
      cache.verify();
    } catch (CairnException damaged) {
      reported++;
    } catch (RuntimeException other) {
      throw new AssertionError(where + ": iteration or verify failed unclearly", other);
    }
    try {
      s.put("after the damage", "a write");
      assertThat(s.get("after the damage")).as(where).isEqualTo("a write");
    } catch (CairnException damaged) {
      reported++;
    } catch (RuntimeException other) {
      throw new AssertionError(where + ": a write after the open failed unclearly", other);
    }
    return reported;
  }

  /** 1 if the close reported damage (a checkpoint that read a damaged page), else 0. */
  private static int close(Cache cache, String where) {
    try {
      cache.close();
      return 0;
    } catch (CairnException reportedAtClose) {
      return 1;
    } catch (RuntimeException other) {
      throw new AssertionError(where + ": the close failed with an unclear exception", other);
    }
  }

  /** 1 if the read reported damage, else 0 after checking that it returned {@code expected}. */
  private static int read(java.util.function.Supplier<String> get, String expected, String as) {
    String got;
    try {
      got = get.get();
    } catch (CairnException damaged) {
      return 1;
    } catch (RuntimeException other) {
      throw new AssertionError(as + ": the read failed with an unclear exception", other);
    }
    assertThat(got).as(as).isEqualTo(expected);
    return 0;
  }

  private static CacheOptions options() {
    return CacheOptions.builder()
        .pile(
            PileOptions.builder()
                .segmentBytes(1 << 20)
                .durability(Durability.PERIODIC)
                .logFileBytes(1 << 20)
                .logFileCount(2)
                .build())
        .build();
  }
}
