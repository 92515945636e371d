package dev.cairn.bench.harness;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The figures measured for one store. A figure that could not be measured, or means nothing for
 * this store (the pile's own accounting, for the map), is absent rather than zero. A figure that
 * was measured but cannot be trusted (an RSS growth within the JVM's own noise: {@link
 * MemoryGrowth}) is {@linkplain #unreliable() unreliable}, with the reason, and has no value.
 */
public final class StoreResult {
  private final StoreKind store;
  private final EnumMap<Metric, Double> values = new EnumMap<>(Metric.class);
  private final EnumMap<Metric, String> unreliable = new EnumMap<>(Metric.class);

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
      unreliable.remove(metric);
    }
    return this;
  }

  /** Records that {@code metric} was measured but cannot be trusted, and why; it has no value. */
  public StoreResult unreliable(Metric metric, String reason) {
    values.remove(metric);
    unreliable.put(metric, reason);
    return this;
  }

  public OptionalDouble get(Metric metric) {
    Double value = values.get(metric);
    return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
  }

  /** The figures marked unreliable, each with the reason, in {@link Metric} order. */
  public Map<Metric, String> unreliable() {
    return Collections.unmodifiableMap(unreliable);
  }

  /** Whether {@code metric} has a value or was marked unreliable: the report shows it. */
  public boolean reported(Metric metric) {
    return values.containsKey(metric) || unreliable.containsKey(metric);
  }

  /** The figures present, in {@link Metric} order. */
  public Map<Metric, Double> values() {
    return Collections.unmodifiableMap(values);
  }
}
