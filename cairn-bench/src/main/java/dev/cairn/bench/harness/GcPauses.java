package dev.cairn.bench.harness;

/**
 * The GC pauses within one window of time.
 *
 * @param count pauses
 * @param totalMillis their summed duration, as the collectors' MXBeans account it
 * @param maxMillis the longest single pause, from the per-collection notifications; NaN if a
 *     notification did not arrive in time (the total is still right)
 */
public record GcPauses(long count, double totalMillis, double maxMillis) {

  /** The pauses of this window and of {@code other} together: two windows with a gap between. */
  public GcPauses plus(GcPauses other) {
    return new GcPauses(
        count + other.count,
        totalMillis + other.totalMillis,
        Double.isNaN(maxMillis) || Double.isNaN(other.maxMillis)
            ? Double.NaN
            : Math.max(maxMillis, other.maxMillis));
  }
}
