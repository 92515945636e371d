package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.PileClosedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every operation of {@link CacheTable} and {@link LongCacheTable} against the three ordinary
 * mistakes a caller makes: a null argument, a closed cache and a dropped table. Each is refused
 * with the exception its javadoc names, before anything is written, and the table (or, closed, a
 * new cache) stays usable.
 */
class TableContractTest {

  /** One call of one operation, on a table of String keys and String values. */
  private record Op(String name, Consumer<CacheTable<String, String>> call) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** One call of one operation, on a long table of String values. */
  private record LongOp(String name, Consumer<LongCacheTable<String>> call) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static List<Op> operations() {
    return List.of(
        new Op("get", t -> t.get("k")),
        new Op("get(maxAge)", t -> t.get("k", Duration.ofSeconds(1))),
        new Op("getInto", t -> t.getInto("k", new byte[8])),
        new Op("getAll", t -> t.getAll(List.of("k"))),
        new Op("put", t -> t.put("k", "v")),
        new Op("put(options)", t -> t.put("k", "v", EntryOptions.pin())),
        new Op("putAll", t -> t.putAll(Map.of("k", "v"))),
        new Op("putIfAbsent", t -> t.putIfAbsent("k", "v")),
        new Op("replace", t -> t.replace("k", "v")),
        new Op("replace(expected)", t -> t.replace("k", "v0", "v")),
        new Op("remove", t -> t.remove("k")),
        new Op("remove(expected)", t -> t.remove("k", "v0")),
        new Op("computeIfAbsent", t -> t.computeIfAbsent("k", k -> "v")),
        new Op("compute", t -> t.compute("k", (k, v) -> "v")),
        new Op("computeIfPresent", t -> t.computeIfPresent("k0", (k, v) -> "v")),
        new Op("merge", t -> t.merge("k", "v", (a, b) -> a + b)),
        new Op("containsKey", t -> t.containsKey("k")),
        new Op("touch", t -> t.touch("k")),
        new Op("size", CacheTable::size),
        new Op("clear", CacheTable::clear),
        new Op("iterator", t -> t.iterator().forEachRemaining(e -> {})),
        new Op("stats", CacheTable::stats));
  }

  private static List<LongOp> longOperations() {
    return List.of(
        new LongOp("get", t -> t.get(1)),
        new LongOp("get(maxAge)", t -> t.get(1, Duration.ofSeconds(1))),
        new LongOp("getInto", t -> t.getInto(1, new byte[8])),
        new LongOp("put", t -> t.put(1, "v")),
        new LongOp("put(options)", t -> t.put(1, "v", EntryOptions.pin())),
        new LongOp("putIfAbsent", t -> t.putIfAbsent(1, "v")),
        new LongOp("replace", t -> t.replace(1, "v")),
        new LongOp("remove", t -> t.remove(1)),
        new LongOp("computeIfAbsent", t -> t.computeIfAbsent(1, k -> "v")),
        new LongOp("containsKey", t -> t.containsKey(1)),
        new LongOp("touch", t -> t.touch(1)),
        new LongOp("size", LongCacheTable::size),
        new LongOp("clear", LongCacheTable::clear),
        new LongOp("stats", LongCacheTable::stats));
  }

  private static final TableOptions WRITE_TIMES = TableOptions.builder().writeTimes(true).build();

  private static Cache newCache() {
    return Cache.offHeap(CacheOptions.defaults());
  }

  private static CacheTable<String, String> table(Cache cache, String name) {
    return cache.table(name, String.class, String.class, WRITE_TIMES);
  }

  private static LongCacheTable<String> longTable(Cache cache, String name) {
    return cache.longTable(name, String.class, WRITE_TIMES);
  }

  /**
   * A null key, value, expected value, function, collection or options: NullPointerException naming
   * what was null, and nothing written.
   */
  @Test
  void everyNullArgument_isRefusedWithNullPointerException_andNothingIsWritten() {
    try (Cache cache = newCache()) {
      CacheTable<String, String> t = table(cache, "t");
      LongCacheTable<String> longs = longTable(cache, "l");
      Map<String, String> nullValue = new HashMap<>();
      nullValue.put("k", null);
      List<String> nullKeyList = Arrays.asList("k", null);
      List<Op> nulls =
          List.of(
              new Op("get", x -> x.get(null)),
              new Op("get(maxAge) key", x -> x.get(null, Duration.ofSeconds(1))),
              new Op("get(maxAge) age", x -> x.get("k", null)),
              new Op("getInto key", x -> x.getInto(null, new byte[8])),
              new Op("getInto array", x -> x.getInto("k", null)),
              new Op("getAll", x -> x.getAll(null)),
              new Op("getAll key", x -> x.getAll(nullKeyList)),
              new Op("put key", x -> x.put(null, "v")),
              new Op("put value", x -> x.put("k", null)),
              new Op("put(options) options", x -> x.put("k", "v", null)),
              new Op("putAll", x -> x.putAll(null)),
              new Op("putAll value", x -> x.putAll(nullValue)),
              new Op("putIfAbsent key", x -> x.putIfAbsent(null, "v")),
              new Op("putIfAbsent value", x -> x.putIfAbsent("k", null)),
              new Op("replace key", x -> x.replace(null, "v")),
              new Op("replace value", x -> x.replace("k", null)),
              new Op("replace(expected) expected", x -> x.replace("k", null, "v")),
              new Op("replace(expected) value", x -> x.replace("k", "v0", null)),
              new Op("remove key", x -> x.remove(null)),
              new Op("remove(expected) key", x -> x.remove(null, "v0")),
              new Op("remove(expected) expected", x -> x.remove("k", null)),
              new Op("computeIfAbsent key", x -> x.computeIfAbsent(null, k -> "v")),
              new Op("computeIfAbsent loader", x -> x.computeIfAbsent("k", null)),
              new Op("compute key", x -> x.compute(null, (k, v) -> "v")),
              new Op("merge value", x -> x.merge("k", null, (a, b) -> a)),
              new Op("containsKey", x -> x.containsKey(null)),
              new Op("touch", x -> x.touch(null)));
      List<String> failures = new ArrayList<>();
      for (Op op : nulls) {
        try {
          op.call().accept(t);
          failures.add(op + ": returned");
        } catch (NullPointerException expected) {
          if (expected.getMessage() == null) {
            failures.add(op + ": NullPointerException with no message");
          }
        } catch (RuntimeException e) {
          failures.add(op + ": " + e);
        }
      }
      List<LongOp> longNulls =
          List.of(
              new LongOp("put value", x -> x.put(1, null)),
              new LongOp("put(options) options", x -> x.put(1, "v", null)),
              new LongOp("putIfAbsent value", x -> x.putIfAbsent(1, null)),
              new LongOp("replace value", x -> x.replace(1, null)),
              new LongOp("get(maxAge) age", x -> x.get(1, null)),
              new LongOp("getInto array", x -> x.getInto(1, null)),
              new LongOp("computeIfAbsent loader", x -> x.computeIfAbsent(1, null)));
      for (LongOp op : longNulls) {
        try {
          op.call().accept(longs);
          failures.add("long " + op + ": returned");
        } catch (NullPointerException expected) {
          if (expected.getMessage() == null) {
            failures.add("long " + op + ": NullPointerException with no message");
          }
        } catch (RuntimeException e) {
          failures.add("long " + op + ": " + e);
        }
      }
      assertThat(failures).isEmpty();
      assertThat(t.size()).isZero();
      assertThat(longs.size()).isZero();
      assertThat(cache.verify()).isZero();
      t.put("k", "v");
      longs.put(1, "v");
      assertThat(t.get("k")).isEqualTo("v");
      assertThat(longs.get(1)).isEqualTo("v");
    }
  }

  @Test
  void everyOperation_onAClosedCache_throwsPileClosedException() {
    Cache cache = newCache();
    CacheTable<String, String> t = table(cache, "t");
    LongCacheTable<String> longs = longTable(cache, "l");
    t.put("k0", "v0");
    longs.put(1, "v0");
    cache.close();
    List<String> failures = new ArrayList<>();
    for (Op op : operations()) {
      if (!op.name().equals("stats")) {
        expect(failures, op.toString(), PileClosedException.class, () -> op.call().accept(t));
      }
    }
    for (LongOp op : longOperations()) {
      if (!op.name().equals("stats")) {
        expect(failures, "long " + op, PileClosedException.class, () -> op.call().accept(longs));
      }
    }
    assertThat(failures).isEmpty();
    // the figures as they were at the close (a report written on shutdown)
    assertThat(t.stats().puts()).isEqualTo(1);
    assertThat(t.stats().entries()).isEqualTo(1);
    assertThat(longs.stats().entries()).isEqualTo(1);
    try (Cache again = newCache()) {
      again.table("t", String.class, String.class).put("k", "v");
      assertThat(again.table("t", String.class, String.class).get("k")).isEqualTo("v");
    }
  }

  @Test
  void everyOperation_onADroppedTable_throwsTableDroppedException_andTheCacheGoesOn() {
    try (Cache cache = newCache()) {
      CacheTable<String, String> t = table(cache, "t");
      LongCacheTable<String> longs = longTable(cache, "l");
      CacheTable<String, String> kept = table(cache, "kept");
      t.put("k0", "v0");
      longs.put(1, "v0");
      kept.put("a", "b");
      cache.dropTable("t");
      cache.dropTable("l");
      List<String> failures = new ArrayList<>();
      for (Op op : operations()) {
        if (!op.name().equals("stats")) {
          expect(failures, op.toString(), TableDroppedException.class, () -> op.call().accept(t));
        }
      }
      for (LongOp op : longOperations()) {
        if (!op.name().equals("stats")) {
          expect(
              failures, "long " + op, TableDroppedException.class, () -> op.call().accept(longs));
        }
      }
      assertThat(failures).isEmpty();
      // a dropped table's figures stay readable, as a closed cache's do: its counters as they
      // were, and no entry
      TableStats stats = t.stats();
      assertThat(stats.name()).isEqualTo("t");
      assertThat(stats.puts()).isEqualTo(1);
      assertThat(stats.entries()).isZero();
      assertThat(longs.stats().puts()).isEqualTo(1);
      assertThat(kept.get("a")).isEqualTo("b");
      assertThat(cache.verify()).isEqualTo(1);
    }
  }

  /** The cache's own methods after its close: refused, but for its names, figures and pile. */
  @Test
  void theCachesMethods_onAClosedCache() {
    Cache cache = newCache();
    CacheTable<byte[], String> bytes = cache.table("b", byte[].class, String.class);
    table(cache, "t").put("k", "v");
    cache.close();
    cache.close(); // idempotent
    List<String> failures = new ArrayList<>();
    expect(failures, "table", PileClosedException.class, () -> table(cache, "new"));
    expect(failures, "longTable", PileClosedException.class, () -> longTable(cache, "new"));
    expect(failures, "longKeys", PileClosedException.class, () -> cache.longKeys(bytes));
    expect(failures, "dropTable", PileClosedException.class, () -> cache.dropTable("t"));
    expect(failures, "verify", PileClosedException.class, cache::verify);
    assertThat(failures).isEmpty();
    assertThat(cache.tableNames()).containsExactly("b", "t");
    assertThat(cache.stats().tables()).hasSize(2);
  }

  /** What the javadoc says of the reads that are not gets: counted as neither hit nor miss. */
  @Test
  void containsKey_isNeitherAHitNorAMiss_andAFailedLoaderStoresNothing() {
    try (Cache cache = newCache()) {
      CacheTable<String, String> t = table(cache, "t");
      t.put("k", "v");
      assertThat(t.containsKey("k")).isTrue();
      assertThat(t.containsKey("absent")).isFalse();
      assertThat(t.stats().hits()).isZero();
      assertThat(t.stats().misses()).isZero();

      IllegalStateException thrown = new IllegalStateException("the database is down");
      assertThatThrownBy(
              () ->
                  t.computeIfAbsent(
                      "absent",
                      k -> {
                        throw thrown;
                      }))
          .isSameAs(thrown);
      assertThat(t.containsKey("absent")).isFalse();
      assertThat(t.stats().misses()).isEqualTo(1);
      assertThat(t.stats().loads()).isZero();
      assertThat(t.computeIfAbsent("absent", k -> "loaded")).isEqualTo("loaded");
      assertThat(t.stats().loads()).isEqualTo(1);
      assertThat(t.get("absent")).isEqualTo("loaded");
    }
  }

  /** What RemovalListener's javadoc says it is told of: clear's entries, not a remove's. */
  @Test
  void theRemovalListener_hearsOfClear_notOfARemoveOrAReplacingPut() {
    try (Cache cache = newCache()) {
      List<String> heard = new ArrayList<>();
      cache.removalListener(
          (String table, Object key, RemovalCause cause) ->
              heard.add(table + " " + key + " " + cause));
      CacheTable<String, String> t = table(cache, "t");
      t.put("a", "1");
      t.put("a", "2"); // replaces
      t.put("b", "1");
      t.remove("b");
      assertThat(heard).isEmpty();
      t.put("c", "1");
      t.clear();
      assertThat(heard).containsExactlyInAnyOrder("t a EXPLICIT", "t c EXPLICIT");
    }
  }

  private static void expect(
      List<String> failures, String name, Class<? extends Throwable> type, Runnable call) {
    try {
      call.run();
      failures.add(name + ": returned");
    } catch (RuntimeException e) {
      if (!type.isInstance(e)) {
        failures.add(name + ": " + e);
      }
    }
  }
}
