package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Drives {@code cairn bench --workload petclinic} as a user would, small: every configuration runs
 * in its own JVM (Hibernate with no cache, with Ehcache's and with Cairn's JCache provider, and
 * Cairn's cache as the store of record) and reports its figures and the ratios.
 */
class BenchPetclinicCommandTest {

  @Test
  void petclinicWorkload_everyConfigurationRunsAndReports(@TempDir Path dir) {
    CliRun run =
        cairn(
            "bench",
            "--workload",
            "petclinic",
            "--n",
            "100",
            "--seconds",
            "1",
            "--dir",
            dir.toString(),
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String json = run.out();
    for (String config :
        new String[] {"hibernate", "hibernate-ehcache", "hibernate-cairn", "cairn-direct"}) {
      assertThat(json).as(config).contains("\"" + config + "\": {");
    }
    assertThat(json)
        .contains(
            "\"owners\": 100",
            "\"opsPerSec\"",
            "\"readP9999Micros\"",
            "\"writeP9999Micros\"",
            "\"hibernate-cairn/hibernate-ehcache\"",
            "\"cairn-direct/hibernate\"",
            "\"failed\": {}")
        .doesNotContain("NaN", "Infinity", "null");
  }

  @Test
  void petclinicWorkload_refusesWhatDoesNotApply() {
    CliRun kind = cairn("bench", "--workload", "petclinic", "--kind", "person");
    assertThat(kind.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(kind.err()).contains("--kind does not apply to --workload petclinic");

    CliRun store = cairn("bench", "--workload", "petclinic", "--stores", "mongo");
    assertThat(store.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(store.err()).contains("unknown store for --workload petclinic: mongo");
  }
}
