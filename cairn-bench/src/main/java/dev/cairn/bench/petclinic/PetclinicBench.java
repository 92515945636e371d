package dev.cairn.bench.petclinic;

import dev.cairn.bench.harness.ChildJvm;
import dev.cairn.bench.report.RunFigures;
import dev.cairn.cli.json.JsonWriter;
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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@code cairn bench --workload petclinic}: PetClinic's model (owners, pets, visits) under a
 * 90/10 mix of its pages, in four configurations ({@link PetclinicConfig}), each in a JVM of its
 * own ({@link PetclinicChild}), one after the other; then the ratios the issue asks for.
 *
 * @param owners owners created (each with two pets, each pet with one visit)
 * @param lastNames distinct last names (a search finds owners / lastNames owners)
 * @param threads threads of the mix
 * @param seconds seconds of the measured mix (the unmeasured one before it is as long, at most 10
 *     s)
 * @param configs the configurations run, in order
 * @param directory where the databases and the cache go (a subfolder per configuration)
 * @param seed the seed of the mix
 */
public record PetclinicBench(
    int owners,
    int lastNames,
    int threads,
    double seconds,
    List<PetclinicConfig> configs,
    Path directory,
    long seed) {

  private static final long CHILD_TIMEOUT_MINUTES = 30;

  /** The figures of each configuration that ran, and the reason of each that failed. */
  public record Report(
      PetclinicBench bench,
      Map<PetclinicConfig, Map<String, Double>> figures,
      Map<PetclinicConfig, String> failed) {

    /** The ratios of throughput the issue sets targets on. */
    public Map<String, Double> ratios() {
      Map<String, Double> r = new LinkedHashMap<>();
      ratio(r, PetclinicConfig.HIBERNATE_CAIRN, PetclinicConfig.HIBERNATE_EHCACHE);
      ratio(r, PetclinicConfig.HIBERNATE_CAIRN, PetclinicConfig.HIBERNATE);
      ratio(r, PetclinicConfig.HIBERNATE_EHCACHE, PetclinicConfig.HIBERNATE);
      ratio(r, PetclinicConfig.CAIRN_DIRECT, PetclinicConfig.HIBERNATE);
      return r;
    }

    private void ratio(Map<String, Double> r, PetclinicConfig ours, PetclinicConfig theirs) {
      Map<String, Double> a = figures.get(ours);
      Map<String, Double> b = figures.get(theirs);
      if (a != null && b != null && b.get("opsPerSec") > 0) {
        r.put(ours.label() + "/" + theirs.label(), a.get("opsPerSec") / b.get("opsPerSec"));
      }
    }

    /** The run in the shape of every workload's report, for {@code --html}. */
    public RunFigures runFigures() {
      Map<String, String> settings = new LinkedHashMap<>();
      settings.put("owners", String.format(Locale.ROOT, "%,d", bench.owners));
      settings.put("last names", String.format(Locale.ROOT, "%,d", bench.lastNames));
      settings.put("threads", Integer.toString(bench.threads));
      settings.put("measured", String.format(Locale.ROOT, "%.0f s", bench.seconds));
      settings.put("seed", Long.toString(bench.seed));
      Map<String, Map<String, Double>> stores = new LinkedHashMap<>();
      figures.forEach((config, values) -> stores.put(config.label(), values));
      Map<String, Map<String, Double>> pairs = new LinkedHashMap<>();
      ratios().forEach((pair, value) -> pairs.put(pair, Map.of("opsPerSec", value)));
      Map<String, String> notes = new LinkedHashMap<>();
      failed.forEach((config, reason) -> notes.put(config.label(), "failed: " + reason));
      return new RunFigures("petclinic", settings, stores, pairs, notes, json());
    }

    /** The report as JSON. */
    public String json() {
      JsonWriter json = new JsonWriter().beginObject();
      json.field("workload", "petclinic");
      json.field("owners", bench.owners);
      json.field("lastNames", bench.lastNames);
      json.field("threads", bench.threads);
      json.field("seconds", bench.seconds, 1);
      json.field("seed", bench.seed);
      json.field("cores", Runtime.getRuntime().availableProcessors());
      json.field("java", Runtime.version().toString());
      json.beginObject("stores");
      figures.forEach(
          (config, values) -> {
            json.beginObject(config.label());
            values.forEach((name, value) -> json.field(name, value, 3));
            json.endObject();
          });
      json.endObject();
      json.beginObject("ratios");
      ratios().forEach((pair, value) -> json.field(pair, value, 3));
      json.endObject();
      json.beginObject("failed");
      failed.forEach((config, reason) -> json.field(config.label(), reason));
      json.endObject();
      return json.endObject().toString() + System.lineSeparator();
    }

    /** The report as a table: a row per figure, a column per configuration, then the ratios. */
    public String table() {
      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              Locale.ROOT,
              "petclinic workload: %,d owners, %d threads, %.0f s, 90%% reads%n%n",
              bench.owners,
              bench.threads,
              bench.seconds));
      List<String> names = new ArrayList<>();
      figures
          .values()
          .forEach(
              m ->
                  m.keySet()
                      .forEach(
                          n -> {
                            if (!names.contains(n)) {
                              names.add(n);
                            }
                          }));
      out.append(String.format(Locale.ROOT, "%-18s", "figure"));
      figures.keySet().forEach(c -> out.append(String.format(Locale.ROOT, "%20s", c.label())));
      out.append(System.lineSeparator());
      for (String n : names) {
        out.append(String.format(Locale.ROOT, "%-18s", n));
        for (Map<String, Double> m : figures.values()) {
          Double v = m.get(n);
          out.append(
              String.format(
                  Locale.ROOT, "%20s", v == null ? "-" : String.format(Locale.ROOT, "%,.1f", v)));
        }
        out.append(System.lineSeparator());
      }
      out.append(System.lineSeparator());
      ratios().forEach((k, v) -> out.append(String.format(Locale.ROOT, "%-36s %.2fx%n", k, v)));
      failed.forEach(
          (k, v) ->
              out.append(k.label()).append(" failed: ").append(v).append(System.lineSeparator()));
      return out.toString();
    }
  }

  /**
   * Runs every configuration, each in a new JVM.
   *
   * @throws IOException if a child JVM cannot be started or read
   */
  public Report run(Consumer<String> notices) throws IOException, InterruptedException {
    Map<PetclinicConfig, Map<String, Double>> figures = new EnumMap<>(PetclinicConfig.class);
    Map<PetclinicConfig, String> failed = new EnumMap<>(PetclinicConfig.class);
    Files.createDirectories(directory);
    for (PetclinicConfig config : configs) {
      notices.accept("running " + config.label() + " in its own JVM");
      try {
        figures.put(config, runChild(config));
      } catch (IllegalStateException e) {
        notices.accept(config.label() + " failed: " + e.getMessage());
        failed.put(config, e.getMessage());
      }
    }
    return new Report(this, figures, failed);
  }

  private Map<String, Double> runChild(PetclinicConfig config)
      throws IOException, InterruptedException {
    List<String> arguments =
        List.of(
            "config=" + config.label(),
            "owners=" + owners,
            "lastNames=" + lastNames,
            "threads=" + threads,
            "seconds=" + seconds,
            "warmup=" + Math.min(seconds, 10),
            "dir=" + directory.toAbsolutePath(),
            "seed=" + seed);
    Path errors = Files.createTempFile("cairn-petclinic-", ".err");
    Process process =
        new ProcessBuilder(ChildJvm.command(PetclinicChild.class, List.of("-Xmx2g"), arguments))
            .redirectError(errors.toFile())
            .start();
    Map<String, Double> results = new LinkedHashMap<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          String[] parts = line.split(" ");
          results.put(parts[1], Double.parseDouble(parts[2]));
        }
      }
    }
    if (!process.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("timed out after " + CHILD_TIMEOUT_MINUTES + " minutes");
    }
    if (process.exitValue() != 0) {
      List<String> tail = Files.readAllLines(errors);
      throw new IllegalStateException(
          "exit "
              + process.exitValue()
              + ": "
              + String.join(" | ", tail.subList(Math.max(0, tail.size() - 5), tail.size())));
    }
    Files.deleteIfExists(errors);
    return results;
  }
}
