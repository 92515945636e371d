package dev.cairn.bench.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The phases of the cache workload on one store, each run by {@code threads} threads: the load of
 * its n keys ({@link KeyOrder}) into the empty store, a 90/10 get/put mix over uniform or Zipfian
 * keys for a fixed time, and the bounded workload (Zipfian gets, a put of the value on each miss,
 * as a cache in front of a slow source does). Every get copies its value out and checks that it
 * names its key.
 *
 * <p>Each thread has its own random source, value buffers and {@link PhaseStats}, all made by the
 * thread itself; nothing is shared but the store. Every {@link #REFRESH_MASK} + 1 operations a
 * thread takes new value buffers and a new random source (split from its own, so the run stays
 * seeded). Why: objects that one thread makes for several threads start side by side, and a young
 * collection copies the live objects of both threads side by side; two threads' 48-byte value
 * buffers or counters, written on every operation, would then share a cache line, each thread's
 * write taking the line from the other's core. A store whose operations allocate (a JCache
 * provider's boxed keys) collects during its phases. Buffers made anew are in their thread's own
 * allocation buffer again; the garbage is 0.2 bytes an operation. What this changed in measured
 * runs is in docs/BENCHMARKS.md ("Per-thread state on lines of its own").
 */
final class CachePhases {
  /** Gets in ten of the mix: 90/10. */
  private static final int GETS_IN_TEN = 9;

  /** Operations between re-allocations of a thread's buffers and random source, less one. */
  private static final int REFRESH_MASK = 255;

  /** Operations between looks at the clock in a loop that does not time each one. */
  private static final int CLOCK_EVERY = 64;

  private final CacheStore store;
  private final long n;
  private final int threads;
  private final int valueBytes;
  private final long seed;
  private final KeyOrder keys;

  CachePhases(CacheStore store, long n, int threads, int valueBytes, long seed, KeyOrder keys) {
    this.store = store;
    this.n = n;
    this.threads = threads;
    this.valueBytes = valueBytes;
    this.seed = seed;
    this.keys = keys;
  }

  /** Puts keys 0..n-1, each thread a contiguous share; the merged counts. */
  PhaseStats load() throws InterruptedException {
    return run(
        (thread, stats, random) -> {
          byte[] buffer = new byte[valueBytes];
          long from = n * thread / threads;
          long to = n * (thread + 1) / threads;
          for (long i = from; i < to; i++) {
            if (((i - from) & REFRESH_MASK) == REFRESH_MASK) {
              buffer = new byte[valueBytes];
            }
            long key = keys.key(i);
            Values.fill(buffer, key, 0);
            store.put(key, buffer);
          }
          stats.puts = to - from;
          stats.operations = to - from;
        });
  }

  /**
   * Gets and puts in the ratio 90/10 for {@code seconds}, over keys drawn uniformly ({@code zipf}
   * null) or from {@code zipf}; every key must be present (the load ran first).
   */
  PhaseStats mixed(double seconds, ZipfKeys zipf) throws InterruptedException {
    long nanos = (long) (seconds * 1e9);
    return run(
        (thread, stats, random) -> {
          byte[] buffer = new byte[valueBytes];
          byte[] read = new byte[valueBytes];
          long version = 1;
          long deadline = System.nanoTime() + nanos;
          long now = System.nanoTime();
          while (now < deadline) {
            if ((stats.operations & REFRESH_MASK) == REFRESH_MASK) {
              buffer = new byte[valueBytes];
              read = new byte[valueBytes];
              random = random.split();
            }
            long key = keys.key(zipf == null ? random.nextLong(n) : zipf.next(random));
            if (random.nextInt(10) < GETS_IN_TEN) {
              long start = System.nanoTime();
              int length = store.get(key, read);
              now = System.nanoTime();
              stats.recordGet(now - start);
              if (length < 0) {
                throw new IllegalStateException("the store lost key " + key + " of its load");
              }
              Values.check(read, length, key, valueBytes);
              stats.gets++;
              stats.hits++;
            } else {
              Values.fill(buffer, key, version++);
              store.put(key, buffer);
              stats.puts++;
              if (stats.puts % CLOCK_EVERY == 0) {
                now = System.nanoTime();
              }
            }
            stats.operations++;
          }
        });
  }

  /**
   * Gets of keys from {@code zipf} for {@code seconds}, each miss followed by a put of the key's
   * value (the load a cache's user does on a miss); counts gets, hits and puts.
   */
  PhaseStats bounded(double seconds, ZipfKeys zipf) throws InterruptedException {
    long nanos = (long) (seconds * 1e9);
    return run(
        (thread, stats, random) -> {
          byte[] buffer = new byte[valueBytes];
          byte[] read = new byte[valueBytes];
          long deadline = System.nanoTime() + nanos;
          long now = System.nanoTime();
          while (now < deadline) {
            if ((stats.operations & REFRESH_MASK) == REFRESH_MASK) {
              buffer = new byte[valueBytes];
              read = new byte[valueBytes];
              random = random.split();
            }
            long key = keys.key(zipf.next(random));
            long start = System.nanoTime();
            int length = store.get(key, read);
            now = System.nanoTime();
            stats.recordGet(now - start);
            stats.gets++;
            if (length >= 0) {
              Values.check(read, length, key, valueBytes);
              stats.hits++;
            } else {
              Values.fill(buffer, key, 0);
              store.put(key, buffer);
              stats.puts++;
            }
            stats.operations++;
          }
        });
  }

  /** What one thread does in a phase. */
  @FunctionalInterface
  interface Body {
    void run(int thread, PhaseStats stats, SplittableRandom random) throws Exception;
  }

  private int phase;

  /** Runs {@code body} on every thread at once; the merged stats, or the first failure thrown. */
  private PhaseStats run(Body body) throws InterruptedException {
    int phaseNumber = phase++;
    List<Thread> workers = new ArrayList<>();
    PhaseStats[] all = new PhaseStats[threads]; // each made by its thread: see the class doc
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      long threadSeed = seed * 1_000_003L + phaseNumber * 131L + t;
      workers.add(
          Thread.ofPlatform()
              .name("cache-bench-" + t)
              .unstarted(
                  () -> {
                    try {
                      PhaseStats stats = new PhaseStats();
                      all[thread] = stats; // read after join
                      body.run(thread, stats, new SplittableRandom(threadSeed));
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    }
                  }));
    }
    workers.forEach(Thread::start);
    for (Thread worker : workers) {
      worker.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          "a thread of the phase failed: " + failure.get(), failure.get());
    }
    PhaseStats total = new PhaseStats();
    for (PhaseStats stats : all) {
      total.add(stats);
    }
    return total;
  }
}
