package dev.cairn.bench.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.pile.Durability;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A cache bench report of several rounds: each figure its median over the rounds, each ratio the
 * median of the rounds' own ratios (not the ratio of the medians), with its lowest and highest.
 */
class CacheBenchReportTest {

  private static final CacheStoreKind CAIRN = CacheStoreKind.CAIRN;
  private static final CacheStoreKind CHM = CacheStoreKind.CHM;

  @Test
  void rounds_reportMedians_andTheMedianOfEachRoundsRatio() {
    // the ratio of the medians (4/4) differs from the median of the rounds' ratios (2/4, 4/3 and
    // 6/5: 6/5), which compares stores of one round, minutes apart rather than the whole run
    CacheBenchReport report =
        report(
            3,
            round(List.of(CAIRN, CHM), loads(2, 4)),
            round(List.of(CHM, CAIRN), loads(4, 3)),
            round(List.of(CAIRN, CHM), loads(6, 5)));

    assertThat(report.figures().get(CAIRN).get("loadPerSec")).isEqualTo(4.0);
    assertThat(report.figures().get(CHM).get("loadPerSec")).isEqualTo(4.0);
    assertThat(report.ratios().get("cairn/chm").get("loadPerSec")).isCloseTo(1.2, within(1e-9));
    String json = report.json();
    assertThat(json)
        .contains("\"rounds\": 3", "\"ratiosLowest\"", "\"ratiosHighest\"", "\"byRound\"")
        .contains("\"order\": \"chm,cairn\"")
        .contains("\"loadPerSec\": 0.5", "\"loadPerSec\": 1.333", "\"loadPerSec\": 1.2");
    assertThat(report.table()).contains("the median of 3 rounds").contains("1.20x (0.50-1.33x)");
  }

  @Test
  void anEvenCount_takesTheMeanOfTheMiddleTwo_andAFigureOfOneRoundIsItsOwn() {
    Map<CacheStoreKind, Map<String, Double>> first = loads(1, 2);
    first.get(CAIRN).put("restartFirstHitMs", 250.0); // as the restarts add to the last round's
    CacheBenchReport report =
        report(
            4,
            round(List.of(CAIRN, CHM), loads(1, 1)),
            round(List.of(CHM, CAIRN), loads(3, 1)),
            round(List.of(CAIRN, CHM), loads(8, 1)),
            round(List.of(CHM, CAIRN), first));

    assertThat(report.figures().get(CAIRN).get("loadPerSec")).isEqualTo(2.0); // 1, 1, 3, 8
    assertThat(report.figures().get(CAIRN).get("restartFirstHitMs")).isEqualTo(250.0);
    assertThat(CacheBenchReport.median(List.of())).isNaN();
  }

  @Test
  void oneRound_keepsTheShapeOfASingleRun() {
    CacheBenchReport report = report(1, round(List.of(CAIRN, CHM), loads(3, 6)));

    assertThat(report.ratios().get("cairn/chm").get("loadPerSec")).isEqualTo(0.5);
    assertThat(report.json()).doesNotContain("\"rounds\"", "byRound", "ratiosLowest");
    assertThat(report.table()).doesNotContain("rounds").contains("0.50x" + System.lineSeparator());
    assertThatThrownBy(() -> report(1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void config_reversesTheOrderInEveryOtherRound_andRefusesRoundsOutOfRange() {
    CacheBenchConfig config = config(2);
    assertThat(config.storesInRound(0)).containsExactly(CAIRN, CHM);
    assertThat(config.storesInRound(1)).containsExactly(CHM, CAIRN);
    assertThat(config.storesInRound(2)).containsExactly(CAIRN, CHM);
    assertThatThrownBy(() -> config(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rounds must be from 1 to 100: 0");
  }

  private static CacheBenchReport report(int rounds, CacheBenchReport.Round... each) {
    return new CacheBenchReport(config(rounds), List.of(each), Map.of());
  }

  private static CacheBenchReport.Round round(
      List<CacheStoreKind> order, Map<CacheStoreKind, Map<String, Double>> figures) {
    return new CacheBenchReport.Round(order, figures);
  }

  private static Map<CacheStoreKind, Map<String, Double>> loads(double cairn, double chm) {
    Map<CacheStoreKind, Map<String, Double>> figures = new LinkedHashMap<>();
    figures.put(CAIRN, new LinkedHashMap<>(Map.of("loadPerSec", cairn)));
    figures.put(CHM, new LinkedHashMap<>(Map.of("loadPerSec", chm)));
    return figures;
  }

  private static CacheBenchConfig config(int rounds) {
    return new CacheBenchConfig(
        1_000,
        2,
        32,
        1,
        0.99,
        KeyOrder.SEQUENTIAL,
        0,
        0,
        List.of(CAIRN, CHM),
        null,
        Durability.PERIODIC,
        false,
        false,
        CacheBenchConfig.DEFAULT_WRITE_BEFORE_KILL_SECONDS,
        true,
        7,
        rounds);
  }
}
