package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class ProcessMemoryTest {
  @Test
  void settledReading_waitsForSteadyReadings_andIsNearTheRss() throws InterruptedException {
    assumeTrue(ProcessMemory.residentBytes() > 0, "no /proc/self/status here");
    System.gc();
    long start = System.nanoTime();
    long settled = ProcessMemory.settledResidentBytes();
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    // it takes SETTLED_READINGS readings a step apart, at the least
    assertThat(elapsedMillis)
        .isGreaterThanOrEqualTo(
            (long) (ProcessMemory.SETTLED_READINGS - 1) * ProcessMemory.SETTLE_STEP_MILLIS);
    assertThat(elapsedMillis).isLessThan(ProcessMemory.SETTLE_LIMIT_MILLIS + 1_000L);
    long now = ProcessMemory.residentBytes();
    assertThat(settled).isPositive();
    assertThat(Math.abs(now - settled)).isLessThan(256L << 20);
  }
}
