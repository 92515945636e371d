package dev.cairn.bench.demo;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cairn.bench.harness.ChildJvm;
import dev.cairn.cli.CommandFailedException;
import dev.cairn.cli.CountConverter;
import dev.cairn.cli.json.JsonWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cairn demo}: a persistent cache loaded, killed with SIGKILL, and serving its first hit in
 * a new JVM, beside what Caffeine and a ConcurrentHashMap hold after a restart.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Loads N orders (8-byte keys, 100-byte values) into a persistent Cairn cache in a child"
          + " JVM, kills that JVM with SIGKILL (no close, no final checkpoint), opens the cache in"
          + " a new JVM, times its first hit and checks every order. Beside it, in this JVM, loads"
          + " the same orders into Caffeine and a ConcurrentHashMap: after a restart they hold"
          + " nothing, and their first hit waits for such a refill.",
    })
public final class DemoCommand implements Callable<Integer> {
  static final String TABLE = "orders";
  static final int VALUE_BYTES = 100;
  static final String HOME_PROPERTY = "cairn.home";

  @Option(
      names = {"-n", "--n"},
      defaultValue = "1M",
      converter = CountConverter.class,
      description = "Orders to load (suffixes k, M). Default: ${DEFAULT-VALUE}.")
  private long n;

  @Option(
      names = "--updates",
      converter = CountConverter.class,
      description =
          "Orders updated after the load's checkpoint, which the restart replays from"
              + " the log. Default: 10k, or N if it is smaller.")
  private long updatesOption = -1; // not given

  private long updates;

  @Option(
      names = "--dir",
      description =
          "The demo's directory: missing, empty, or one an earlier demo made (marked so), whose"
              + " cache it replaces. Default: target/demo-cache in the Cairn working tree.")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON document on stdout instead of text.")
  private boolean json;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    updates = updatesOption >= 0 ? updatesOption : Math.min(10_000, n);
    if (n < 1 || updates > n) {
      throw new CommandFailedException("need 1 <= updates <= n: n=" + n + " updates=" + updates);
    }
    Path directory = dir != null ? dir : defaultDirectory();
    Path cacheDirectory = prepare(directory);
    PrintWriter err = spec.commandLine().getErr();
    err.printf(Locale.ROOT, "loading %,d orders into %s (child JVM)...%n", n, directory);
    err.flush();
    long loadMillis = load(cacheDirectory);
    err.println("killed it with SIGKILL; opening the cache in a new JVM...");
    err.flush();
    String[] restart = run(DemoRestart.class, cacheDirectory, "RESTARTED");
    err.println("loading the same orders into Caffeine and a ConcurrentHashMap...");
    err.flush();
    Peer caffeine = peer(Caffeine.newBuilder().<Long, byte[]>build().asMap());
    Peer map = peer(new ConcurrentHashMap<>());
    PrintWriter out = spec.commandLine().getOut();
    long found = Long.parseLong(restart[4]);
    long updatesFound = Long.parseLong(restart[5]);
    long wrong = Long.parseLong(restart[6]);
    if (json) {
      out.println(
          new JsonWriter()
              .beginObject()
              .field("orders", n)
              .field("valueBytes", VALUE_BYTES)
              .field("updates", updates)
              .field("directory", directory.toString())
              .beginObject("cairn")
              .field("loadMillis", loadMillis)
              .field("jvmStartToOpenMillis", Long.parseLong(restart[1]))
              .field("openMillis", Long.parseLong(restart[2]))
              .field("firstHitMicros", Long.parseLong(restart[3]))
              .field("found", found)
              .field("updatesFound", updatesFound)
              .field("wrong", wrong)
              .field("readAllMillis", Long.parseLong(restart[7]))
              .endObject()
              .beginObject("caffeine")
              .field("entriesAfterRestart", 0)
              .field("refillMillis", caffeine.millis)
              .field("heapBytesPerEntry", caffeine.heapPerEntry)
              .endObject()
              .beginObject("concurrentHashMap")
              .field("entriesAfterRestart", 0)
              .field("refillMillis", map.millis)
              .field("heapBytesPerEntry", map.heapPerEntry)
              .endObject()
              .endObject());
    } else {
      out.printf(
          Locale.ROOT,
          "%nCairn demo: %,d orders (8-byte key, %d-byte value) in a persistent" + " cache, %s%n%n",
          n,
          VALUE_BYTES,
          directory);
      out.printf(
          Locale.ROOT,
          "  load, child JVM:    %,d puts and %,d updates in %.1f s, then" + " SIGKILL%n",
          n,
          updates,
          loadMillis / 1000.0);
      out.printf(
          Locale.ROOT,
          "  restart, new JVM:   open %d ms, first hit %.2f ms later%n",
          Long.parseLong(restart[2]),
          Long.parseLong(restart[3]) / 1000.0);
      out.printf(
          Locale.ROOT,
          "  after the restart:  %,d of %,d orders, %,d of %,d updates, %d"
              + " wrong; all read back in %.1f s%n%n",
          found,
          n,
          updatesFound,
          updates,
          wrong,
          Long.parseLong(restart[7]) / 1000.0);
      out.printf(
          Locale.ROOT,
          "  %-24s %20s %26s %16s%n",
          "the same orders in",
          "after a restart",
          "before the first hit",
          "heap per entry");
      out.printf(
          Locale.ROOT,
          "  %-24s %20s %26s %16s%n",
          "Cairn (off-heap)",
          String.format(Locale.ROOT, "%,d entries", found),
          String.format(Locale.ROOT, "open: %d ms", Long.parseLong(restart[2])),
          "~0 B");
      out.printf(
          Locale.ROOT,
          "  %-24s %20s %26s %16s%n",
          "Caffeine (heap)",
          "0 entries",
          String.format(Locale.ROOT, "refill: %,d ms", caffeine.millis),
          caffeine.heapPerEntry + " B");
      out.printf(
          Locale.ROOT,
          "  %-24s %20s %26s %16s%n",
          "ConcurrentHashMap",
          "0 entries",
          String.format(Locale.ROOT, "refill: %,d ms", map.millis),
          map.heapPerEntry + " B");
      out.printf(
          Locale.ROOT,
          "%n  (a refill here copies the orders from memory; from a database"
              + " it takes longer)%n");
    }
    out.flush();
    return found == n && updatesFound == updates && wrong == 0 ? 0 : 1;
  }

  private static Path defaultDirectory() {
    String home = System.getProperty(HOME_PROPERTY);
    return (home != null ? Path.of(home) : Path.of(""))
        .resolve("target")
        .resolve("demo-cache")
        .toAbsolutePath();
  }

  /** The file that marks a directory as the demo's own: only such a one is emptied. */
  static final String MARKER = "CAIRN-DEMO";

  /**
   * Makes {@code directory} the demo's, empty but for its marker: a missing or empty directory, or
   * one a previous demo left (it holds the marker), whose cache is deleted. Anything else is
   * refused untouched: the demo never deletes what it did not make.
   *
   * @return the cache's directory inside it
   */
  private static Path prepare(Path directory) throws IOException {
    Path cache = directory.resolve("cache");
    if (Files.exists(directory)) {
      try (Stream<Path> files = Files.list(directory)) {
        List<Path> list = files.toList();
        if (!list.isEmpty() && !Files.exists(directory.resolve(MARKER))) {
          throw new CommandFailedException(
              directory
                  + " is not empty and is not a directory"
                  + " cairn demo made: give --dir a directory of its own");
        }
      }
      if (Files.exists(cache)) {
        try (Stream<Path> walk = Files.walk(cache)) {
          for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
    Files.createDirectories(directory);
    Files.writeString(directory.resolve(MARKER), "made by cairn demo, which empties it\n");
    return cache;
  }

  /** Runs the loader, waits for its LOADED line, kills it with SIGKILL; its load time. */
  private long load(Path directory) throws IOException, InterruptedException {
    Process child =
        new ProcessBuilder(command(DemoLoad.class, directory))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line = lines.readLine();
      if (line == null || !line.startsWith("LOADED ")) {
        throw new CommandFailedException("the loading JVM stopped without loading: " + line);
      }
      child.destroyForcibly(); // SIGKILL on Linux
      child.waitFor(30, TimeUnit.SECONDS);
      return Long.parseLong(line.substring("LOADED ".length()).trim());
    } finally {
      child.destroyForcibly();
    }
  }

  private String[] run(Class<?> main, Path directory, String tag)
      throws IOException, InterruptedException {
    Process child =
        new ProcessBuilder(command(main, directory))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String result = null;
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith(tag + " ")) {
          result = line;
        }
      }
    }
    int exit = child.waitFor();
    if (result == null || exit != 0) {
      throw new CommandFailedException(main.getSimpleName() + " failed (exit " + exit + ")");
    }
    return result.split(" ");
  }

  private List<String> command(Class<?> main, Path directory) {
    return ChildJvm.command(
        main, List.of(directory.toString(), Long.toString(n), Long.toString(updates)));
  }

  /** A peer's refill time and heap per entry. */
  private record Peer(long millis, long heapPerEntry) {}

  private Peer peer(Map<Long, byte[]> map) {
    long before = usedHeap();
    long start = System.nanoTime();
    for (long k = 0; k < n; k++) {
      map.put(k, DemoLoad.order(k, k < updates ? 1 : 0));
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    long perEntry = Math.max(0, usedHeap() - before) / n;
    if (map.size() != n) {
      throw new IllegalStateException("the peer holds " + map.size() + " of " + n);
    }
    map.clear();
    return new Peer(millis, perEntry);
  }

  @SuppressWarnings("Finalization") // no finalizers here: System.gc only settles the heap figure
  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
