package dev.cairn.bench.cache;

import dev.cairn.bench.harness.BenchDirectory;
import dev.cairn.bench.harness.ChildArguments;
import dev.cairn.bench.harness.PageCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Reopens a persistent cache the cache workload left, round after round in one JVM: drops the page
 * cache (when run as root), opens, gets one key, then {@code gets} random keys, closes; prints per
 * round the open, the first hit and the gets in milliseconds, and what the open and the first hit
 * read from the disk ({@code read_bytes} of {@code /proc/self/io}). Round 0 is the JVM's first.
 *
 * <p>Arguments: {@code name=value} pairs: dir, n, size, durability, huge, keys (as {@link
 * RestartProbe}'s), rounds (default 6), gets (default 100,000), drop (default true), prime (default
 * 0: entries of a fresh persistent cache that the JVM loads, mixes for two seconds and closes
 * before round 0, in a directory beside {@code dir} it deletes after, so that round 0 meets a JVM
 * as the bench's reopen does: its code for puts and gets compiled, its code for an open from files
 * not yet run). Example: after {@code ./cairn bench --workload cache --stores cairn --dir /tmp/cbr
 * --fresh --reopen --seconds 1}, {@code java --enable-native-access=ALL-UNNAMED -Xmx512m -cp
 * cairn-bench/target/cairn-bench.jar dev.cairn.bench.cache.ReopenProbe dir=/tmp/cbr/cache
 * n=10000000 size=32 durability=periodic huge=true keys=sequential}.
 */
public final class ReopenProbe {
  private static final Path IO = Path.of("/proc/self/io");

  private ReopenProbe() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> arguments = ChildArguments.parse(args);
    long n = Long.parseLong(arguments.get("n"));
    int valueBytes = Integer.parseInt(arguments.get("size"));
    int rounds = Integer.parseInt(arguments.getOrDefault("rounds", "6"));
    int gets = Integer.parseInt(arguments.getOrDefault("gets", "100000"));
    boolean drop = Boolean.parseBoolean(arguments.getOrDefault("drop", "true"));
    KeyOrder keys = KeyOrder.of(arguments.get("keys"));
    StoreSpec spec = RestartProbe.spec(arguments);
    long prime = Long.parseLong(arguments.getOrDefault("prime", "0"));
    if (prime > 0) {
      prime(spec, prime, valueBytes, keys);
    }
    SplittableRandom random = new SplittableRandom(7);
    byte[] buffer = new byte[valueBytes];
    for (int round = 0; round < rounds; round++) {
      boolean cold = drop && PageCache.drop();
      long key = keys.key(random.nextLong(n));
      long read0 = readBytes();
      long start = System.nanoTime();
      try (CairnStore store = CairnStore.open(spec)) {
        long opened = System.nanoTime();
        long read1 = readBytes();
        int length = store.get(key, buffer);
        long hit = System.nanoTime();
        long read2 = readBytes();
        Values.check(buffer, length, key, valueBytes);
        for (int i = 0; i < gets; i++) {
          long k = keys.key(random.nextLong(n));
          Values.check(buffer, store.get(k, buffer), k, valueBytes);
        }
        long done = System.nanoTime();
        System.out.printf(
            "round %d%s: open %.1f ms (read %d KiB), first hit %.1f ms after it (read %d KiB),"
                + " %d gets %.1f ms%n",
            round,
            cold ? " cold" : "",
            (opened - start) / 1e6,
            (read1 - read0) >> 10,
            (hit - opened) / 1e6,
            (read2 - read1) >> 10,
            gets,
            (done - hit) / 1e6);
      }
    }
  }

  /** Loads, mixes and closes a fresh cache of {@code n} entries beside the probed one. */
  private static void prime(StoreSpec probed, long n, int valueBytes, KeyOrder keys)
      throws IOException, InterruptedException {
    Path directory = probed.directory().resolveSibling(probed.directory().getFileName() + ".prime");
    if (Files.exists(directory)) {
      BenchDirectory.deleteTree(directory);
    }
    StoreSpec spec =
        new StoreSpec(n, valueBytes, 0, directory, probed.durability(), probed.hugePages());
    try (CacheStore store = CacheStoreKind.CAIRN.open(spec)) {
      CachePhases phases = new CachePhases(store, n, 2, valueBytes, 1, keys);
      phases.load();
      phases.mixed(2, null);
    } finally {
      BenchDirectory.deleteTree(directory);
    }
    Thread.sleep(2_000); // the JIT's queue drains, as after the bench's phases
  }

  /** Bytes this process has had read from storage; -1 where /proc/self/io is not readable. */
  private static long readBytes() {
    try {
      for (String line : Files.readAllLines(IO)) {
        if (line.startsWith("read_bytes:")) {
          return Long.parseLong(line.substring("read_bytes:".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
