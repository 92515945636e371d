package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReportTest {

  @Test
  void number_isPlainAndRounded() {
    assertThat(JsonReport.number(12_345_678.9, 0)).isEqualTo("12345679");
    assertThat(JsonReport.number(48.04, 1)).isEqualTo("48");
    assertThat(JsonReport.number(0.123456, 3)).isEqualTo("0.123");
    assertThat(JsonReport.number(1e15, 0)).isEqualTo("1000000000000000");
  }

  @Test
  void render_writesNullForARatioOverZero_andLeavesOutUnmeasuredFigures() {
    BenchConfig config =
        new BenchConfig(
            10,
            1,
            BenchValueKind.STRING,
            32,
            List.of(StoreKind.PILE, StoreKind.MAP),
            GetOrder.RANDOM,
            0);
    StoreResult pile =
        new StoreResult(StoreKind.PILE).put(Metric.GC_TOTAL_MS, 0).put(Metric.PUTS_PER_SEC, 10);
    StoreResult map =
        new StoreResult(StoreKind.MAP)
            .put(Metric.GC_TOTAL_MS, 0)
            .put(Metric.PUTS_PER_SEC, 4)
            .put(Metric.GC_MAX_PAUSE_MS, Double.NaN);

    String json = JsonReport.render(new BenchReport(config, List.of(pile, map)));

    assertThat(json)
        .contains("\"putsPerSec\": 2.5", "\"gcTotalMs\": null")
        .doesNotContain("gcMaxPauseMs", "NaN");
  }
}
