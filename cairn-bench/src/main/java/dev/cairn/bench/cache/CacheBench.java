package dev.cairn.bench.cache;

import dev.cairn.bench.harness.BenchDirectory;
import dev.cairn.bench.harness.ChildArguments;
import dev.cairn.bench.harness.ChildJvm;
import dev.cairn.bench.harness.PageCache;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@code cairn bench --workload cache}: each store in a JVM of its own ({@link
 * CacheBenchChild}), one after the other (never two at once: they would share the cores), then,
 * with {@code --reopen}, Cairn's restart in new JVMs after a clean close (plain, then with the
 * JVM's ahead-of-time cache, JEP 483 and 514, trained on one restart) and after SIGKILL ({@link
 * RestartProbe}). A store that cannot run (a peer that fails on this JDK, a store with no bound
 * under a budget) is skipped with its reason, and the others go on.
 */
public final class CacheBench {
  /** The heap of an off-heap store's JVM: the GC target is stated at -Xmx1g. */
  private static final long OFF_HEAP_STORE_HEAP = 1L << 30;

  /** Heap per entry given to an on-heap store's JVM: about 110 B live, and room for G1 to work. */
  private static final long HEAP_PER_ENTRY = 400;

  private static final long CHILD_TIMEOUT_MINUTES = 60;

  /** Direct memory beyond Ehcache's tier, for its own buffers and the JDK's. */
  private static final long DIRECT_MEMORY_SLACK_MIB = 256;

  private final CacheBenchConfig config;
  private final Consumer<String> notices;

  public CacheBench(CacheBenchConfig config, Consumer<String> notices) {
    this.config = config;
    this.notices = notices;
  }

  /**
   * Runs every store, in as many rounds as the run asks, then the restarts.
   *
   * @throws IOException if a child JVM cannot be started or read, or a round's persistent cache
   *     cannot be deleted
   */
  public CacheBenchReport run() throws IOException, InterruptedException {
    List<CacheBenchReport.Round> rounds = new ArrayList<>();
    Map<CacheStoreKind, String> skipped = new EnumMap<>(CacheStoreKind.class);
    for (int round = 0; round < config.rounds(); round++) {
      Map<CacheStoreKind, Map<String, Double>> figures = new LinkedHashMap<>();
      for (CacheStoreKind kind : config.storesInRound(round)) {
        if (config.bounded() && !kind.boundable()) {
          skipped.put(kind, "it has no bound by bytes");
          continue;
        }
        if (skipped.containsKey(kind)) {
          continue; // failed in an earlier round: its figures would not be the other rounds'
        }
        notices.accept(roundPrefix(round) + "running " + kind.label() + " in its own JVM");
        try {
          if (round > 0
              && kind.persistent()
              && config.directory() != null
              && Files.exists(config.cacheDirectory())) {
            BenchDirectory.deleteTree(config.cacheDirectory()); // each round loads an empty one
          }
          Child child = start(CacheBenchChild.class, heapOptions(kind), childArguments(kind));
          figures.put(kind, child.finish());
        } catch (ChildFailedException e) {
          notices.accept(kind.label() + " failed: " + e.getMessage());
          skipped.put(kind, e.getMessage());
        }
      }
      rounds.add(new CacheBenchReport.Round(config.storesInRound(round), figures));
    }
    for (CacheBenchReport.Round round : rounds) {
      round.figures().keySet().removeIf(skipped::containsKey);
    }
    Map<String, Double> cairn = rounds.getLast().figures().get(CacheStoreKind.CAIRN);
    if (config.reopen() && cairn != null) {
      try {
        restarts(cairn); // of the last round's cache, so into its figures
      } catch (ChildFailedException e) {
        notices.accept("cairn's restart failed: " + e.getMessage());
        skipped.put(CacheStoreKind.CAIRN, "restart: " + e.getMessage());
      }
    }
    return new CacheBenchReport(config, rounds, skipped);
  }

  /** "round 2 of 5: " when the run has rounds, else nothing. */
  private String roundPrefix(int round) {
    return config.rounds() == 1 ? "" : "round " + (round + 1) + " of " + config.rounds() + ": ";
  }

  /** Restart after a clean close, then after SIGKILL of a JVM writing to the cache. */
  private void restarts(Map<String, Double> cairn)
      throws IOException, InterruptedException, ChildFailedException {
    notices.accept("restarting cairn's cache in a new JVM");
    restart(cairn, "restart", List.of());
    String directories = directoriesOnClassPath(RestartProbe.class);
    if (directories.isEmpty()) {
      restartWithAotCache(cairn);
    } else {
      notices.accept(
          "no restart with the JVM's ahead-of-time cache: it takes only jars on the class path,"
              + " and this one has directories ("
              + directories
              + "); ./cairn bench runs from jars");
    }
    notices.accept("writing to cairn's cache in a new JVM, then SIGKILL");
    Child writer = start(RestartProbe.class, List.of(), probeArguments("write"));
    writer.awaitLine("WRITING");
    // how long the writer runs decides how much log the restart replays
    Thread.sleep(Math.round(config.writeBeforeKillSeconds() * 1000));
    writer.kill();
    notices.accept("restarting cairn's cache after the kill");
    restart(cairn, "restartAfterKill", List.of());
  }

  /**
   * A restart with the JVM's ahead-of-time cache of classes (JEP 483 and 514), trained by one
   * restart first: the classes a restart loads come loaded and linked. A failure is a notice, not
   * the end of the restarts.
   */
  private void restartWithAotCache(Map<String, Double> cairn)
      throws IOException, InterruptedException {
    Path aot = config.directory().resolve(BenchDirectory.RESTART_AOT_FILE);
    notices.accept("training the JVM's ahead-of-time cache on a restart (" + aot + ")");
    try {
      Files.deleteIfExists(aot);
      start(RestartProbe.class, List.of("-XX:AOTCacheOutput=" + aot), probeArguments("hit"))
          .finish();
      notices.accept("restarting cairn's cache in a new JVM with that cache");
      // AOTMode=on: a JVM that cannot use the cache fails, rather than quietly timing without it
      restart(cairn, "restartAot", List.of("-XX:AOTCache=" + aot, "-XX:AOTMode=on"));
    } catch (ChildFailedException e) {
      notices.accept("the restart with the JVM's ahead-of-time cache failed: " + e.getMessage());
    }
  }

  /** The entries of the child's class path that are not jar files, comma-separated, or "". */
  static String directoriesOnClassPath(Class<?> main) {
    List<String> command = ChildJvm.command(main, List.of());
    String classPath = command.get(command.indexOf("-cp") + 1);
    List<String> others = new ArrayList<>();
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      if (!(entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)))) {
        others.add(entry);
      }
    }
    return String.join(", ", others);
  }

  /**
   * Starts a new JVM (with {@code jvmOptions}) that opens the cache and gets one key; times start
   * to its HIT line.
   */
  private void restart(Map<String, Double> into, String prefix, List<String> jvmOptions)
      throws IOException, InterruptedException, ChildFailedException {
    boolean cold = config.dropCaches() && PageCache.drop();
    long start = System.nanoTime();
    Child probe = start(RestartProbe.class, jvmOptions, probeArguments("hit"));
    probe.awaitLine("HIT");
    into.put(prefix + "FirstHitMs", (System.nanoTime() - start) / 1e6);
    Map<String, Double> own = probe.finish();
    into.put(prefix + "OpenMs", own.get("openMs"));
    into.put(prefix + "RecordsReplayed", own.get("recordsReplayed"));
    into.put(prefix + "ReplayMs", own.get("replayMs"));
    into.put(prefix + "EndSearchMs", own.get("endSearchMs"));
    into.put(prefix + "EndSearchBytes", own.get("endSearchBytes"));
    into.put(prefix + "ColdCache", cold ? 1.0 : 0.0);
  }

  private List<String> heapOptions(CacheStoreKind kind) {
    long heap =
        kind.onHeap()
            ? Math.max(OFF_HEAP_STORE_HEAP, config.n() * HEAP_PER_ENTRY)
            : OFF_HEAP_STORE_HEAP;
    List<String> options = new ArrayList<>(List.of("-Xmx" + (heap >> 20) + "m"));
    if (kind == CacheStoreKind.EHCACHE) {
      // its off-heap tier is direct memory, which the JVM caps at the heap's size by default
      long tier = EhcacheStore.tierBytes(spec());
      options.add("-XX:MaxDirectMemorySize=" + ((tier >> 20) + DIRECT_MEMORY_SLACK_MIB) + "m");
    }
    options.addAll(kind.jvmOptions());
    return options;
  }

  /** What the child's stores are opened with (its directory aside). */
  private StoreSpec spec() {
    return new StoreSpec(
        config.n(),
        config.valueBytes(),
        config.budgetBytes(),
        null,
        config.durability(),
        config.hugePages());
  }

  /** The arguments of {@link CacheBenchChild} for {@code kind}. */
  List<String> childArguments(CacheStoreKind kind) {
    Map<String, Object> arguments = new LinkedHashMap<>();
    arguments.put("store", kind.label());
    arguments.put("n", config.n());
    arguments.put("threads", config.threads());
    arguments.put("size", config.valueBytes());
    arguments.put("seconds", config.seconds());
    arguments.put("theta", config.zipfTheta());
    arguments.put("keys", config.keys().label());
    arguments.put("warmup", config.warmupKeys());
    arguments.put("budget", config.budgetBytes());
    boolean persistent = kind.persistent() && config.directory() != null;
    arguments.put("dir", persistent ? config.cacheDirectory() : "");
    arguments.put("warmupDir", persistent ? config.warmupDirectory() : "");
    arguments.put("durability", config.durability().name().toLowerCase(java.util.Locale.ROOT));
    arguments.put("reopen", persistent && config.reopen());
    arguments.put("drop", config.dropCaches());
    arguments.put("huge", config.hugePages());
    arguments.put("seed", config.seed());
    return ChildArguments.of(arguments);
  }

  private List<String> probeArguments(String mode) {
    Map<String, Object> arguments = new LinkedHashMap<>();
    arguments.put("mode", mode);
    arguments.put("dir", config.cacheDirectory());
    arguments.put("n", config.n());
    arguments.put("size", config.valueBytes());
    arguments.put("durability", config.durability().name().toLowerCase(java.util.Locale.ROOT));
    arguments.put("huge", config.hugePages());
    arguments.put("seed", config.seed() + 1);
    arguments.put("keys", config.keys().label());
    return ChildArguments.of(arguments);
  }

  private Child start(Class<?> main, List<String> jvmOptions, List<String> arguments)
      throws IOException {
    Path errors = Files.createTempFile("cairn-cache-bench", ".err");
    Process process =
        new ProcessBuilder(ChildJvm.command(main, jvmOptions, arguments))
            .redirectError(errors.toFile())
            .start();
    return new Child(process, errors);
  }

  /** A child JVM whose stdout is read line by line. */
  private static final class Child {
    private final Process process;
    private final Path errors;
    private final BufferedReader out;
    private final Map<String, Double> results = new LinkedHashMap<>();

    Child(Process process, Path errors) {
      this.process = process;
      this.errors = errors;
      this.out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads until {@code marker}, keeping the results before it. */
    void awaitLine(String marker) throws IOException, InterruptedException, ChildFailedException {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals(marker)) {
          return;
        }
        take(line);
      }
      throw failure();
    }

    /** Reads the rest of its output and waits for it to exit. */
    Map<String, Double> finish() throws IOException, InterruptedException, ChildFailedException {
      String line;
      while ((line = out.readLine()) != null) {
        take(line);
      }
      if (!process.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new ChildFailedException("did not exit within " + CHILD_TIMEOUT_MINUTES + " minutes");
      }
      if (process.exitValue() != 0) {
        throw failure();
      }
      Files.deleteIfExists(errors);
      return results;
    }

    void kill() throws InterruptedException, IOException {
      process.destroyForcibly(); // SIGKILL on Linux
      process.waitFor();
      Files.deleteIfExists(errors);
    }

    private void take(String line) {
      if (line.startsWith("RESULT ")) {
        String[] parts = line.split(" ");
        results.put(parts[1], Double.parseDouble(parts[2]));
      }
    }

    private ChildFailedException failure() throws InterruptedException, IOException {
      process.waitFor(10, TimeUnit.SECONDS);
      List<String> lines = Files.readAllLines(errors, StandardCharsets.UTF_8);
      String last =
          lines.stream()
              .filter(l -> !l.isBlank() && !l.startsWith("\tat ") && !l.startsWith("WARNING"))
              .reduce((a, b) -> b)
              .orElse("no message");
      String firstError =
          lines.stream()
              .filter(l -> l.contains("Exception") || l.contains("Error"))
              .findFirst()
              .orElse(last);
      return new ChildFailedException(
          "its JVM exited with "
              + (process.isAlive() ? "nothing yet" : process.exitValue())
              + ": "
              + firstError);
    }
  }

  /** A child JVM that failed, with the first error it printed. */
  static final class ChildFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    ChildFailedException(String message) {
      super(message);
    }
  }
}
