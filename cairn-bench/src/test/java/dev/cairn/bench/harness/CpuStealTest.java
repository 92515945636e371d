package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CpuStealTest {

  @Test
  void parse_sumsTheFirstEightColumns_andTakesStealFromTheEighth() {
    // user nice system idle iowait irq softirq steal guest guest_nice
    CpuSteal.Reading reading = CpuSteal.parse("cpu  100 0 50 800 20 0 10 20 7 0");

    assertThat(reading).isEqualTo(new CpuSteal.Reading(1000, 20));
  }

  @Test
  void percentBetween_isTheStolenShareOfTheTicksBetweenTwoReadings() {
    CpuSteal.Reading before = new CpuSteal.Reading(1000, 20);
    CpuSteal.Reading after = new CpuSteal.Reading(1400, 70);

    assertThat(CpuSteal.percentBetween(before, after)).isCloseTo(12.5, within(1e-9));
  }

  @Test
  void aMissingOrMalformedReading_givesNoFigure() {
    assertThat(CpuSteal.parse("intr 1 2 3")).isNull();
    assertThat(CpuSteal.parse("cpu 1 2 3")).isNull();
    assertThat(CpuSteal.percentBetween(null, new CpuSteal.Reading(1, 0))).isNaN();
    assertThat(CpuSteal.percentBetween(new CpuSteal.Reading(5, 0), new CpuSteal.Reading(5, 0)))
        .as("no time passed")
        .isNaN();
  }
}
