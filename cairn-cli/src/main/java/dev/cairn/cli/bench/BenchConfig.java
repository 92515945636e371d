package dev.cairn.cli.bench;

import java.util.EnumSet;
import java.util.List;

/**
 * What one {@code cairn bench} run does.
 *
 * @param n values to put into each store, then get back
 * @param threads worker threads; the index range is split evenly among them
 * @param valueKind what each value is
 * @param valueSize characters of a string value, bytes of a byte[] value
 * @param stores the stores to measure, in run order (pile before map), each once
 * @param getOrder in which order the gets visit the values
 * @param churnCycles after the gets, how many times to delete a random half of the values and
 *     put them back (0: none); the RSS growth this causes is reported as a share of the load's
 */
public record BenchConfig(
    int n,
    int threads,
    BenchValueKind valueKind,
    int valueSize,
    List<StoreKind> stores,
    GetOrder getOrder,
    int churnCycles) {

  /** The largest n: the pile's pointers are kept in one {@code long[n]}. */
  public static final int MAX_N = Integer.MAX_VALUE - 8;

  /** The largest value: well inside the pile's default 64 MiB segment. */
  public static final int MAX_VALUE_SIZE = 16 << 20;

  public static final int MAX_THREADS = 1024;

  /**
   * @throws IllegalArgumentException naming the rule a setting breaks, and its value
   */
  public BenchConfig {
    if (n < 1 || n > MAX_N) {
      throw new IllegalArgumentException("n must be in [1, " + MAX_N + "]: n=" + n);
    }
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads must be in [1, " + MAX_THREADS + "]: threads=" + threads);
    }
    if (threads > n) {
      throw new IllegalArgumentException(
          "threads must not exceed n: threads=" + threads + " n=" + n);
    }
    if (valueSize < 1 || valueSize > MAX_VALUE_SIZE) {
      throw new IllegalArgumentException(
          "size must be in [1, " + MAX_VALUE_SIZE + "]: size=" + valueSize);
    }
    if (stores == null || stores.isEmpty()) {
      throw new IllegalArgumentException("stores must name at least one of: pile, map");
    }
    if (churnCycles < 0 || churnCycles > 1000) {
      throw new IllegalArgumentException("churn must be in [0, 1000]: churn=" + churnCycles);
    }
    if (valueKind == null || getOrder == null) {
      throw new IllegalArgumentException("kind and get order must be set");
    }
    // an EnumSet drops repeats and restores run order, whatever order the user wrote
    stores = List.copyOf(EnumSet.copyOf(stores));
  }
}
