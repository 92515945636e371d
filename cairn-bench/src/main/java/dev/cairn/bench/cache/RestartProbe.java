package dev.cairn.bench.cache;

import dev.cairn.bench.harness.ChildArguments;
import dev.cairn.pile.DurabilityStats;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The cache workload's restart, in a new JVM. Mode {@code hit}: opens the persistent cache, gets
 * one key and prints {@code HIT} at once (the parent times from starting this process to reading
 * that line), then its own open and first-hit times as {@code RESULT} lines, and checks a sample of
 * keys. Mode {@code write}: opens it, prints {@code WRITING}, and overwrites random keys until the
 * parent kills it with SIGKILL, so that the next open must recover.
 *
 * <p>Arguments: {@code name=value} pairs: mode, dir, n, size, durability, huge, seed.
 */
public final class RestartProbe {
  private RestartProbe() {}

  /** The persistent cache the arguments name: dir, n, size, durability, huge. */
  static StoreSpec spec(Map<String, String> arguments) {
    return new StoreSpec(
        Long.parseLong(arguments.get("n")),
        Integer.parseInt(arguments.get("size")),
        0,
        Path.of(arguments.get("dir")),
        ChildArguments.durability(arguments.get("durability")),
        Boolean.parseBoolean(arguments.get("huge")));
  }

  public static void main(String[] args) throws Exception {
    long mainStart = System.nanoTime();
    Map<String, String> arguments = ChildArguments.parse(args);
    long n = Long.parseLong(arguments.get("n"));
    int valueBytes = Integer.parseInt(arguments.get("size"));
    long seed = Long.parseLong(arguments.get("seed"));
    KeyOrder keys = KeyOrder.of(arguments.get("keys"));
    StoreSpec spec = spec(arguments);
    SplittableRandom random = new SplittableRandom(seed);
    byte[] buffer = new byte[valueBytes];
    switch (arguments.get("mode")) {
      case "hit" -> {
        long key = keys.key(random.nextLong(n));
        try (CairnStore store = CairnStore.open(spec)) {
          long opened = System.nanoTime();
          int length = store.get(key, buffer);
          long hit = System.nanoTime();
          System.out.println("HIT");
          System.out.flush();
          Values.check(buffer, length, key, valueBytes);
          CacheBenchChild.result("openMs", (opened - mainStart) / 1e6);
          CacheBenchChild.result("firstHitMs", (hit - mainStart) / 1e6);
          DurabilityStats recovery = store.durabilityStats();
          CacheBenchChild.result("recordsReplayed", (double) recovery.recordsReplayed());
          CacheBenchChild.result("bytesReplayed", (double) recovery.bytesReplayed());
          CacheBenchChild.result("replayMs", (double) recovery.replayMillis());
          CacheBenchChild.result("endSearchMs", (double) recovery.endSearchMillis());
          CacheBenchChild.result("endSearchBytes", (double) recovery.endSearchBytes());
          for (int i = 0; i < 100_000; i++) {
            long k = keys.key(random.nextLong(n));
            Values.check(buffer, store.get(k, buffer), k, valueBytes);
          }
        }
      }
      case "write" -> {
        CacheStore store = CairnStore.open(spec);
        for (long version = 1_000_000; ; version++) {
          long key = keys.key(random.nextLong(n));
          Values.fill(buffer, key, version);
          store.put(key, buffer);
          if (version == 1_010_000) {
            System.out.println("WRITING");
            System.out.flush();
          }
        }
      }
      default -> throw new IllegalArgumentException("mode must be hit or write");
    }
    System.out.flush();
  }
}
