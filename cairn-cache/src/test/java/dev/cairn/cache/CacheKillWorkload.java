package dev.cairn.cache;

import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child of {@link CacheKillNineTest}: writes to a persistent SYNC cache from several threads
 * until it is killed, and says on stdout what each thread is doing and what was acknowledged. Each
 * thread owns its keys ({@code <thread>-<n>}), so a key's lines are in the order of its writes.
 * Protocol, one line each: {@code READY}; {@code W <key>} before a write; {@code P <key> <value>}
 * once a put returned; {@code R <key>} once a remove returned. One more thread fills a table "d"
 * and drops it, over and over: {@code DP <n>} once its n-th put into the table returned, {@code DW}
 * before a drop, {@code DD} once the drop returned.
 *
 * <p>Arguments: DIR SEED THREADS.
 */
public final class CacheKillWorkload {
  private CacheKillWorkload() {}

  static CacheOptions options() {
    return CacheOptions.builder()
        .pile(
            PileOptions.builder()
                .segmentBytes(4 << 20)
                .durability(Durability.SYNC)
                .logFileBytes(4 << 20)
                .logFileCount(2)
                .build())
        .build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    int threads = Integer.parseInt(args[2]);
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    Cache cache = Cache.open(dir, options());
    CacheTable<String, String> t = cache.table("t", String.class, String.class);
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      int id = w;
      SplittableRandom random = new SplittableRandom(seed + w);
      workers.add(
          Thread.ofPlatform()
              .unstarted(
                  () -> {
                    for (long n = 0; ; n++) {
                      String key = id + "-" + random.nextInt(3_000);
                      boolean put = random.nextInt(4) != 0;
                      String value = key + "=" + seed + "/" + n + "-".repeat(random.nextInt(40));
                      synchronized (out) {
                        out.println("W " + key);
                        out.flush();
                      }
                      if (put) {
                        t.put(key, value);
                      } else {
                        t.remove(key);
                      }
                      synchronized (out) {
                        out.println(put ? "P " + key + " " + value : "R " + key);
                        out.flush();
                      }
                      if (n % 500 == 499) {
                        cache.pile().checkpoint();
                      }
                    }
                  }));
    }
    workers.add(
        Thread.ofPlatform()
            .unstarted(
                () -> {
                  while (true) {
                    CacheTable<String, String> d = cache.table("d", String.class, String.class);
                    for (int n = 1; n <= 50; n++) {
                      d.put("k" + n, "v" + n);
                      synchronized (out) {
                        out.println("DP " + n);
                        out.flush();
                      }
                    }
                    synchronized (out) {
                      out.println("DW");
                      out.flush();
                    }
                    cache.dropTable("d");
                    synchronized (out) {
                      out.println("DD");
                      out.flush();
                    }
                  }
                }));
    out.println("READY");
    out.flush();
    for (Thread worker : workers) {
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
  }
}
