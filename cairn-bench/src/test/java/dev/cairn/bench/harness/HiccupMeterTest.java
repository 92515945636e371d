package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HiccupMeterTest {

  @Test
  void aMeterRunFor200Ms_recordsAboutOneSampleAMillisecond_noneNegative() throws Exception {
    HiccupMeter meter = HiccupMeter.start();
    Thread.sleep(200);
    Histogram late = meter.stop();

    // each sample is a 1 ms sleep plus its lateness, so at most 200 fit; a loaded machine
    // wakes the sleeper late, so allow far fewer
    assertThat(late.getTotalCount()).isBetween(20L, 200L);
    assertThat(late.getMinValue()).isNotNegative();
  }

  @Test
  void stop_endsTheMeasuringThread_andAStoppedMeterRecordsNoMore() throws Exception {
    HiccupMeter meter = HiccupMeter.start();
    Thread.sleep(20);
    Histogram late = meter.stop();
    long count = late.getTotalCount();
    Thread.sleep(20);

    assertThat(late.getTotalCount()).isEqualTo(count);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("bench-hiccup-meter") && t.isAlive());
  }
}
