package dev.cairn.bench.harness;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The figures measured for one store. A figure that could not be measured, or means nothing for
 * this store (the pile's own accounting, for the map), is absent rather than zero.
 */
public final class StoreResult {
  private final StoreKind store;
  private final EnumMap<Metric, Double> values = new EnumMap<>(Metric.class);

  public StoreResult(StoreKind store) {
    this.store = store;
  }

  public StoreKind store() {
    return store;
  }

  /** Records a figure; a NaN or infinite one (nothing measured) is dropped. */
  public StoreResult put(Metric metric, double value) {
    if (Double.isFinite(value)) {
      values.put(metric, value);
    }
    return this;
  }

  public OptionalDouble get(Metric metric) {
    Double value = values.get(metric);
    return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
  }

  /** The figures present, in {@link Metric} order. */
  public Map<Metric, Double> values() {
    return Collections.unmodifiableMap(values);
  }
}
