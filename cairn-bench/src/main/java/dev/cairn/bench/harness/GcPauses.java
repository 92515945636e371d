package dev.cairn.bench.harness;

/**
 * The GC pauses within one window of time.
 *
 * @param count pauses
 * @param totalMillis their summed duration, as the collectors' MXBeans account it
 * @param maxMillis the longest single pause, from the per-collection notifications; NaN if a
 *     notification did not arrive in time (the total is still right)
 */
public record GcPauses(long count, double totalMillis, double maxMillis) {}
