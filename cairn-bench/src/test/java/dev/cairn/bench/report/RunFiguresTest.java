package dev.cairn.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.bench.harness.BenchConfig;
import dev.cairn.bench.harness.BenchReport;
import dev.cairn.bench.harness.BenchValueKind;
import dev.cairn.bench.harness.GetOrder;
import dev.cairn.bench.harness.Metric;
import dev.cairn.bench.harness.StoreKind;
import dev.cairn.bench.harness.StoreResult;
import dev.cairn.bench.petclinic.PetclinicBench;
import dev.cairn.bench.petclinic.PetclinicConfig;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The load and PetClinic workloads' reports in the page's shape ({@link RunFigures}): their stores,
 * figures, ratios and notes carried over, and a page with their charts. The cache workload's is
 * driven end to end by {@code BenchCacheCommandTest}.
 */
class RunFiguresTest {

  @Test
  void aLoadRun_carriesItsStoresRatiosAndUnreliableFigures() {
    BenchConfig config =
        new BenchConfig(
            10,
            2,
            BenchValueKind.STRING,
            32,
            List.of(StoreKind.PILE, StoreKind.MAP),
            GetOrder.RANDOM,
            0);
    StoreResult pile =
        new StoreResult(StoreKind.PILE)
            .put(Metric.PUTS_PER_SEC, 10e6)
            .put(Metric.GETS_PER_SEC, 4e6)
            .unreliable(Metric.BYTES_PER_VALUE, "RSS grew less than the JVM's own noise");
    StoreResult map =
        new StoreResult(StoreKind.MAP).put(Metric.PUTS_PER_SEC, 5e6).put(Metric.GETS_PER_SEC, 8e6);

    RunFigures run = new BenchReport(config, List.of(pile, map)).runFigures();

    assertThat(run.workload()).isEqualTo("load");
    assertThat(run.stores().keySet()).containsExactly("pile", "map");
    assertThat(run.stores().get("pile")).containsEntry("putsPerSec", 10e6);
    assertThat(run.ratios().get("pile/map")).containsEntry("putsPerSec", 2.0);
    assertThat(run.notes().get("pile")).contains("bytesPerValue unreliable", "JVM's own noise");
    assertThat(run.settings()).containsEntry("threads", "2").containsEntry("get order", "random");
    String html = HtmlReport.render(run, "cairn bench --n 10", Map.of());
    assertThat(html).contains("2.00x", "pile/map", "putsPerSec", "JVM&#39;s own noise");
  }

  @Test
  void aPetclinicRun_carriesItsConfigurationsAndTheirRatios() {
    PetclinicBench bench =
        new PetclinicBench(100, 10, 2, 1, List.of(PetclinicConfig.values()), Path.of("x"), 7);
    Map<PetclinicConfig, Map<String, Double>> figures = new EnumMap<>(PetclinicConfig.class);
    double ops = 1_000;
    for (PetclinicConfig c : PetclinicConfig.values()) {
      figures.put(
          c,
          Map.of(
              "opsPerSec", ops,
              "opP50Micros", 20.0,
              "opP99Micros", 90.0,
              "opP999Micros", 900.0,
              "opP9999Micros", 4_000.0));
      ops *= 2;
    }
    Map<PetclinicConfig, String> failed = new EnumMap<>(PetclinicConfig.class);

    RunFigures run = new PetclinicBench.Report(bench, figures, failed).runFigures();

    assertThat(run.workload()).isEqualTo("petclinic");
    assertThat(run.stores()).hasSize(PetclinicConfig.values().length);
    assertThat(run.ratios()).isNotEmpty();
    run.ratios().values().forEach(r -> assertThat(r).containsOnlyKeys("opsPerSec"));
    String html = HtmlReport.render(run, "cairn bench --workload petclinic", Map.of());
    assertThat(html).contains("latency of all operations", "p99.99", "operations/s");
  }
}
