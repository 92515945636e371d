package dev.cairn.bench.jmh;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.LongCacheTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.cache.CacheManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A cache's {@code getAll} and {@code putAll} against the same keys read or written one {@code get}
 * or {@code put} after another, from memory: {@code entries} long keys with 32-byte values in a
 * volatile cache (on huge pages, as a cache's defaults ask), far larger than the processor's
 * caches, and {@value #KEYS} scattered present keys a call; and the reads through Cairn's JCache
 * provider, over a JCache cache of the same entries (JCache's default configuration). Scores are
 * keys a second; a batch's over its loop's is what handling a window of keys together gains over
 * the dependent misses of one key after another.
 *
 * <p>Run: {@code java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar
 * CacheBatchBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@Threads(1)
public class CacheBatchBenchmark {
  /** Keys a call. */
  static final int KEYS = 64;

  /** The cache and its table of long keys. */
  @State(Scope.Benchmark)
  public static class Store {
    @Param({"4194304"})
    int entries;

    Cache cache;
    LongCacheTable<byte[]> table;
    CacheTable<Long, byte[]> boxed;
    byte[] value;
    CacheManager manager;
    javax.cache.Cache<Long, byte[]> jcache;

    @Setup(Level.Trial)
    public void fill() {
      cache = Cache.offHeap(CacheOptions.builder().build());
      table = cache.longTable("entries", byte[].class);
      boxed = table.boxed();
      value = BenchValues.bytes(1);
      manager = CairnJCaches.manager();
      jcache = CairnJCaches.create(manager, "jcache");
      for (int i = 0; i < entries; i++) {
        table.put(i, value);
        jcache.put((long) i, value);
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      manager.close();
      cache.close();
    }
  }

  /** The thread's cursor over the keys, and the list a call reads. */
  @State(Scope.Thread)
  public static class Cursor {
    BenchValues.ScatteredIndex order;
    final List<Long> keys = new ArrayList<>(KEYS);
    final Map<Long, byte[]> entries = new LinkedHashMap<>();
    final Set<Long> set = new LinkedHashSet<>();

    @Setup(Level.Trial)
    public void start(Store store) {
      order = new BenchValues.ScatteredIndex(7, store.entries);
    }

    List<Long> next() {
      keys.clear();
      for (int i = 0; i < KEYS; i++) {
        keys.add((long) order.next());
      }
      return keys;
    }

    Set<Long> nextSet() {
      set.clear();
      for (int i = 0; i < KEYS; i++) {
        set.add((long) order.next());
      }
      return set;
    }

    Map<Long, byte[]> nextEntries(byte[] value) {
      entries.clear();
      for (int i = 0; i < KEYS; i++) {
        entries.put((long) order.next(), value);
      }
      return entries;
    }
  }

  /** The keys read together. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public Map<Long, byte[]> getAll(Store store, Cursor cursor) {
    return store.boxed.getAll(cursor.next());
  }

  /** The same keys, one get after another. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void gets(Store store, Cursor cursor, Blackhole hole) {
    for (Long key : cursor.next()) {
      hole.consume(store.boxed.get(key));
    }
  }

  /** The keys read together through Cairn's JCache provider ({@code Cache.getAll}). */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public Map<Long, byte[]> jcache_getAll(Store store, Cursor cursor) {
    return store.jcache.getAll(cursor.nextSet());
  }

  /** The same keys through JCache, one get after another. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void jcache_gets(Store store, Cursor cursor, Blackhole hole) {
    for (Long key : cursor.nextSet()) {
      hole.consume(store.jcache.get(key));
    }
  }

  /** The keys written together, each over its present value. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void putAll(Store store, Cursor cursor) {
    store.boxed.putAll(cursor.nextEntries(store.value));
  }

  /** The same writes, one put after another. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void puts(Store store, Cursor cursor) {
    for (Map.Entry<Long, byte[]> e : cursor.nextEntries(store.value).entrySet()) {
      store.boxed.put(e.getKey(), e.getValue());
    }
  }
}
