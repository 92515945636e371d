package dev.cairn.bench.jmh;

import dev.cairn.bench.cache.KeyOrder;
import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A load into an empty store, in one JVM: {@code keys} long keys with 32-byte values put one after
 * another from one thread into a new volatile cache table (no sizing hint, the cache's defaults, as
 * the cache workload's load), into a new cache of Cairn's JCache provider (JCache's default
 * configuration: the {@code cairn-jcache} store's) and into a new {@code ConcurrentHashMap<Long,
 * byte[]>} (each value copied, as the workload's map store does), the keys in sequence or scattered
 * ({@link KeyOrder}). A score is the time of one whole load (single shot). It is the cache
 * workload's load ratio with eleven loads of each store in its fork (three of them warm-up) instead
 * of one per JVM: for comparing changes to the load path.
 *
 * <p>Run: {@code java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar
 * CacheLoadBenchmark}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Threads(1)
public class CacheLoadBenchmark {

  /** What a load puts: how many keys, in which order, and the value. */
  @State(Scope.Benchmark)
  public static class Keys {
    @Param({"2000000"})
    int keys;

    @Param({"sequential", "scattered"})
    String order;

    KeyOrder keyOrder;
    byte[] value;

    @Setup(Level.Trial)
    public void choose() {
      keyOrder = KeyOrder.of(order);
      value = BenchValues.bytes(1);
    }
  }

  /** A new cache table for each load. */
  @State(Scope.Benchmark)
  public static class Table {
    Cache cache;
    LongCacheTable<byte[]> table;

    @Setup(Level.Iteration)
    public void empty() {
      cache = Cache.offHeap(CacheOptions.builder().build());
      table = cache.longTable("load", byte[].class);
    }

    @TearDown(Level.Iteration)
    public void close() {
      cache.close();
    }
  }

  /** A new JCache cache of Cairn's provider for each load (CairnJCaches). */
  @State(Scope.Benchmark)
  public static class JCache {
    javax.cache.CacheManager manager;
    javax.cache.Cache<Long, byte[]> cache;

    @Setup(Level.Iteration)
    public void empty() {
      manager = CairnJCaches.manager();
      cache = CairnJCaches.create(manager, "load");
    }

    @TearDown(Level.Iteration)
    public void close() {
      manager.destroyCache("load");
      manager.close();
    }
  }

  /** A new map for each load. */
  @State(Scope.Benchmark)
  public static class HeapMap {
    ConcurrentHashMap<Long, byte[]> map;

    @Setup(Level.Iteration)
    public void empty() {
      map = new ConcurrentHashMap<>();
    }

    @TearDown(Level.Iteration)
    public void drop() {
      map = null;
      System.gc(); // the last load's map goes before the next load, not during it
    }
  }

  /** The keys put into the cache table. */
  @Benchmark
  public LongCacheTable<byte[]> cairn(Keys keys, Table table) {
    for (long i = 0; i < keys.keys; i++) {
      table.table.put(keys.keyOrder.key(i), keys.value);
    }
    return table.table;
  }

  /** The keys put into the JCache cache, each key boxed as a JCache caller's is. */
  @Benchmark
  public javax.cache.Cache<Long, byte[]> jcache(Keys keys, JCache cache) {
    for (long i = 0; i < keys.keys; i++) {
      cache.cache.put(keys.keyOrder.key(i), keys.value);
    }
    return cache.cache;
  }

  /** The keys put into the map, each with its own copy of the value. */
  @Benchmark
  public Map<Long, byte[]> chm(Keys keys, HeapMap map) {
    for (long i = 0; i < keys.keys; i++) {
      map.map.put(keys.keyOrder.key(i), keys.value.clone());
    }
    return map.map;
  }
}
