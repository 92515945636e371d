package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.process.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.cache.Cache;
import javax.cache.CacheManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a JVM writing through JCache to a persistent {@code SYNC} manager ({@link
 * JCacheKillWorkload}) with SIGKILL, opens the manager again in this JVM, and checks after every
 * kill: its caches are there with their configurations, every acknowledged put, remove and entry
 * processor holds and its value decodes (a record's class descriptor was durable before the value
 * that names it), the write in flight on each thread left the old value or the new one, and the
 * cache under the provider verifies (index and pile agree). 3 cycles over one directory by default;
 * {@code -Dcairn.soak=true} runs 20.
 */
class JCacheKillNineTest {
  @TempDir Path temp;

  @Test
  void afterKillNine_everyAcknowledgedWriteHolds_inEveryStoredForm() throws Exception {
    long seed = Long.getLong("cairn.seed", new SplittableRandom().nextLong());
    System.out.println("JCacheKillNineTest seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    int cycles = Boolean.getBoolean("cairn.soak") ? 20 : 3;
    Path dir = Files.createDirectories(temp.resolve("jcache"));
    Map<String, String> model = new HashMap<>(); // "cache key" -> value's toString; null: none
    for (int cycle = 1; cycle <= cycles; cycle++) {
      String label = "seed=" + seed + " cycle=" + cycle;
      Map<String, String> inFlight = new HashMap<>(); // "cache key" -> the write not acknowledged
      List<String> command =
          ChildJvm.command(
              JCacheKillWorkload.class,
              List.of(CairnCachingProvider.class, javax.cache.Cache.class),
              List.of("-Xmx256m", "--enable-native-access=ALL-UNNAMED"),
              List.of(
                  dir.toString(),
                  Long.toString(random.nextLong()),
                  Integer.toString(2 + random.nextInt(2))));
      Path stderr = temp.resolve("child-" + cycle + ".stderr");
      Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
      long acknowledged = 0;
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line = lines.readLine();
        if (!"READY".equals(line)) {
          child.waitFor(10, TimeUnit.SECONDS);
          throw new AssertionError(
              label
                  + ": the child did not start ("
                  + line
                  + "); its stderr:\n"
                  + Files.readString(stderr));
        }
        long killAt =
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600 + random.nextInt(1_500));
        while ((line = lines.readLine()) != null) {
          String[] f = line.split(" ", 4);
          String key = f[1] + " " + f[2];
          switch (f[0]) {
            case "W" -> inFlight.put(key, f[3]);
            case "A" -> {
              String value = inFlight.remove(key);
              model.put(key, "-".equals(value) ? null : value);
              acknowledged++;
            }
            default -> throw new AssertionError(label + ": not a protocol line: " + line);
          }
          if (System.nanoTime() >= killAt && child.isAlive()) {
            // SIGKILL, through the handle: Process.destroyForcibly would close the pipe, and the
            // lines still in it were acknowledged before the kill
            child.toHandle().destroyForcibly();
          }
        }
      } finally {
        child.destroyForcibly();
        child.waitFor(30, TimeUnit.SECONDS);
      }
      String childErrors = Files.readString(stderr);
      assertThat(childErrors)
          .as(label + ": the child's stderr")
          .doesNotContain("Exception", "Error");
      assertThat(acknowledged).as(label + ": the child wrote before it was killed").isPositive();
      System.out.println(
          label
              + ": "
              + acknowledged
              + " acknowledged writes, "
              + inFlight.size()
              + " in flight at the kill");
      try (CacheManager manager = JCacheKillWorkload.manager(dir)) {
        assertThat(manager.getCacheNames())
            .as(label + ": the caches after a restart")
            .contains("longs", "objects", "timed");
        Cache<Long, String> longs = JCacheKillWorkload.longs(manager);
        Cache<String, Object> objects = JCacheKillWorkload.objects(manager);
        Cache<String, String> timed = JCacheKillWorkload.timed(manager);
        for (Map.Entry<String, String> e : inFlight.entrySet()) {
          String got = read(longs, objects, timed, e.getKey());
          String old = model.get(e.getKey());
          String written = "-".equals(e.getValue()) ? null : e.getValue();
          assertThat(Objects.equals(got, old) || Objects.equals(got, written))
              .as(
                  label
                      + ": "
                      + e.getKey()
                      + " cut by the kill: "
                      + got
                      + ", neither "
                      + old
                      + " nor "
                      + written)
              .isTrue();
          model.put(e.getKey(), got); // whichever the reopen kept
        }
        long present = 0;
        for (Map.Entry<String, String> e : model.entrySet()) {
          assertThat(read(longs, objects, timed, e.getKey()))
              .as(label + " " + e.getKey())
              .isEqualTo(e.getValue());
          if (e.getValue() != null) {
            present++;
          }
        }
        long entries = 0;
        for (Cache<?, ?> c : List.of(longs, objects, timed)) {
          for (Cache.Entry<?, ?> ignored : c) {
            entries++;
          }
        }
        assertThat(entries).as(label + ": entries in the three caches").isEqualTo(present);
        assertThat(manager.unwrap(dev.cairn.cache.Cache.class).verify())
            .as(label + ": index and pile agree")
            .isPositive();
      }
    }
  }

  private static String read(
      Cache<Long, String> longs,
      Cache<String, Object> objects,
      Cache<String, String> timed,
      String cacheAndKey) {
    String[] f = cacheAndKey.split(" ", 2);
    Object value =
        switch (f[0]) {
          case "longs" -> longs.get(Long.parseLong(f[1]));
          case "objects" -> objects.get(f[1]);
          case "timed" -> timed.get(f[1]);
          default -> throw new AssertionError("no cache " + f[0]);
        };
    return value == null ? null : value.toString();
  }
}
