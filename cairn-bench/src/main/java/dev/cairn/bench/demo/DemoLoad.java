package dev.cairn.bench.demo;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.nio.file.Path;

/**
 * The demo's first JVM: loads {@code n} orders into a persistent cache, updates the first {@code
 * updates} of them after a checkpoint (so that the restart must replay the log), waits until its
 * log has reached the operating system, prints {@code LOADED <millis>} and waits to be killed.
 *
 * <p>Arguments: DIR N UPDATES.
 */
public final class DemoLoad {
  private DemoLoad() {}

  static CacheOptions options(Durability durability) {
    return CacheOptions.builder()
        .pile(PileOptions.builder().durability(durability).build())
        .build();
  }

  /** The value of order {@code key}, {@code version} times updated. */
  static byte[] order(long key, int version) {
    byte[] bytes = new byte[DemoCommand.VALUE_BYTES];
    long x = key * 0x9E3779B97F4A7C15L + version;
    for (int i = 0; i < bytes.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      bytes[i] = (byte) x;
    }
    return bytes;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long n = Long.parseLong(args[1]);
    long updates = Long.parseLong(args[2]);
    long start = System.nanoTime();
    Cache cache = Cache.open(dir, options(Durability.PERIODIC));
    LongCacheTable<byte[]> orders = cache.longTable(DemoCommand.TABLE, byte[].class);
    for (long k = 0; k < n; k++) {
      orders.put(k, order(k, 0));
    }
    cache.pile().checkpoint();
    for (long k = 0; k < updates; k++) {
      orders.put(k, order(k, 1));
    }
    // PERIODIC writes reach the log file within about 2 ms of being acknowledged: past that
    // they survive the kill (a power loss would need syncIntervalMillis more, and a force)
    Thread.sleep(200);
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.println("LOADED " + millis);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE); // the parent kills this JVM: no close, no final checkpoint
  }
}
