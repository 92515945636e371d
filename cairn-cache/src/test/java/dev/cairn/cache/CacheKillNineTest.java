package dev.cairn.cache;

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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a JVM writing to a persistent cache ({@link CacheKillWorkload}) with SIGKILL, reopens the
 * cache, and checks after every kill: index and pile agree ({@link Cache#verify}), every
 * acknowledged put and remove holds, the write in flight on each thread is whole or absent, and a
 * table dropped is gone (one in the middle of its drop is gone or holds what it held, some of it
 * removed). 3 cycles over one directory by default; {@code -Dcairn.soak=true} runs 30.
 */
class CacheKillNineTest {
  @TempDir Path temp;

  @Test
  void afterKillNine_everyAcknowledgedWriteHolds_andIndexAndPileAgree() throws Exception {
    long seed = Long.getLong("cairn.seed", new SplittableRandom().nextLong());
    System.out.println("CacheKillNineTest seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    int cycles = Boolean.getBoolean("cairn.soak") ? 30 : 3;
    Path dir = Files.createDirectories(temp.resolve("cache"));
    Map<String, String> model = new HashMap<>(); // key -> value; null value: removed
    for (int cycle = 1; cycle <= cycles; cycle++) {
      String label = "seed=" + seed + " cycle=" + cycle;
      Map<String, String> inFlight = new HashMap<>(); // key -> its write, not acknowledged
      List<String> command =
          ChildJvm.command(
              CacheKillWorkload.class,
              List.of(Cache.class, dev.cairn.pile.Pile.class),
              List.of("-Xmx256m", "--enable-native-access=ALL-UNNAMED"),
              List.of(
                  dir.toString(),
                  Long.toString(random.nextLong()),
                  Integer.toString(2 + random.nextInt(3))));
      Path stderr = temp.resolve("child-" + cycle + ".stderr");
      Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
      long acknowledged = 0;
      String lastDrop = "DD"; // the dropping thread's last line: DP <n>, DW or DD
      int drops = 0;
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line = lines.readLine();
        if (!"READY".equals(line)) {
          child.waitFor(10, TimeUnit.SECONDS);
          throw new AssertionError(
              label + ": the child did not start; its stderr:\n" + Files.readString(stderr));
        }
        long killAt =
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400 + random.nextInt(1_200));
        while ((line = lines.readLine()) != null) {
          String[] f = line.split(" ", 3);
          switch (f[0]) {
            case "W" -> inFlight.put(f[1], "?");
            case "P" -> {
              model.put(f[1], f[2]);
              inFlight.remove(f[1]);
              acknowledged++;
            }
            case "R" -> {
              model.put(f[1], null);
              inFlight.remove(f[1]);
              acknowledged++;
            }
            case "DP", "DW" -> lastDrop = line;
            case "DD" -> {
              lastDrop = line;
              drops++;
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
      assertThat(acknowledged).as(label + ": the child wrote before it was killed").isPositive();
      System.out.println(
          label
              + ": "
              + acknowledged
              + " acknowledged writes, "
              + inFlight.size()
              + " in flight at the kill, "
              + drops
              + " drops");
      try (Cache cache = Cache.open(dir, CacheKillWorkload.options())) {
        CacheTable<String, String> t = cache.table("t", String.class, String.class);
        long live = cache.verify();
        long expected = 0;
        for (Map.Entry<String, String> e : model.entrySet()) {
          String got = t.get(e.getKey());
          if (inFlight.containsKey(e.getKey())) {
            // the write cut by the kill: whole or absent; the reopen tells which, keep that
            e.setValue(got);
          } else {
            assertThat(got).as(label + " key " + e.getKey()).isEqualTo(e.getValue());
          }
          if (e.getValue() != null) {
            expected++;
          }
        }
        for (String key : inFlight.keySet()) {
          if (!model.containsKey(key)) { // a first put cut by the kill
            String got = t.get(key);
            model.put(key, got);
            if (got != null) {
              expected++;
            }
          }
        }
        long d =
            cache.tableNames().contains("d")
                ? cache.table("d", String.class, String.class).size()
                : -1;
        if (lastDrop.equals("DD")) {
          // after the drop the thread makes the table again and puts into it: that first put may
          // be in flight at the kill, as the put after any DP line may be
          assertThat(d)
              .as(label + ": a dropped table, or a new one, empty but for the put in flight")
              .isLessThanOrEqualTo(1);
          if (d == 1) {
            assertThat(cache.table("d", String.class, String.class).get("k1"))
                .as(label + ": the one entry is k1, the first put of the new table")
                .isEqualTo("v1");
          }
        } else if (lastDrop.equals("DW")) {
          assertThat(d).as(label + ": a drop cut by the kill").isLessThanOrEqualTo(50);
        } else {
          int acknowledgedPuts = Integer.parseInt(lastDrop.substring(3));
          assertThat(d)
              .as(label + ": " + lastDrop + ", and maybe the put in flight")
              .isBetween((long) acknowledgedPuts, acknowledgedPuts + 1L);
        }
        assertThat(live).as(label + ": entries").isEqualTo(expected + Math.max(d, 0));
      }
    }
  }
}
