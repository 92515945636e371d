package dev.cairn.bench.harness;

import java.util.Locale;

/**
 * Whether the growth of the process's memory over a store's load measures the store, and the figure
 * per value if it does: the resident set ({@link Metric#BYTES_PER_VALUE}, {@link #rss}) and the
 * live heap ({@link Metric#HEAP_BYTES_PER_VALUE}, {@link #liveHeap}).
 *
 * <p>RSS is the process's, not the store's: the JVM's own memory moves in the same window. The heap
 * is not pinned (./cairn sets no -Xms, so that RSS growth shows what each store adds), and after
 * the full GC that precedes the load G1 may give heap back to the OS while the pile is filling, or
 * take more; the JIT fills its code cache; threads come and go. At a small load that movement is as
 * large as the store, or larger, and the difference reads as a few bytes a value, or a negative
 * number of them (a 2M-Person load once read 10.2 and, next run, -6.2 bytes a value, where the pile
 * had allocated 63.4). So the growth is reported only when it is:
 *
 * <ol>
 *   <li>at least {@link #NOISE_FLOOR_BYTES}: the JVM's own memory moves by tens of MiB in a load
 *       (RSS fell 15 MiB over a 5,000-value load that added 0.2 MiB to the pile), and the pile
 *       grows by a 64 MiB segment at a time; and
 *   <li>at least what the store holds by its own account, where it keeps one (the pile's {@link
 *       Metric#ALLOCATED_BYTES_PER_VALUE}: blocks it handed out, every byte written, so resident):
 *       a smaller growth means memory given back meanwhile hid part of the store.
 * </ol>
 *
 * Otherwise the figure is marked unreliable, with the reason: null in the JSON (the reason under
 * {@code "unreliable"}), "unreliable" in the table. The live heap is measured after a full GC, so
 * it moves little on its own; a shrinking one (something else let go of objects meanwhile) is
 * marked unreliable too. Never a negative or impossible size.
 */
final class MemoryGrowth {
  /** The least growth that says something about the store: 64 MiB. */
  static final long NOISE_FLOOR_BYTES = 64L << 20;

  private MemoryGrowth() {}

  /**
   * Records {@link Metric#BYTES_PER_VALUE} for a load of {@code n} values that grew RSS by {@code
   * growthBytes}, or marks it unreliable. Call after the store's own account is in {@code result}.
   */
  static void rss(StoreResult result, long growthBytes, int n) {
    long accountedBytes = (long) (result.get(Metric.ALLOCATED_BYTES_PER_VALUE).orElse(0) * n);
    String reason = unreliable(growthBytes, accountedBytes);
    if (reason == null) {
      result.put(Metric.BYTES_PER_VALUE, (double) growthBytes / n);
    } else {
      result.unreliable(Metric.BYTES_PER_VALUE, reason);
    }
  }

  /**
   * Why an RSS growth of {@code growthBytes} does not measure a store that holds {@code
   * accountedBytes} by its own account (0: it keeps none); null if it does.
   */
  static String unreliable(long growthBytes, long accountedBytes) {
    // the store's own account first, when it alone is measurable: it says what went wrong
    if (growthBytes < accountedBytes && accountedBytes >= NOISE_FLOOR_BYTES) {
      return String.format(
          Locale.ROOT,
          "RSS grew %s MiB over the load, less than the %s MiB the"
              + " store allocated by its own account (allocatedBytesPerValue): memory the JVM"
              + " gave back meanwhile hid part of it",
          mib(growthBytes),
          mib(accountedBytes));
    }
    if (growthBytes < NOISE_FLOOR_BYTES) {
      return String.format(
          Locale.ROOT,
          "RSS grew %s MiB over the load, less than %d MiB, within"
              + " what the JVM's own memory moves by (heap resizing, JIT, threads): too little to"
              + " measure the store; a larger --n can",
          mib(growthBytes),
          NOISE_FLOOR_BYTES >> 20);
    }
    return null; // at least the floor, and at least an account below it
  }

  /**
   * Records {@link Metric#HEAP_BYTES_PER_VALUE} for a load of {@code n} values that grew the live
   * heap by {@code growthBytes}, or marks it unreliable if the heap shrank.
   */
  static void liveHeap(StoreResult result, long growthBytes, int n) {
    if (growthBytes >= 0) {
      result.put(Metric.HEAP_BYTES_PER_VALUE, (double) growthBytes / n);
    } else {
      result.unreliable(
          Metric.HEAP_BYTES_PER_VALUE,
          String.format(
              Locale.ROOT,
              "the live heap shrank by %s MiB over the load: something else let go of objects"
                  + " meanwhile, more than the store holds on the heap",
              mib(-growthBytes)));
    }
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (double) (1L << 20));
  }
}
