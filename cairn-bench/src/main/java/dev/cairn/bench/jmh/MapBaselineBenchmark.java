package dev.cairn.bench.jmh;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The heap baseline for {@link PileBenchmark}: a {@code ConcurrentHashMap<Long, byte[]>} doing the
 * same puts and gets with the same 32-byte values, so that each pile score has a map score to
 * divide by. As in {@code cairn bench}, a put copies the value (a string as its UTF-8 bytes), and a
 * get returns the stored array without copying: the map's best case.
 *
 * <p>Run: {@code java -jar cairn-bench/target/benchmarks.jar 'PileBenchmark|MapBaselineBenchmark'}.
 * Scores are operations per second, all threads together; the puts include the GC work that the
 * growing map causes, which is part of what a heap store costs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx4g", "--sun-misc-unsafe-memory-access=allow"})
public abstract class MapBaselineBenchmark {

  /** The benchmarks with one thread. */
  @Threads(1)
  public static class OneThread extends MapBaselineBenchmark {}

  /** The same benchmarks with two threads on one map. */
  @Threads(2)
  public static class TwoThreads extends MapBaselineBenchmark {}

  /** A new, empty map for each iteration (not presized: it grows, as a loading pile does). */
  @State(Scope.Benchmark)
  public static class FreshMap {
    ConcurrentHashMap<Long, byte[]> map;

    @Setup(Level.Iteration)
    public void open() {
      map = new ConcurrentHashMap<>();
    }

    @TearDown(Level.Iteration)
    public void close() {
      map = null;
    }
  }

  /** A map holding the same {@link BenchValues#FILLED_VALUES} values as the filled pile. */
  @State(Scope.Benchmark)
  public static class FilledMap {
    ConcurrentHashMap<Long, byte[]> map;

    @Setup(Level.Trial)
    public void fill() {
      map = new ConcurrentHashMap<>(BenchValues.FILLED_VALUES);
      for (int i = 0; i < BenchValues.FILLED_VALUES; i++) {
        map.put((long) i, BenchValues.utf8(BenchValues.string(i)));
      }
    }
  }

  /** A map holding the same {@link BenchValues#HOT_VALUES} values as the hot pile. */
  @State(Scope.Benchmark)
  public static class HotMap {
    ConcurrentHashMap<Long, byte[]> map;

    @Setup(Level.Trial)
    public void fill() {
      map = new ConcurrentHashMap<>(BenchValues.HOT_VALUES);
      for (int i = 0; i < BenchValues.HOT_VALUES; i++) {
        map.put((long) i, BenchValues.utf8(BenchValues.string(i)));
      }
    }
  }

  /** One thread's values, its own key range for puts, and its get cursor. */
  @State(Scope.Thread)
  public static class ThreadState {
    private static final AtomicLong SEEDS = new AtomicLong();

    byte[] bytes;
    String string;
    long nextKey;
    BenchValues.ScatteredIndex gets;
    BenchValues.ScatteredIndex hotGets;

    @Setup(Level.Trial)
    public void values() {
      long seed = SEEDS.incrementAndGet();
      bytes = BenchValues.bytes(seed);
      string = BenchValues.string(seed);
      gets = new BenchValues.ScatteredIndex(seed);
      hotGets = new BenchValues.ScatteredIndex(seed, BenchValues.HOT_VALUES);
      nextKey = seed << 40; // threads never share a key
    }
  }

  /** Baseline of {@link PileBenchmark#put_bytes}: copy a 32-byte array into the map. */
  @Benchmark
  public byte[] put_bytes(FreshMap fresh, ThreadState state) {
    return fresh.map.put(state.nextKey++, state.bytes.clone());
  }

  /** Baseline of {@link PileBenchmark#put_string}: store a string's UTF-8 bytes in the map. */
  @Benchmark
  public byte[] put_string(FreshMap fresh, ThreadState state) {
    return fresh.map.put(state.nextKey++, state.string.getBytes(StandardCharsets.UTF_8));
  }

  /** Baseline of the pile's gets: look a value up, with no copy. */
  @Benchmark
  public byte[] get(FilledMap filled, ThreadState state) {
    return filled.map.get((long) state.gets.next());
  }

  /**
   * Baseline of {@link PileBenchmark#getBytes_newArray} for a caller that needs its own copy, as
   * the pile's get returns one: a lookup and a clone, which also reads the value's bytes.
   */
  @Benchmark
  public byte[] get_copy(FilledMap filled, ThreadState state) {
    return filled.map.get((long) state.gets.next()).clone();
  }

  /**
   * Baseline of {@link PileBenchmark#getBytesHot_newArray}: a lookup in a map that fits the caches.
   */
  @Benchmark
  public byte[] getHot(HotMap hot, ThreadState state) {
    return hot.map.get((long) state.hotGets.next());
  }

  /**
   * Baseline of {@link PileBenchmark#getBytesHot_newArray} for a caller that needs its own copy, as
   * the pile's get returns one: a lookup and a clone.
   */
  @Benchmark
  public byte[] getHot_copy(HotMap hot, ThreadState state) {
    return hot.map.get((long) state.hotGets.next()).clone();
  }
}
