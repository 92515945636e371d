package dev.cairn.bench.harness;

import dev.cairn.bench.report.RunFigures;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The outcome of a bench run: its settings, one result per store in run order, and the figures of
 * the machine it ran on.
 *
 * @param config what was run
 * @param results one per store in {@code config.stores()} that ran
 * @param machine the run's machine figures (fsync latency, disk read rate, skipped stores)
 */
public record BenchReport(BenchConfig config, List<StoreResult> results, MachineFigures machine) {

  public BenchReport {
    results = List.copyOf(results);
  }

  /** A report with no machine figures. */
  public BenchReport(BenchConfig config, List<StoreResult> results) {
    this(config, results, new MachineFigures());
  }

  public Optional<StoreResult> result(StoreKind store) {
    return results.stream().filter(r -> r.store() == store).findFirst();
  }

  /** Pile figure divided by map figure: the ratios of {@link Comparison#PILE_TO_MAP}. */
  public Map<Metric, Double> ratios() {
    return ratios(Comparison.PILE_TO_MAP);
  }

  /**
   * Subject figure divided by baseline figure, for each metric both stores report. A ratio whose
   * baseline figure is zero, or whose figures are not both reliable ({@link
   * StoreResult#unreliable()}), has no value: it maps to {@code null}. Empty unless both stores
   * ran.
   */
  public Map<Metric, Double> ratios(Comparison comparison) {
    Map<Metric, Double> ratios = new EnumMap<>(Metric.class);
    Optional<StoreResult> subject = result(comparison.subject());
    Optional<StoreResult> baseline = result(comparison.baseline());
    if (subject.isEmpty() || baseline.isEmpty()) {
      return ratios;
    }
    for (Metric metric : Metric.values()) {
      OptionalDouble subjectValue = subject.get().get(metric);
      OptionalDouble baselineValue = baseline.get().get(metric);
      if (subjectValue.isPresent() && baselineValue.isPresent()) {
        ratios.put(
            metric,
            baselineValue.getAsDouble() == 0
                ? null
                : subjectValue.getAsDouble() / baselineValue.getAsDouble());
      } else if (subject.get().reported(metric) && baseline.get().reported(metric)) {
        ratios.put(metric, null); // one of them, or both, is unreliable
      }
    }
    return ratios;
  }

  /** The comparisons whose two stores both ran, in {@link Comparison} order. */
  public List<Comparison> comparisons() {
    return Arrays.stream(Comparison.values())
        .filter(c -> result(c.subject()).isPresent() && result(c.baseline()).isPresent())
        .toList();
  }

  /** The run in the shape of every workload's report, for {@code --html}. */
  public RunFigures runFigures() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("values", String.format(Locale.ROOT, "%,d", config.n()));
    settings.put(
        "value",
        config.valueKind().sized()
            ? config.valueKind().label() + ", " + config.valueSize() + " bytes"
            : config.valueKind().label());
    settings.put("threads", Integer.toString(config.threads()));
    settings.put("get order", config.getOrder().label());
    if (config.directory() != null) {
      settings.put("directory", config.directory().toString());
      settings.put("durability", config.durability().name().toLowerCase(Locale.ROOT));
    }
    Map<String, Map<String, Double>> stores = new LinkedHashMap<>();
    Map<String, String> notes = new LinkedHashMap<>();
    for (StoreResult result : results) {
      Map<String, Double> figures = new LinkedHashMap<>();
      result.values().forEach((metric, value) -> figures.put(metric.key(), value));
      stores.put(result.store().label(), figures);
      result
          .unreliable()
          .forEach(
              (metric, reason) ->
                  notes.merge(
                      result.store().label(),
                      metric.key() + " unreliable: " + reason,
                      (a, b) -> a + "; " + b));
    }
    machine.skipped().forEach((store, reason) -> notes.put(store.label(), "skipped: " + reason));
    Map<String, Map<String, Double>> pairs = new LinkedHashMap<>();
    for (Comparison comparison : comparisons()) {
      Map<String, Double> ratios = new LinkedHashMap<>();
      ratios(comparison).forEach((metric, value) -> ratios.put(metric.key(), value));
      pairs.put(comparison.label(), ratios);
    }
    return new RunFigures(
        config.workload().label(), settings, stores, pairs, notes, JsonReport.render(this));
  }
}
