package dev.cairn.bench.harness;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an operation on every index in {@code [0, n)} with T threads, each taking an equal
 * contiguous share, and times the whole: from the moment all threads are released together until
 * the last one finishes.
 */
final class ParallelLoop {
  /** Values a worker does between progress reports and failure checks. */
  private static final int CHUNK = 1 << 14;

  /** What the loop does to one index; returns a checksum part (0 if it has none). */
  @FunctionalInterface
  interface IndexOperation {
    long apply(int index, byte[] buffer);
  }

  /**
   * @param elapsedNanos from release to the last worker's finish
   * @param checksum the sum of what the operation returned
   */
  record Outcome(long elapsedNanos, long checksum) {
    double perSecond(int n) {
      return n * 1e9 / elapsedNanos;
    }
  }

  private final int threads;
  private final ValueSource values;

  ParallelLoop(int threads, ValueSource values) {
    this.threads = threads;
    this.values = values;
  }

  /**
   * @param name names the worker threads
   * @param order the order each worker visits its share in
   * @throws RuntimeException or Error: a worker's failure, after all workers have stopped
   */
  Outcome run(String name, int n, GetOrder order, IndexOperation operation, Progress progress)
      throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    // Failures are kept with plain stores, no CAS: out of heap, even a VarHandle's first
    // linkage can throw, and the real failure would be lost.
    Throwable[] failures = new Throwable[threads];
    AtomicBoolean failed = new AtomicBoolean();
    long[] finishNanos = new long[threads];
    long[] checksums = new long[threads];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int worker = t;
      int from = (int) ((long) n * t / threads);
      int to = (int) ((long) n * (t + 1) / threads);
      workers[t] =
          Thread.ofPlatform()
              .name(name + "-" + t)
              .unstarted(
                  () -> {
                    ready.countDown();
                    try {
                      byte[] buffer = values.newBuffer();
                      start.await();
                      checksums[worker] =
                          visit(from, to, order, operation, buffer, progress, failed);
                    } catch (Throwable e) {
                      failures[worker] = e;
                      failed.set(true);
                    }
                    finishNanos[worker] = System.nanoTime();
                  });
      workers[t].start();
    }
    ready.await();
    long startNanos = System.nanoTime();
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    for (Throwable failure : failures) {
      rethrow(failure);
    }

    long lastFinish = Long.MIN_VALUE;
    long checksum = 0;
    for (int t = 0; t < threads; t++) {
      lastFinish = Math.max(lastFinish, finishNanos[t]);
      checksum += checksums[t];
    }
    return new Outcome(Math.max(1, lastFinish - startNanos), checksum);
  }

  private static long visit(
      int from,
      int to,
      GetOrder order,
      IndexOperation operation,
      byte[] buffer,
      Progress progress,
      AtomicBoolean failed) {
    int length = to - from;
    int step = order == GetOrder.RANDOM ? coprimeStride(length) : 1;
    int offset = 0;
    long checksum = 0;
    for (int done = 0; done < length; ) {
      int chunkStart = done;
      int chunkEnd = Math.min(length, done + CHUNK);
      for (; done < chunkEnd; done++) {
        checksum += operation.apply(from + offset, buffer);
        offset += step;
        if (offset >= length) {
          offset -= length;
        }
      }
      progress.advance(chunkEnd - chunkStart);
      if (failed.get()) {
        break; // another worker failed: stop early, its failure is what gets reported
      }
    }
    return checksum;
  }

  /**
   * A step near 0.618 of {@code length} and coprime to it, so that adding it modulo length visits
   * every offset exactly once (a Weyl sequence) with far-apart neighbours.
   */
  static int coprimeStride(int length) {
    if (length <= 2) {
      return 1;
    }
    int step = Math.max(1, (int) (length * 0.6180339887498949));
    while (gcd(step, length) != 1) {
      step++; // terminates: length - 1 is coprime to length
    }
    return step;
  }

  private static int gcd(int a, int b) {
    while (b != 0) {
      int r = a % b;
      a = b;
      b = r;
    }
    return a;
  }

  private static void rethrow(Throwable failure) {
    switch (failure) {
      case null -> {}
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      default -> throw new IllegalStateException("bench worker failed", failure);
    }
  }
}
