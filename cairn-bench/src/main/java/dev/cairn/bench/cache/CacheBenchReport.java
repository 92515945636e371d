package dev.cairn.bench.cache;

import dev.cairn.bench.report.RunFigures;
import dev.cairn.cli.json.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * What a cache bench run measured: per round, per store, its figures by name (as {@link
 * CacheBenchChild} printed them), and the stores skipped and why; rendered as a table or as JSON.
 * Throughput figures also appear as ratios of Cairn's to each peer's, the way every comparison here
 * is read. A run of several rounds reports each store's figures as their medians over the rounds,
 * and each ratio as the median of the rounds' own ratios (each taken between stores of one round,
 * minutes apart rather than the whole run), with its lowest and highest.
 *
 * @param config the run
 * @param rounds each round's stores in the order they ran and their figures (at least one round)
 * @param skipped per store that did not run, or failed in some round, the reason
 */
public record CacheBenchReport(
    CacheBenchConfig config, List<Round> rounds, Map<CacheStoreKind, String> skipped) {

  /**
   * One round of a run.
   *
   * @param order the stores in the order the round ran them
   * @param figures per store that ran, figure name to value
   */
  public record Round(
      List<CacheStoreKind> order, Map<CacheStoreKind, Map<String, Double>> figures) {}

  /** Figures where more is better, compared as Cairn's divided by the peer's. */
  static final List<String> THROUGHPUTS =
      List.of("loadPerSec", "mixedUniformOpsPerSec", "mixedZipfOpsPerSec", "boundedOpsPerSec");

  public CacheBenchReport {
    if (rounds.isEmpty()) {
      throw new IllegalArgumentException("a report needs at least one round");
    }
    rounds = List.copyOf(rounds);
  }

  /**
   * Per store that ran, in the order given, each figure: its value in a run of one round, else its
   * median over the rounds that have it.
   */
  public Map<CacheStoreKind, Map<String, Double>> figures() {
    Map<CacheStoreKind, Map<String, Double>> medians = new LinkedHashMap<>();
    for (CacheStoreKind kind : config.stores()) {
      Map<String, List<Double>> values = new LinkedHashMap<>();
      for (Round round : rounds) {
        Map<String, Double> figures = round.figures().get(kind);
        if (figures != null) {
          figures.forEach(
              (name, value) -> values.computeIfAbsent(name, k -> new ArrayList<>()).add(value));
        }
      }
      if (!values.isEmpty()) {
        Map<String, Double> median = new LinkedHashMap<>();
        values.forEach((name, list) -> median.put(name, median(list)));
        medians.put(kind, median);
      }
    }
    return medians;
  }

  /** The median of {@code values} (the mean of the middle two of an even count); NaN if none. */
  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

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
    if (rounds.size() > 1) {
      json.field("rounds", rounds.size());
    }
    storesAndRatios(json, figures(), ratios());
    if (rounds.size() > 1) {
      ratioObject(json, "ratiosLowest", ratioStatistic(CacheBenchReport::lowest));
      ratioObject(json, "ratiosHighest", ratioStatistic(CacheBenchReport::highest));
      json.beginObject("byRound");
      for (int i = 0; i < rounds.size(); i++) {
        Round round = rounds.get(i);
        json.beginObject(Integer.toString(i + 1));
        json.field(
            "order", String.join(",", round.order().stream().map(CacheStoreKind::label).toList()));
        storesAndRatios(json, round.figures(), ratiosOf(round.figures()));
        json.endObject();
      }
      json.endObject();
    }
    json.beginObject("skipped");
    skipped.forEach((kind, reason) -> json.field(kind.label(), reason));
    json.endObject();
    return json.endObject().toString() + System.lineSeparator();
  }

  /** {@code stores.<name>} and {@code ratios.<pair>} of {@code figures}. */
  private void storesAndRatios(
      JsonWriter json,
      Map<CacheStoreKind, Map<String, Double>> figures,
      Map<String, Map<String, Double>> ratios) {
    json.beginObject("stores");
    figures.forEach(
        (kind, values) -> {
          json.beginObject(kind.label());
          values.forEach((name, value) -> number(json, name, value));
          json.endObject();
        });
    json.endObject();
    ratioObject(json, "ratios", ratios);
  }

  private static void ratioObject(
      JsonWriter json, String key, Map<String, Map<String, Double>> ratios) {
    json.beginObject(key);
    ratios.forEach(
        (pair, values) -> {
          json.beginObject(pair);
          values.forEach((name, value) -> number(json, name, value));
          json.endObject();
        });
    json.endObject();
  }

  /** The run in the shape of every workload's report, for {@code --html}. */
  public RunFigures runFigures() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("entries", String.format(Locale.ROOT, "%,d", config.n()));
    settings.put("keys", "long, " + config.keys().label());
    settings.put("values", config.valueBytes() + " bytes");
    settings.put("threads", Integer.toString(config.threads()));
    if (!config.bounded()) {
      settings.put(
          "warm-up before the load",
          String.format(
              Locale.ROOT,
              "%,d keys in a throwaway store, in rounds until the JIT is quiet",
              config.warmupKeys()));
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
    if (rounds.size() > 1) {
      settings.put(
          "rounds",
          rounds.size()
              + ", the stores' order reversed in every other one; each figure its median over"
              + " them, each ratio the median of the rounds' ratios");
    }
    Map<String, Map<String, Double>> stores = new LinkedHashMap<>();
    figures().forEach((kind, values) -> stores.put(kind.label(), values));
    Map<String, String> notes = new LinkedHashMap<>();
    skipped.forEach((kind, reason) -> notes.put(kind.label(), "skipped: " + reason));
    return new RunFigures("cache", settings, stores, ratios(), notes, json());
  }

  /**
   * Cairn's throughput over each other store's, keyed {@code cairn/<peer>}; and, when it ran,
   * Cairn's JCache provider's over each other store's, keyed {@code cairn-jcache/<peer>} (against
   * {@code cairn}: what JCache costs over the table itself). Over several rounds, the median of the
   * rounds' ratios.
   */
  Map<String, Map<String, Double>> ratios() {
    return ratioStatistic(CacheBenchReport::median);
  }

  /** Per pair and figure, {@code statistic} of the rounds' ratios. */
  Map<String, Map<String, Double>> ratioStatistic(ToDoubleFunction<List<Double>> statistic) {
    Map<String, Map<String, List<Double>>> all = new LinkedHashMap<>();
    for (Round round : rounds) {
      ratiosOf(round.figures())
          .forEach(
              (pair, values) ->
                  values.forEach(
                      (name, value) ->
                          all.computeIfAbsent(pair, k -> new LinkedHashMap<>())
                              .computeIfAbsent(name, k -> new ArrayList<>())
                              .add(value)));
    }
    Map<String, Map<String, Double>> result = new LinkedHashMap<>();
    all.forEach(
        (pair, values) -> {
          Map<String, Double> out = new LinkedHashMap<>();
          values.forEach((name, list) -> out.put(name, statistic.applyAsDouble(list)));
          result.put(pair, out);
        });
    return result;
  }

  /** The ratios of one round's {@code figures}, the stores taken in the run's order. */
  private Map<String, Map<String, Double>> ratiosOf(
      Map<CacheStoreKind, Map<String, Double>> figures) {
    Map<String, Map<String, Double>> ratios = new LinkedHashMap<>();
    for (CacheStoreKind ours : List.of(CacheStoreKind.CAIRN, CacheStoreKind.CAIRN_JCACHE)) {
      Map<String, Double> mine = figures.get(ours);
      if (mine == null) {
        continue;
      }
      for (CacheStoreKind kind : config.stores()) {
        Map<String, Double> values = figures.get(kind);
        if (values == null
            || kind == ours
            || (ours == CacheStoreKind.CAIRN && kind == CacheStoreKind.CAIRN_JCACHE)) {
          continue;
        }
        Map<String, Double> pair = new LinkedHashMap<>();
        for (String name : THROUGHPUTS) {
          Double a = mine.get(name);
          Double theirs = values.get(name);
          if (a != null && theirs != null && theirs > 0) {
            pair.put(name, a / theirs);
          }
        }
        ratios.put(ours.label() + "/" + kind.label(), pair);
      }
    }
    return ratios;
  }

  private static double lowest(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double highest(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
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
    if (rounds.size() > 1) {
      out.append(
          String.format(
              Locale.ROOT,
              "each figure the median of %d rounds, the stores' order reversed in every other;"
                  + " each ratio the median of the rounds' ratios (lowest-highest)%n%n",
              rounds.size()));
    }
    Map<CacheStoreKind, Map<String, Double>> figures = figures();
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
    Map<String, Map<String, Double>> lowest = ratioStatistic(CacheBenchReport::lowest);
    Map<String, Map<String, Double>> highest = ratioStatistic(CacheBenchReport::highest);
    if (!ratios.isEmpty()) {
      out.append(System.lineSeparator());
      ratios.forEach(
          (pair, values) ->
              values.forEach(
                  (name, value) -> {
                    out.append(String.format(Locale.ROOT, "%-20s %-24s %6.2fx", pair, name, value));
                    if (rounds.size() > 1) {
                      out.append(
                          String.format(
                              Locale.ROOT,
                              " (%.2f-%.2fx)",
                              lowest.get(pair).get(name),
                              highest.get(pair).get(name)));
                    }
                    out.append(System.lineSeparator());
                  }));
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
