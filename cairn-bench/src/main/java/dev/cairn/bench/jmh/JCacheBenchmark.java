package dev.cairn.bench.jmh;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.cache.PutResult;
import java.util.concurrent.TimeUnit;
import javax.cache.CacheManager;
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
 * What Cairn's JCache provider costs over Cairn's own table, on the CPU alone: gets and puts of
 * {@link BenchValues#HOT_VALUES} long keys with 32-byte values, all in the processor's caches, one
 * thread, through a {@code LongCacheTable<byte[]>} and through a JCache {@code Cache<Long, byte[]>}
 * of Cairn's provider (JCache's default configuration: store-by-value, eternal, no statistics),
 * both off the heap and volatile, in the same JVM. {@code cairn bench --workload cache --stores
 * cairn,cairn-jcache} measures the same with 10M entries, where memory stalls dominate both.
 *
 * <p>Run: {@code java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar
 * JCacheBenchmark}. Scores are operations per second; a JCache score over the table's is the ratio
 * the JCache issue sets its target on. {@code table_getInto} is the table's get into the caller's
 * array ({@code LongCacheTable.getInto}), beside {@code table_get}, which makes an array per get.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@Threads(1)
public class JCacheBenchmark {

  /** The table and the JCache cache, each holding the hot keys. */
  @State(Scope.Benchmark)
  public static class Stores {
    Cache cache;
    LongCacheTable<byte[]> table;
    CacheManager manager;
    javax.cache.Cache<Long, byte[]> jcache;

    @Setup(Level.Trial)
    public void fill() {
      cache = Cache.offHeap(CacheOptions.builder().build());
      table = cache.longTable("native", byte[].class);
      manager = CairnJCaches.manager();
      jcache = CairnJCaches.create(manager, "jcache");
      for (int i = 0; i < BenchValues.HOT_VALUES; i++) {
        byte[] value = BenchValues.bytes(i);
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

  /** The thread's value and its cursor over the hot keys. */
  @State(Scope.Thread)
  public static class Cursor {
    byte[] value;
    byte[] into;
    BenchValues.ScatteredIndex keys;

    @Setup(Level.Trial)
    public void start() {
      value = BenchValues.bytes(-1);
      into = new byte[value.length];
      keys = new BenchValues.ScatteredIndex(7, BenchValues.HOT_VALUES);
    }
  }

  /** A get through Cairn's own table: the value copied into a new array. */
  @Benchmark
  public byte[] table_get(Stores stores, Cursor cursor) {
    return stores.table.get(cursor.keys.next());
  }

  /** A get through Cairn's own table into the thread's array ({@code getInto}): no garbage. */
  @Benchmark
  public int table_getInto(Stores stores, Cursor cursor) {
    return stores.table.getInto(cursor.keys.next(), cursor.into);
  }

  /** The same get through JCache. */
  @Benchmark
  public byte[] jcache_get(Stores stores, Cursor cursor) {
    return stores.jcache.get((long) cursor.keys.next());
  }

  /** A put over a present key through Cairn's own table. */
  @Benchmark
  public PutResult table_put(Stores stores, Cursor cursor) {
    return stores.table.put(cursor.keys.next(), cursor.value);
  }

  /** The same put through JCache. */
  @Benchmark
  public void jcache_put(Stores stores, Cursor cursor) {
    stores.jcache.put((long) cursor.keys.next(), cursor.value);
  }
}
