package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.BenchOnDiskCommandTest.assertHoldsAPile;
import static dev.cairn.bench.harness.BenchRecoveryCommandTest.figure;
import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn bench --latency-during-checkpoint}: one-second phases, checking that both phases'
 * figures appear and checkpoints ran, never their values.
 */
class BenchCheckpointLatencyCommandTest {
  @TempDir Path directory;

  @Test
  void bench_latencyDuringCheckpoint_reportsBothPhasesAndTheCheckpoints() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--seconds",
            "1",
            "--durability",
            "periodic",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"workload\": \"latencyDuringCheckpoint\"", "\"seconds\": 1")
        .contains("\"durability\": \"periodic\"", "\"putsPerSec\": ")
        .contains("\"putP50Us\": ", "\"putP99Us\": ", "\"putP999Us\": ", "\"putMaxUs\": ")
        .contains("\"baselinePutsPerSec\": ", "\"baselineP50Us\": ", "\"baselineP99Us\": ")
        .contains("\"baselineP999Us\": ", "\"baselineMaxUs\": ", "\"checkpointMeanMs\": ")
        .contains("\"gcPauses\": ", "\"baselineGcPauses\": ")
        .contains("\"hiccupP999Us\": ", "\"hiccupMaxUs\": ", "\"baselineHiccupP99Us\": ")
        .doesNotContain("NaN", "Infinity", "\"map\"");
    if (java.nio.file.Files.isReadable(Path.of("/proc/stat"))) {
      assertThat(run.out()).contains("\"stealPct\": ", "\"baselineStealPct\": ");
    }
    assertThat(figure(run.out(), "checkpoints")).isPositive();
    assertHoldsAPile(directory.resolve("pile").resolve("baseline"));
    assertHoldsAPile(directory.resolve("pile").resolve("checkpointing"));
    // warmed up in rounds until the JIT was quiet, at most six one-second phases (a round begun
    // just before the limit still runs, and each round opens and closes a pile)
    assertThat(directory.resolve("pile").resolve("warmup")).doesNotExist();
    assertThat(figure(run.out(), "warmupSecs")).isGreaterThanOrEqualTo(1).isLessThan(12);
    assertThat(figure(run.out(), "jitMs")).isGreaterThanOrEqualTo(0);
    assertThat(figure(run.out(), "baselineJitMs")).isGreaterThanOrEqualTo(0);
  }

  /**
   * Paced, the rate is what was asked (within the pauses a one-second phase can take), and no
   * corrected percentiles are reported: the latencies already run from each put's due time.
   */
  @Test
  void bench_latencyDuringCheckpointAtARate_putsAtThatRate() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--seconds",
            "1",
            "--durability",
            "periodic",
            "--rate",
            "20k",
            "--threads",
            "2",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"rate\": 20000", "\"putP999Us\": ", "\"baselineMaxUs\": ")
        .contains("\"pace\": \"park\"")
        .doesNotContain("Corrected", "NaN");
    assertThat(figure(run.out(), "putsPerSec")).isBetween(10_000L, 21_000L);
    assertThat(figure(run.out(), "baselinePutsPerSec")).isBetween(10_000L, 21_000L);
    // the same puts timed from the call: never longer than from when they were due
    assertThat(figure(run.out(), "baselineCallMaxUs"))
        .isLessThanOrEqualTo(figure(run.out(), "baselineMaxUs"));
    assertThat(figure(run.out(), "baselineCallP999Us"))
        .isLessThanOrEqualTo(figure(run.out(), "baselineP999Us"));
  }

  /** Busy-waiting for each due time keeps the rate: a spinning thread must not put early. */
  @Test
  void bench_spinPaced_putsAtTheRateToo() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--seconds",
            "1",
            "--durability",
            "periodic",
            "--rate",
            "20k",
            "--threads",
            "1",
            "--pace",
            "spin",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"rate\": 20000", "\"pace\": \"spin\"");
    assertThat(figure(run.out(), "putsPerSec")).isBetween(10_000L, 21_000L);
    assertThat(figure(run.out(), "baselinePutsPerSec")).isBetween(10_000L, 21_000L);
    assertThat(figure(run.out(), "baselineCallMaxUs"))
        .isLessThanOrEqualTo(figure(run.out(), "baselineMaxUs"));
  }

  @Test
  void bench_paceWithoutRate_orUnknown_exitsTwo() {
    CliRun withoutRate =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--pace",
            "spin");
    assertThat(withoutRate.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(withoutRate.err()).contains("--pace applies to --rate");

    CliRun unknown =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--rate",
            "1000",
            "--pace",
            "yield");
    assertThat(unknown.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(unknown.err()).contains("--pace must be park or spin: --pace yield");
  }

  /**
   * Spaced checkpoints: about one a quarter second in a one-second phase (back to back, a loaded
   * machine still makes a dozen or more), and the puts that overlapped them reported apart.
   */
  @Test
  void bench_checkpointEvery_spacesTheCheckpoints_andReportsThePutsThatOverlappedOne() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--seconds",
            "1",
            "--durability",
            "periodic",
            "--rate",
            "20k",
            "--checkpoint-every",
            "250",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "\"checkpointEveryMs\": 250",
            "\"putDuringCheckpointP999Us\": ",
            "\"putCallDuringCheckpointP999Us\": ");
    assertThat(figure(run.out(), "checkpoints")).isBetween(1L, 5L);
    assertThat(figure(run.out(), "putsDuringCheckpoint")).isPositive();
  }

  @Test
  void bench_checkpointEveryWithoutLatencyDuringCheckpoint_exitsTwo() {
    CliRun run = cairn("bench", "--checkpoint-every", "100");
    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("--checkpoint-every applies to --latency-during-checkpoint");
  }

  @Test
  void bench_rateWithoutLatencyDuringCheckpoint_orBelowOnePerThread_exitsTwo() {
    CliRun load = cairn("bench", "--rate", "1000");
    assertThat(load.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(load.err()).contains("--rate applies to --latency-during-checkpoint");

    CliRun tooSlow =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--latency-during-checkpoint",
            "--rate",
            "1",
            "--threads",
            "2");
    assertThat(tooSlow.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(tooSlow.err()).contains("rate must give each thread a put a second at least");
  }

  @Test
  void bench_latencyDuringCheckpointWithoutDir_orWithCount_exitsTwo() {
    CliRun noDir = cairn("bench", "--latency-during-checkpoint");
    assertThat(noDir.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(noDir.err()).contains("--latency-during-checkpoint needs --dir");

    CliRun count =
        cairn(
            "bench", "--dir", directory.toString(), "--latency-during-checkpoint", "--count", "10");
    assertThat(count.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(count.err()).contains("--count applies to --commits");

    CliRun both =
        cairn("bench", "--dir", directory.toString(), "--latency-during-checkpoint", "--recovery");
    assertThat(both.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(both.err()).contains("give one of");
  }
}
