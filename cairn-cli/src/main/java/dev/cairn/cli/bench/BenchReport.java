package dev.cairn.cli.bench;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The outcome of a bench run: its settings and one result per store, in run order.
 *
 * @param config what was run
 * @param results one per store in {@code config.stores()}
 */
public record BenchReport(BenchConfig config, List<StoreResult> results) {

  public BenchReport {
    results = List.copyOf(results);
  }

  public Optional<StoreResult> result(StoreKind store) {
    return results.stream().filter(r -> r.store() == store).findFirst();
  }

  /**
   * Pile figure divided by map figure, for each metric both stores have. A ratio whose map
   * figure is zero has no value: it maps to {@code null}. Empty unless both stores ran.
   */
  public Map<Metric, Double> ratios() {
    Map<Metric, Double> ratios = new EnumMap<>(Metric.class);
    Optional<StoreResult> pile = result(StoreKind.PILE);
    Optional<StoreResult> map = result(StoreKind.MAP);
    if (pile.isEmpty() || map.isEmpty()) {
      return ratios;
    }
    for (Metric metric : Metric.values()) {
      OptionalDouble pileValue = pile.get().get(metric);
      OptionalDouble mapValue = map.get().get(metric);
      if (pileValue.isPresent() && mapValue.isPresent()) {
        ratios.put(
            metric,
            mapValue.getAsDouble() == 0 ? null : pileValue.getAsDouble() / mapValue.getAsDouble());
      }
    }
    return ratios;
  }
}
