package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JitClockTest {
  @Test
  void settling_endsAfterTwoQuietRoundsInARow_andABusyRoundStartsTheCountAgain() {
    JitClock.Settling settling = new JitClock.Settling();

    assertThat(settling.settledAfter(250)).isFalse();
    assertThat(settling.settledAfter(3)).isFalse(); // quiet once: may be chance
    assertThat(settling.settledAfter(40)).isFalse(); // busy again: count from zero
    assertThat(settling.settledAfter(9.9)).isFalse();
    assertThat(settling.settledAfter(0)).isTrue();
  }

  @Test
  void settling_withoutACompilationClock_endsAtOnce() {
    assertThat(new JitClock.Settling().settledAfter(Double.NaN)).isTrue();
  }

  @Test
  void quiet_isUnderTenMilliseconds() {
    assertThat(JitClock.quiet(9.99)).isTrue();
    assertThat(JitClock.quiet(10)).isFalse();
    assertThat(JitClock.quiet(Double.NaN)).isTrue();
  }

  @Test
  void millis_growsOrStaysAsTheJitWorks() {
    double before = JitClock.millis();
    double after = JitClock.millis();
    if (!Double.isNaN(before)) {
      assertThat(after).isGreaterThanOrEqualTo(before);
    }
  }
}
