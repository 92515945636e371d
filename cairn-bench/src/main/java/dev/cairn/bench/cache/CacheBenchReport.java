package dev.cairn.bench.cache;

import dev.cairn.bench.report.RunFigures;
import dev.cairn.cli.json.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a cache bench run measured: per store, its figures by name (as {@link CacheBenchChild}
 * printed them), the stores skipped and why; rendered as a table or as JSON. Throughput figures
 * also appear as ratios of Cairn's to each peer's, the way every comparison here is read.
 *
 * @param config the run
 * @param figures per store that ran, figure name to value
 * @param skipped per store that did not, the reason
 */
public record CacheBenchReport(
    CacheBenchConfig config,
    Map<CacheStoreKind, Map<String, Double>> figures,
    Map<CacheStoreKind, String> skipped) {

  /** Figures where more is better, compared as Cairn's divided by the peer's. */
  static final List<String> THROUGHPUTS =
      List.of("loadPerSec", "mixedUniformOpsPerSec", "mixedZipfOpsPerSec", "boundedOpsPerSec");

  /** The JSON document: the run, then {@code stores.<name>}, {@code ratios}, {@code skipped}. */
  public String json() {
    JsonWriter json = new JsonWriter().beginObject();
    json.field("workload", "cache");
    json.field("n", config.n());
    json.field("threads", config.threads());
    json.field("valueBytes", config.valueBytes());
    json.field("seconds", config.seconds(), 1);
    json.field("zipfTheta", config.zipfTheta(), 2);
    json.field("keys", config.keys().label());
    if (!config.bounded()) {
      json.field("warmupKeys", config.warmupKeys());
    }
    if (config.bounded()) {
      json.field("budgetFraction", config.budgetFraction(), 3);
      json.field("budgetBytes", config.budgetBytes());
    }
    if (config.directory() != null) {
      json.field("dir", config.directory().toString());
      json.field("durability", config.durability().name().toLowerCase(Locale.ROOT));
    }
    if (config.reopen()) {
      json.field("writeBeforeKillSeconds", config.writeBeforeKillSeconds(), 1);
    }
    if (!config.hugePages()) {
      json.field("hugePages", false);
    }
    json.field("seed", config.seed());
    json.field("cores", Runtime.getRuntime().availableProcessors());
    json.field("java", Runtime.version().toString());
    json.beginObject("stores");
    figures.forEach(
        (kind, values) -> {
          json.beginObject(kind.label());
          values.forEach((name, value) -> number(json, name, value));
          json.endObject();
        });
    json.endObject();
    json.beginObject("ratios");
    ratios()
        .forEach(
            (pair, values) -> {
              json.beginObject(pair);
              values.forEach((name, value) -> number(json, name, value));
              json.endObject();
            });
    json.endObject();
    json.beginObject("skipped");
    skipped.forEach((kind, reason) -> json.field(kind.label(), reason));
    json.endObject();
    return json.endObject().toString() + System.lineSeparator();
  }

  /** The run in the shape of every workload's report, for {@code --html}. */
  public RunFigures runFigures() {
    Map<String, String> settings = new java.util.LinkedHashMap<>();
    settings.put("entries", String.format(Locale.ROOT, "%,d", config.n()));
    settings.put("keys", "long, " + config.keys().label());
    settings.put("values", config.valueBytes() + " bytes");
    settings.put("threads", Integer.toString(config.threads()));
    if (!config.bounded()) {
      settings.put(
          "warm-up before the load",
          String.format(Locale.ROOT, "%,d keys in a throwaway store, twice", config.warmupKeys()));
    }
    settings.put("each mixed phase", String.format(Locale.ROOT, "%.0f s", config.seconds()));
    settings.put("Zipf exponent", String.format(Locale.ROOT, "%.2f", config.zipfTheta()));
    if (config.bounded()) {
      settings.put(
          "budget",
          String.format(
              Locale.ROOT,
              "%.2f of the data (%,d bytes)",
              config.budgetFraction(),
              config.budgetBytes()));
    }
    if (config.directory() != null) {
      settings.put("directory", config.directory().toString());
      settings.put("durability", config.durability().name().toLowerCase(Locale.ROOT));
    }
    if (config.reopen()) {
      settings.put(
          "writes before SIGKILL",
          String.format(Locale.ROOT, "%.1f s", config.writeBeforeKillSeconds()));
    }
    settings.put("Cairn's huge pages", config.hugePages() ? "asked for" : "off");
    settings.put("seed", Long.toString(config.seed()));
    Map<String, Map<String, Double>> stores = new java.util.LinkedHashMap<>();
    figures.forEach((kind, values) -> stores.put(kind.label(), values));
    Map<String, String> notes = new java.util.LinkedHashMap<>();
    skipped.forEach((kind, reason) -> notes.put(kind.label(), "skipped: " + reason));
    return new RunFigures("cache", settings, stores, ratios(), notes, json());
  }

  /**
   * Cairn's throughput over each other store's, keyed {@code cairn/<peer>}; and, when it ran,
   * Cairn's JCache provider's over each other store's, keyed {@code cairn-jcache/<peer>} (against
   * {@code cairn}: what JCache costs over the table itself).
   */
  Map<String, Map<String, Double>> ratios() {
    Map<String, Map<String, Double>> ratios = new java.util.LinkedHashMap<>();
    for (CacheStoreKind ours : List.of(CacheStoreKind.CAIRN, CacheStoreKind.CAIRN_JCACHE)) {
      Map<String, Double> mine = figures.get(ours);
      if (mine == null) {
        continue;
      }
      figures.forEach(
          (kind, values) -> {
            if (kind == ours
                || (ours == CacheStoreKind.CAIRN && kind == CacheStoreKind.CAIRN_JCACHE)) {
              return;
            }
            Map<String, Double> pair = new java.util.LinkedHashMap<>();
            for (String name : THROUGHPUTS) {
              Double a = mine.get(name);
              Double theirs = values.get(name);
              if (a != null && theirs != null && theirs > 0) {
                pair.put(name, a / theirs);
              }
            }
            ratios.put(ours.label() + "/" + kind.label(), pair);
          });
    }
    return ratios;
  }

  /** A table: a row per figure, a column per store, then the ratios. */
  public String table() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "cache workload: n=%,d %s keys, threads=%d value=%d B, %.0f s per phase, Zipf"
                + " %.2f%s%s%n%n",
            config.n(),
            config.keys().label(),
            config.threads(),
            config.valueBytes(),
            config.seconds(),
            config.zipfTheta(),
            config.bounded()
                ? String.format(
                    Locale.ROOT,
                    ", budget %.2f of the data (%,d bytes)",
                    config.budgetFraction(),
                    config.budgetBytes())
                : "",
            config.reopen()
                ? String.format(
                    Locale.ROOT, ", writes before SIGKILL %.1f s", config.writeBeforeKillSeconds())
                : ""));
    List<CacheStoreKind> kinds = new ArrayList<>(figures.keySet());
    Set<String> names = new LinkedHashSet<>();
    figures.values().forEach(values -> names.addAll(values.keySet()));
    out.append(String.format(Locale.ROOT, "%-28s", "figure"));
    for (CacheStoreKind kind : kinds) {
      out.append(String.format(Locale.ROOT, "%16s", kind.label()));
    }
    out.append(System.lineSeparator());
    for (String name : names) {
      out.append(String.format(Locale.ROOT, "%-28s", name));
      for (CacheStoreKind kind : kinds) {
        Double value = figures.get(kind).get(name);
        out.append(String.format(Locale.ROOT, "%16s", value == null ? "-" : format(value)));
      }
      out.append(System.lineSeparator());
    }
    Map<String, Map<String, Double>> ratios = ratios();
    if (!ratios.isEmpty()) {
      out.append(System.lineSeparator());
      ratios.forEach(
          (pair, values) ->
              values.forEach(
                  (name, value) ->
                      out.append(
                          String.format(Locale.ROOT, "%-20s %-24s %6.2fx%n", pair, name, value))));
    }
    skipped.forEach(
        (kind, reason) ->
            out.append(String.format(Locale.ROOT, "%nskipped %s: %s", kind.label(), reason)));
    if (!skipped.isEmpty()) {
      out.append(System.lineSeparator());
    }
    return out.toString();
  }

  private static String format(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return Math.abs(value) >= 1000
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.3f", value);
  }

  private static void number(JsonWriter json, String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      json.nullField(name);
    } else {
      json.field(name, value, 3);
    }
  }
}
