package dev.cairn.bench.jmh;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.cache.PutResult;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a {@code String} key costs a cache table, on the CPU alone: gets and puts of {@link
 * BenchValues#HOT_VALUES} keys such as {@code "order:00001234"} (14 bytes of ASCII) with 32-byte
 * values, all in the processor's caches, one thread, through a {@code CacheTable<String, byte[]>}
 * (and a {@code CacheTable<String, String>} of 31-char values: {@code text_get}, {@code text_put}),
 * through a {@code LongCacheTable<byte[]>} of the same numbers (the table's fastest key), and
 * through a {@code ConcurrentHashMap<String, byte[]>} that copies each value in and out, as a
 * store-by-value cache must.
 *
 * <p>Run: {@code java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar
 * StringKeyBenchmark} (add {@code -prof gc} for the bytes each operation allocates). Scores are
 * operations per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@Threads(1)
public class StringKeyBenchmark {

  /** A value of 31 chars of ASCII, for the table of {@code String} values. */
  static final String TEXT = "shipped: 2026-11-29, 3 parcels.";

  /** The tables and the map, each holding the hot keys. */
  @State(Scope.Benchmark)
  public static class Stores {
    Cache cache;
    CacheTable<String, byte[]> strings;
    CacheTable<String, String> texts;
    LongCacheTable<byte[]> longs;
    final ConcurrentHashMap<String, byte[]> map = new ConcurrentHashMap<>();
    final String[] keys = new String[BenchValues.HOT_VALUES];

    @Setup(Level.Trial)
    public void fill() {
      cache = Cache.offHeap(CacheOptions.builder().build());
      strings = cache.table("strings", String.class, byte[].class);
      texts = cache.table("texts", String.class, String.class);
      longs = cache.longTable("longs", byte[].class);
      for (int i = 0; i < keys.length; i++) {
        keys[i] = String.format("order:%08d", i);
        byte[] value = BenchValues.bytes(i);
        strings.put(keys[i], value);
        texts.put(keys[i], TEXT);
        longs.put(i, value);
        map.put(keys[i], value.clone());
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      cache.close();
    }
  }

  /** The thread's value and its cursor over the hot keys. */
  @State(Scope.Thread)
  public static class Cursor {
    byte[] value;
    BenchValues.ScatteredIndex keys;

    @Setup(Level.Trial)
    public void start() {
      value = BenchValues.bytes(-1);
      keys = new BenchValues.ScatteredIndex(7, BenchValues.HOT_VALUES);
    }
  }

  /** A get of a {@code String} key: its value copied into a new array. */
  @Benchmark
  public byte[] string_get(Stores stores, Cursor cursor) {
    return stores.strings.get(stores.keys[cursor.keys.next()]);
  }

  /** A put of a {@code String} key over a present one. */
  @Benchmark
  public PutResult string_put(Stores stores, Cursor cursor) {
    return stores.strings.put(stores.keys[cursor.keys.next()], cursor.value);
  }

  /** A get of a {@code String} value: decoded into a new string. */
  @Benchmark
  public String text_get(Stores stores, Cursor cursor) {
    return stores.texts.get(stores.keys[cursor.keys.next()]);
  }

  /** A put of a {@code String} value over a present one. */
  @Benchmark
  public PutResult text_put(Stores stores, Cursor cursor) {
    return stores.texts.put(stores.keys[cursor.keys.next()], TEXT);
  }

  /** The same get by the key's number, in a table of {@code long} keys. */
  @Benchmark
  public byte[] long_get(Stores stores, Cursor cursor) {
    return stores.longs.get(cursor.keys.next());
  }

  /** The same put by the key's number. */
  @Benchmark
  public PutResult long_put(Stores stores, Cursor cursor) {
    return stores.longs.put(cursor.keys.next(), cursor.value);
  }

  /** A get from the map, its value copied out. */
  @Benchmark
  public byte[] map_get(Stores stores, Cursor cursor) {
    return stores.map.get(stores.keys[cursor.keys.next()]).clone();
  }

  /** A put into the map of a copy of the value. */
  @Benchmark
  public byte[] map_put(Stores stores, Cursor cursor) {
    return stores.map.put(stores.keys[cursor.keys.next()], cursor.value.clone());
  }
}
