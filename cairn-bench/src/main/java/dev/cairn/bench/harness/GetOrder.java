package dev.cairn.bench.harness;

import java.util.Locale;

/** In which order each thread reads back the values of its index range. */
public enum GetOrder {
  /**
   * Index order: consecutive values were stored side by side, so prefetching flatters both stores.
   */
  SEQUENTIAL,
  /**
   * A full-period stride through the range (step near 0.618 of its length, coprime to it): every
   * index once, consecutive reads far apart, as with a random order, at the cost of one add.
   */
  RANDOM;

  /** The name used on the command line and in the reports. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
