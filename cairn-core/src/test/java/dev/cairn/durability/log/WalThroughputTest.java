package dev.cairn.durability.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Group commit on the real disk: how many SYNC commits per second 1 and 16 threads reach, each
 * appending one small record and waiting for it to be durable, and how many commits share a force;
 * then 16 threads split over two logs, 8 each, which is what a log sharded in two would reach at
 * best (each log's forces run beside the other's). Prints the figures; asserts only that every
 * commit was made durable (the numbers depend on the machine and on whoever else uses the disk).
 *
 * <p>Run alone: {@code ./mvnw -q -B -pl cairn-core test -Dtest=WalThroughputTest}. The log lives in
 * a temporary directory under {@code target/} (on the project's disk, not a tmpfs), or under {@code
 * -Dcairn.bench.dir}. {@code -Dcairn.bench.seconds} sets the measuring time per run.
 */
class WalThroughputTest {

  @Test
  void syncCommits_oneAndSixteenThreads_printCommitsPerSecond() throws Exception {
    Path base = Path.of(System.getProperty("cairn.bench.dir", "target"));
    Files.createDirectories(base);
    double seconds = Double.parseDouble(System.getProperty("cairn.bench.seconds", "1.5"));
    Path dir = Files.createTempDirectory(base.toAbsolutePath(), "wal-throughput-");
    try {
      System.out.printf(
          "[throughput] fsync of one 4 KiB page on %s: %.0f us%n",
          dir, fsyncMicros(dir.resolve("probe")));
      LogOptions options =
          LogOptions.builder().fileBytes(16 << 20).fileCount(4).mode(LogSync.ON_COMMIT).build();
      try (WriteAheadLog log =
          WriteAheadLog.open(RealFileLayer.INSTANCE, dir, options, 0, (a, b, c, d) -> {})) {
        run(log, 1, 0.3); // warm-up
        for (int threads : new int[] {1, 16}) {
          run(log, threads, seconds);
        }
      }
      Path second = Files.createDirectory(dir.resolve("second"));
      Path first = Files.createDirectory(dir.resolve("first"));
      try (WriteAheadLog a =
              WriteAheadLog.open(RealFileLayer.INSTANCE, first, options, 0, (x, y, z, w) -> {});
          WriteAheadLog b =
              WriteAheadLog.open(RealFileLayer.INSTANCE, second, options, 0, (x, y, z, w) -> {})) {
        runTwo(a, b, 8, seconds);
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private static double fsyncMicros(Path file) throws IOException {
    try (FileHandle h = RealFileLayer.INSTANCE.open(file, FileLayer.OpenMode.CREATE_NEW)) {
      h.preallocate(4096);
      h.force();
      int n = 200;
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        h.write(ByteBuffer.wrap(new byte[] {(byte) i}), i);
        h.force();
      }
      return (System.nanoTime() - start) / 1e3 / n;
    }
  }

  private static void runTwo(WriteAheadLog a, WriteAheadLog b, int threadsEach, double seconds)
      throws Exception {
    Load load = commit(new WriteAheadLog[] {a, b}, 2 * threadsEach, seconds);
    System.out.printf(
        "[throughput] SYNC, two logs, %d threads each: %,.0f commits/s,"
            + " %,.0f forces/s, %.1f commits per force%n",
        threadsEach, load.commitsPerSecond(), load.forcesPerSecond(), load.commitsPerForce());
  }

  private static void run(WriteAheadLog log, int threads, double seconds) throws Exception {
    Load load = commit(new WriteAheadLog[] {log}, threads, seconds);
    if (seconds >= 1) {
      System.out.printf(
          "[throughput] SYNC, %2d thread(s), 32-byte records: %,.0f commits/s,"
              + " %,.0f forces/s, %.1f commits per force, %.0f us per commit%n",
          threads,
          load.commitsPerSecond(),
          load.forcesPerSecond(),
          load.commitsPerForce(),
          1e6 * threads / Math.max(1, load.commitsPerSecond()));
    }
  }

  /** What {@link #commit} measured. */
  private record Load(long commits, long forces, double seconds) {
    double commitsPerSecond() {
      return commits / seconds;
    }

    double forcesPerSecond() {
      return forces / seconds;
    }

    double commitsPerForce() {
      return (double) commits / Math.max(1, forces);
    }
  }

  /**
   * {@code threads} threads, spread over {@code logs} in turn, each appending a 32-byte record and
   * committing it in a loop for {@code seconds}; asserts every log ends wholly durable.
   */
  private static Load commit(WriteAheadLog[] logs, int threads, double seconds) throws Exception {
    LongAdder commits = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(threads);
    byte[] payload = new byte[32];
    long forcesBefore = forces(logs);
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      WriteAheadLog log = logs[t % logs.length];
      Thread.ofPlatform()
          .start(
              () -> {
                try {
                  while (!stop.get()) {
                    if (log.remainingBytes() < log.capacityBytes() / 2) {
                      log.truncateBefore(log.durableLsn()); // what a checkpoint would allow
                    }
                    long end = log.append(16, payload);
                    log.commit(end);
                    commits.increment();
                  }
                } finally {
                  done.countDown();
                }
              });
    }
    Thread.sleep((long) (seconds * 1000));
    stop.set(true);
    assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    double elapsed = (System.nanoTime() - start) / 1e9;
    for (WriteAheadLog log : logs) {
      assertThat(log.durableLsn()).isEqualTo(log.endLsn());
    }
    return new Load(commits.sum(), forces(logs) - forcesBefore, elapsed);
  }

  private static long forces(WriteAheadLog[] logs) {
    long forces = 0;
    for (WriteAheadLog log : logs) {
      forces += log.forceCount();
    }
    return forces;
  }
}
