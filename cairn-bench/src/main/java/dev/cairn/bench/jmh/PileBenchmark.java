package dev.cairn.bench.jmh;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Microbenchmarks of the Pile's operations on 32-byte values, each run with one thread ({@link
 * OneThread}) and with two ({@link TwoThreads}) sharing one pile. {@link MapBaselineBenchmark}
 * measures a {@code ConcurrentHashMap} with the same values, for the ratios.
 *
 * <p>Build and run from the repository root (JDK 25; ./mvnw finds one):
 *
 * <pre>
 * ./mvnw -B -q -DskipTests -pl cairn-bench -am package
 * . .mvn/find-jdk25.sh; alias jmh='$JAVA_HOME/bin/java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar'
 * jmh                                                  # all 42 benchmarks
 * jmh PileBenchmark                                    # the pile alone
 * jmh 'PileBenchmark|MapBaselineBenchmark' -rf json -rff jmh.json   # with the baseline, as JSON
 * jmh 'PileBenchmark.OneThread.get' -prof gc           # allocation per get
 * jmh PileBenchmark -f 1 -wi 1 -i 1 -w 1s -r 1s        # smoke run, under a minute
 * </pre>
 *
 * ({@code --sun-misc-unsafe-memory-access=allow} only quiets JDK 25's warning about JMH's own use
 * of {@code sun.misc.Unsafe}; the forks get it, and native access, from {@link Fork}.)
 *
 * <p>Defaults are short (1 fork, 2 x 1 s warmup, 3 x 1 s measurement) so that the suite fits a
 * coffee break on 2 cores; raise {@code -f -wi -i -w -r} for publishable figures.
 *
 * <p>Scores: throughput benchmarks in operations per second (per benchmark, all threads together).
 * {@link #delete} is a single-shot batch of {@value #DELETE_BATCH} deletes per thread, in ms per
 * batch, which reads directly as nanoseconds per delete.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
    value = 1,
    // native access for the pile's FFM calls; Unsafe for JMH's own harness (not Cairn's code),
    // which JDK 25 otherwise warns about in every fork
    jvmArgsAppend = {
      "-Xmx4g",
      "--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow"
    })
public abstract class PileBenchmark {

  /** Deletes per thread in one measured shot of {@link #delete}. */
  static final int DELETE_BATCH = 1_000_000;

  /**
   * Memory budget of the piles that puts fill: well above what a 1 s iteration puts, so that a much
   * longer iteration fails with PileFullException instead of swapping the machine.
   */
  static final long PUT_BUDGET_BYTES = 8L << 30;

  /** The benchmarks with one thread. */
  @Threads(1)
  public static class OneThread extends PileBenchmark {}

  /** The same benchmarks with two threads on one pile: do they scale on 2 cores? */
  @Threads(2)
  public static class TwoThreads extends PileBenchmark {}

  /**
   * A new, empty pile for each iteration, closed after it: puts measure loading a pile, segment
   * allocation included, and memory is bounded by one iteration's puts.
   */
  @State(Scope.Benchmark)
  public static class FreshPile {
    Pile pile;

    @Setup(Level.Iteration)
    public void open() {
      pile = Pile.offHeap(PileOptions.builder().maxMemoryBytes(PUT_BUDGET_BYTES).build());
    }

    @TearDown(Level.Iteration)
    public void close() {
      pile.close();
    }
  }

  /**
   * A pile holding {@link BenchValues#FILLED_VALUES} 32-character strings, for the gets; with and
   * without transparent huge pages ({@code PileOptions.hugePages}), whose fewer TLB misses are what
   * random-order gets should gain.
   */
  @State(Scope.Benchmark)
  public static class FilledPile {
    @Param({"false", "true"})
    boolean hugePages;

    Pile pile;
    long[] pointers;

    @Setup(Level.Trial)
    public void fill() {
      pile = Pile.offHeap(PileOptions.builder().hugePages(hugePages).build());
      pointers = new long[BenchValues.FILLED_VALUES];
      for (int i = 0; i < pointers.length; i++) {
        pointers[i] = pile.put(BenchValues.string(i));
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      pile.close();
    }
  }

  /**
   * A pile holding {@link BenchValues#HOT_VALUES} 32-character strings, small enough to stay in the
   * CPU caches: gets from it cost the read path alone, where {@link FilledPile}'s add the cache and
   * TLB misses of a large store.
   */
  @State(Scope.Benchmark)
  public static class HotPile {
    Pile pile;
    long[] pointers;

    @Setup(Level.Trial)
    public void fill() {
      pile = Pile.offHeap(PileOptions.builder().build());
      pointers = new long[BenchValues.HOT_VALUES];
      for (int i = 0; i < pointers.length; i++) {
        pointers[i] = pile.put(BenchValues.string(i));
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      pile.close();
    }
  }

  /** One thread's values, read buffer, get cursor and put/delete ring. */
  @State(Scope.Thread)
  public static class ThreadState {
    private static final AtomicLong SEEDS = new AtomicLong();

    /** Values the churn benchmark keeps alive per thread: a small, steady pile. */
    private static final int RING = 1024;

    byte[] bytes;
    String string;
    byte[] readBuffer = new byte[BenchValues.VALUE_BYTES];
    BenchValues.ScatteredIndex gets;
    BenchValues.ScatteredIndex hotGets;
    long[] ring = new long[RING];
    int ringAt;

    @Setup(Level.Trial)
    public void values() {
      long seed = SEEDS.incrementAndGet();
      bytes = BenchValues.bytes(seed);
      string = BenchValues.string(seed);
      gets = new BenchValues.ScatteredIndex(seed);
      hotGets = new BenchValues.ScatteredIndex(seed, BenchValues.HOT_VALUES);
    }

    /** The ring's pointers belonged to the previous iteration's pile. */
    @Setup(Level.Iteration)
    public void emptyRing() {
      Arrays.fill(ring, Pile.NULL);
      ringAt = 0;
    }
  }

  /** One thread's {@link #DELETE_BATCH} values to delete, put before each shot. */
  @State(Scope.Thread)
  public static class ThreadDeletes {
    long[] pointers = new long[DELETE_BATCH];
    int next;

    /**
     * Puts the batch into the iteration's pile, and lists its pointers in a scattered order (a
     * stride coprime to the batch), so that deletes free blocks all over the segments rather than
     * in allocation order.
     */
    @Setup(Level.Iteration)
    public void fill(FreshPile fresh, ThreadState values) {
      long[] inOrder = new long[DELETE_BATCH];
      for (int i = 0; i < DELETE_BATCH; i++) {
        inOrder[i] = fresh.pile.put(values.bytes);
      }
      int step = (int) (DELETE_BATCH * 0.6180339887498949);
      while (gcd(step, DELETE_BATCH) != 1) {
        step++;
      }
      for (int i = 0, at = 0; i < DELETE_BATCH; i++, at = (at + step) % DELETE_BATCH) {
        pointers[i] = inOrder[at];
      }
      next = 0;
    }

    private static int gcd(int a, int b) {
      return b == 0 ? a : gcd(b, a % b);
    }
  }

  /** How many 32-byte {@code byte[]} values a second can be put into a growing pile? */
  @Benchmark
  public long put_bytes(FreshPile fresh, ThreadState state) {
    return fresh.pile.put(state.bytes);
  }

  /**
   * How many 32-character strings a second can be put (encoded to UTF-8 on the way in)? The seed
   * system claimed 5M+ a second for this, on 6 cores.
   */
  @Benchmark
  public long put_string(FreshPile fresh, ThreadState state) {
    return fresh.pile.put(state.string);
  }

  /**
   * In steady churn, how many put-plus-delete pairs a second? Each thread keeps its last 1024
   * values and deletes the oldest after each put, so the pile stays small and every put should
   * reuse a freed block: this is the free-list path that {@link #put_bytes} never takes.
   */
  @Benchmark
  public long putThenDelete_bytes(FreshPile fresh, ThreadState state) {
    long pointer = fresh.pile.put(state.bytes);
    long oldest = state.ring[state.ringAt];
    state.ring[state.ringAt] = pointer;
    state.ringAt = (state.ringAt + 1) & (state.ring.length - 1);
    if (oldest != Pile.NULL) {
      fresh.pile.delete(oldest);
    }
    return pointer;
  }

  /** How many gets a second, each returning a new {@code byte[]}, as most callers would read? */
  @Benchmark
  public byte[] getBytes_newArray(FilledPile filled, ThreadState state) {
    return filled.pile.getBytes(filled.pointers[state.gets.next()]);
  }

  /** How many gets a second into a reused buffer, the allocation-free read path? */
  @Benchmark
  public byte[] getBytes_reusedArray(FilledPile filled, ThreadState state) {
    filled.pile.getBytes(filled.pointers[state.gets.next()], state.readBuffer, 0);
    return state.readBuffer;
  }

  /** {@link #getBytes_newArray} from a pile that fits the CPU caches: the read path's own cost. */
  @Benchmark
  public byte[] getBytesHot_newArray(HotPile hot, ThreadState state) {
    return hot.pile.getBytes(hot.pointers[state.hotGets.next()]);
  }

  /** {@link #getBytes_reusedArray} from a pile that fits the CPU caches. */
  @Benchmark
  public byte[] getBytesHot_reusedArray(HotPile hot, ThreadState state) {
    hot.pile.getBytes(hot.pointers[state.hotGets.next()], state.readBuffer, 0);
    return state.readBuffer;
  }

  /** How many gets a second of a stored string back as a {@code String} (UTF-8 decode)? */
  @Benchmark
  public String getString(FilledPile filled, ThreadState state) {
    return filled.pile.getString(filled.pointers[state.gets.next()]);
  }

  /**
   * How many whole scans a second of the filled pile ({@link BenchValues#FILLED_VALUES} values;
   * multiply for values per second), the visitor reading each value's length and last byte?
   */
  @Benchmark
  public long scan(FilledPile filled) {
    long[] sum = new long[1];
    filled.pile.scan(
        (pointer, kind, bytes, offset, length) ->
            sum[0] +=
                length + bytes.get(java.lang.foreign.ValueLayout.JAVA_BYTE, offset + length - 1));
    return sum[0];
  }

  /**
   * What does one delete cost, free-block coalescing included? Timed as one shot of {@value
   * #DELETE_BATCH} deletes per thread, in scattered order, of values put before the shot.
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 2, batchSize = DELETE_BATCH)
  @Measurement(iterations = 3, batchSize = DELETE_BATCH)
  public void delete(FreshPile fresh, ThreadDeletes deletes) {
    fresh.pile.delete(deletes.pointers[deletes.next++]);
  }
}
