package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.BenchOnDiskCommandTest.assertHoldsAPile;
import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn bench --recovery}: a child JVM fills a small log (8 MiB) and is killed, and the
 * crashed pile is recovered. Checks the figures appear and the log replayed is about the target,
 * never how fast. {@code --no-drop-caches} keeps the test from emptying the machine's page cache
 * when it runs as root.
 */
class BenchRecoveryCommandTest {
  private static final long EIGHT_MIB = 8L << 20;

  @TempDir Path directory;

  @Test
  void bench_recovery_killsAFillerAndTimesTheOpenOfWhatItLeft() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--recovery",
            "--log-gb",
            "0.0078125",
            "--no-drop-caches",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"workload\": \"recovery\"", "\"durability\": \"periodic\"")
        .contains("\"valueKind\": \"bytes\"", "\"valueSize\": 4096", "\"coldCache\": false")
        .contains("\"recoveryLogTargetBytes\": " + EIGHT_MIB)
        .contains("\"recoveryOpenSecs\": ", "\"replayMBps\": ", "\"recoveryLogRecords\": ")
        .contains("\"readOnlyReplaySecs\": ", "\"readOnlyReplayMBps\": ")
        .doesNotContain("NaN", "Infinity", "\"map\"");
    long replayed = figure(run.out(), "recoveryLogBytes");
    // the filler stops at its estimate of the target; the estimate is within a few records
    assertThat(replayed).isBetween(EIGHT_MIB - (64 << 10), EIGHT_MIB + (256 << 10));
    assertHoldsAPile(directory.resolve("pile"));
  }

  @Test
  void bench_recoveryAsATable_namesTheRecoveryRows() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--recovery",
            "--log-gb",
            "0.002",
            "--size",
            "512",
            "--threads",
            "1",
            "--no-drop-caches");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("recovery log=0.002 GiB threads=1 kind=bytes size=512")
        .contains("recovery: Pile.open s", "recovery: log replayed MB/s (open)")
        .contains("WARM page cache");
  }

  @Test
  void bench_recoveryWithoutDirOrWithAnotherDurability_exitsTwo() {
    CliRun noDir = cairn("bench", "--recovery");
    assertThat(noDir.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(noDir.err()).contains("--recovery needs --dir");

    CliRun none =
        cairn("bench", "--dir", directory.toString(), "--recovery", "--durability", "none");
    assertThat(none.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(none.err()).contains("durability periodic");

    CliRun map =
        cairn("bench", "--dir", directory.toString(), "--recovery", "--stores", "pile,map");
    assertThat(map.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(map.err()).contains("pile only, not map");

    CliRun logWithoutRecovery = cairn("bench", "--log-gb", "2");
    assertThat(logWithoutRecovery.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(logWithoutRecovery.err()).contains("--log-gb applies to --recovery");

    CliRun tiny = cairn("bench", "--dir", directory.toString(), "--recovery", "--log-gb", "0.0001");
    assertThat(tiny.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(tiny.err()).contains("log-gb must be in");
  }

  /** The whole-number figure {@code key} in a JSON report. */
  static long figure(String json, String key) {
    Matcher matcher = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
    assertThat(matcher.find()).as(key + " in " + json).isTrue();
    return Long.parseLong(matcher.group(1));
  }
}
