package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link GcPauseMonitor}'s windows, and two windows with a gap between ({@link GcPauses#plus}). */
class GcPauseMonitorTest {

  @Test
  void aCollectionBetweenTwoWindows_countsInNeither() throws InterruptedException {
    try (GcPauseMonitor gc = new GcPauseMonitor()) {
      GcPauseMonitor.Window first = gc.begin();
      GcPauses before = gc.end(first);
      System.gc(); // the cache bench's own, for its RSS figure
      GcPauseMonitor.Window second = gc.begin();
      GcPauses after = gc.end(second);
      GcPauses both = before.plus(after);
      assertThat(both.count()).isEqualTo(before.count() + after.count());
      // nothing ran in either window but the monitor: the full collection is in neither
      assertThat(both.count()).isZero();

      GcPauseMonitor.Window around = gc.begin();
      System.gc();
      GcPauses inside = gc.end(around);
      assertThat(inside.count()).as("a collection inside a window counts").isPositive();
      assertThat(inside.maxMillis()).as("its pause was notified").isNotNaN();
    }
  }

  @Test
  void plus_sumsCountsAndTotals_andTakesTheLongerPause() {
    GcPauses a = new GcPauses(2, 10, 7);
    GcPauses b = new GcPauses(3, 6, 4);
    assertThat(a.plus(b)).isEqualTo(new GcPauses(5, 16, 7));
    assertThat(b.plus(a)).isEqualTo(new GcPauses(5, 16, 7));
    assertThat(a.plus(new GcPauses(1, 1, Double.NaN)).maxMillis())
        .as("a longest pause not known in one window is not known for both")
        .isNaN();
  }
}
