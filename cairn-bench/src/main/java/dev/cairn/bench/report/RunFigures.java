package dev.cairn.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One bench run's figures, in the shape every workload shares: what was run, each store's figures
 * by name, the ratios of one store's figure to another's, and what did not run.
 *
 * <p>Figure names are the JSON's ({@code loadPerSec}, {@code getP9999Micros}, {@code
 * bytesPerEntry}, ...); {@link HtmlReport} charts them by those names. A figure that was not
 * measured, or is NaN, is simply absent from its store's map.
 *
 * @param workload the workload's name, as {@code --workload} takes it
 * @param settings the run's settings, label to value, in the order to show them
 * @param stores per store that ran (in run order), figure name to value
 * @param ratios per pair {@code "subject/baseline"}, figure name to the subject's figure over the
 *     baseline's
 * @param notes per store that did not run, or whose figures carry a caveat, the reason
 * @param json the run's JSON document, as {@code --json} prints it
 */
public record RunFigures(
    String workload,
    Map<String, String> settings,
    Map<String, Map<String, Double>> stores,
    Map<String, Map<String, Double>> ratios,
    Map<String, String> notes,
    String json) {

  public RunFigures {
    settings = frozen(settings);
    Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
    stores.forEach((store, figures) -> copy.put(store, finite(figures)));
    stores = Collections.unmodifiableMap(copy);
    Map<String, Map<String, Double>> ratioCopy = new LinkedHashMap<>();
    ratios.forEach((pair, figures) -> ratioCopy.put(pair, finite(figures)));
    ratios = Collections.unmodifiableMap(ratioCopy);
    notes = frozen(notes);
  }

  private static <V> Map<String, V> frozen(Map<String, V> map) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  /** The figures that have a value: a null, NaN or infinite one is left out. */
  private static Map<String, Double> finite(Map<String, Double> figures) {
    Map<String, Double> kept = new LinkedHashMap<>();
    figures.forEach(
        (name, value) -> {
          if (value != null && Double.isFinite(value)) {
            kept.put(name, value);
          }
        });
    return Collections.unmodifiableMap(kept);
  }
}
