package dev.cairn.bench.demo;

import dev.cairn.cache.Cache;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.pile.Durability;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The demo's second JVM: opens the cache the killed JVM left, gets one key (the first hit), then
 * reads every key back and checks each value. Prints one line: {@code RESTARTED <jvmToOpenMillis>
 * <openMillis> <firstHitMicros> <found> <updatesFound> <wrong> <readAllMillis>}.
 *
 * <p>Arguments: DIR N UPDATES.
 */
public final class DemoRestart {
  private DemoRestart() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long n = Long.parseLong(args[1]);
    long updates = Long.parseLong(args[2]);
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    long openStart = System.nanoTime();
    long sinceJvm = System.currentTimeMillis() - jvmStart;
    try (Cache cache = Cache.open(dir, DemoLoad.options(Durability.PERIODIC))) {
      LongCacheTable<byte[]> orders = cache.longTable(DemoCommand.TABLE, byte[].class);
      long opened = System.nanoTime();
      byte[] first = orders.get(n / 2);
      long firstHit = System.nanoTime();
      if (first == null) {
        throw new IllegalStateException("the first key looked up is missing after the restart");
      }
      long found = 0;
      long updatesFound = 0;
      long wrong = 0;
      long readStart = System.nanoTime();
      for (long k = 0; k < n; k++) {
        byte[] value = orders.get(k);
        if (value == null) {
          continue;
        }
        found++;
        if (k < updates && Arrays.equals(value, DemoLoad.order(k, 1))) {
          updatesFound++;
        } else if (!Arrays.equals(value, DemoLoad.order(k, 0))) {
          wrong++;
        }
      }
      long readEnd = System.nanoTime();
      System.out.println(
          "RESTARTED "
              + sinceJvm
              + " "
              + (opened - openStart) / 1_000_000
              + " "
              + (firstHit - opened) / 1_000
              + " "
              + found
              + " "
              + updatesFound
              + " "
              + wrong
              + " "
              + (readEnd - readStart) / 1_000_000);
    }
  }
}
