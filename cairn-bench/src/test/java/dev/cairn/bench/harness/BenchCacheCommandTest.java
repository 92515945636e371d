package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Drives {@code cairn bench --workload cache} as a user would, with small n and one-second phases:
 * every store runs in its own JVM on this JDK (the peers included) and reports the JSON
 * keys; the bounded workload skips a store with no bound; --reopen restarts Cairn's cache in new
 * JVMs, after a clean close and after SIGKILL; --rounds runs every store again.
 */
class BenchCacheCommandTest {

  @Test
  void cacheWorkload_everyStoreRunsAndReportsItsFigures() {
    CliRun run = smallCacheBench("--seed", "7", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String json = run.out();
    assertThat(json)
        .contains(
            "\"workload\": \"cache\"", "\"n\": 20000", "\"seed\": 7", "\"keys\": \"sequential\"")
        .contains("\"warmupKeys\": 2000"); // the default 1M, at most a tenth of n
    for (String store : new String[] {"cairn", "chm", "caffeine", "chronicle", "ehcache"}) {
      assertThat(json).as(store).contains("\"" + store + "\": {");
    }
    assertThat(json)
        .contains(
            "\"loadPerSec\"",
            "\"loadJitMs\"",
            "\"warmUpRounds\"",
            "\"mixedUniformOpsPerSec\"",
            "\"mixedZipfOpsPerSec\"",
            "\"getP9999Micros\"",
            "\"bytesPerEntry\"",
            "\"gcMaxPauseMs\"",
            "\"cairn/chronicle\": {",
            "\"cairn/ehcache\": {")
        .contains("\"skipped\": {}")
        .doesNotContain("NaN", "Infinity", "\"hugePages\"");
  }

  @Test
  void cacheWorkload_withoutHugePages_saysSo() {
    CliRun run = smallCacheBench("--stores", "cairn", "--no-huge-pages", "--warmup", "0", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"hugePages\": false", "\"loadPerSec\"", "\"warmupKeys\": 0");
  }

  @Test
  void boundedWorkload_reportsHitRatios_andSkipsAStoreWithNoBound(@TempDir Path dir)
      throws java.io.IOException {
    Path page = dir.resolve("report/bounded.html");
    CliRun run =
        smallCacheBench(
            "--stores",
            "cairn,chm,caffeine",
            "--budget-fraction",
            "0.5",
            "--json",
            "--html",
            page.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"budgetFraction\": 0.5", "\"boundedOpsPerSec\"", "\"hitRatio\"")
        .contains("\"cairn/caffeine\": {")
        .contains("\"chm\": \"it has no bound by bytes\"");
    // --html writes the same run as a page: the command, the ratio and the skipped store
    assertThat(run.err()).contains("wrote the HTML report to " + page);
    assertThat(java.nio.file.Files.readString(page))
        .startsWith("<!DOCTYPE html>")
        .contains("cairn bench --workload cache", "--budget-fraction 0.5", "--html")
        .contains("boundedOpsPerSec", "cairn/caffeine", "<svg class=\"chart\"", "hitRatio")
        .contains("it has no bound by bytes");
  }

  @Test
  void reopen_restartsTheCacheInNewJvms_afterACloseAndAfterAKill_ofTheLastRound(@TempDir Path dir)
      throws java.io.IOException {
    // what a killed run's warm-up left: --fresh deletes it, as it deletes the run's own cache
    java.nio.file.Files.createDirectories(dir.resolve("b/cache-warmup/left-by-a-killed-run"));
    // scattered keys: the restarted JVMs read keys of the same order, or their checks fail
    CliRun run =
        smallCacheBench(
            "--keys",
            "scattered",
            "--stores",
            "cairn",
            "--dir",
            dir.resolve("b").toString(),
            "--fresh",
            "--reopen",
            "--write-before-kill",
            "0.5",
            "--no-drop-caches",
            "--rounds", // the second round loads a new cache: the first's is deleted before it
            "2");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("round 2 of 2: running cairn in its own JVM");
    assertThat(run.out())
        .contains("the median of 2 rounds")
        .contains("reopenFirstHitMs", "restartFirstHitMs", "restartAfterKillFirstHitMs")
        .contains("restartAfterKillReplayMs", "restartAfterKillRecordsReplayed")
        .contains("restartAfterKillEndSearchMs", "restartAfterKillEndSearchBytes")
        .contains("writes before SIGKILL 0.5 s")
        .contains("scattered keys")
        .doesNotContain("skipped");
    assertThat(dir.resolve("b/cache")).isDirectory();
    assertThat(dir.resolve("b/cache-warmup")).doesNotExist(); // deleted after the warm-up
    // the tests' class path holds directories (target/classes), which the JVM's AOT cache refuses
    assertThat(run.out()).doesNotContain("restartAotFirstHitMs");
    assertThat(run.err()).contains("no restart with the JVM's ahead-of-time cache", "classes");
  }

  /** {@code cairn bench --workload cache} on 20k keys with one-second phases, and {@code more}. */
  private static CliRun smallCacheBench(String... more) {
    List<String> args =
        new ArrayList<>(List.of("bench", "--workload", "cache", "--n", "20k", "--seconds", "1"));
    args.addAll(List.of(more));
    return cairn(args.toArray(String[]::new));
  }

  @Test
  void cacheWorkload_refusesWhatDoesNotApply() {
    CliRun kind = cairn("bench", "--workload", "cache", "--kind", "person");
    assertThat(kind.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(kind.err()).contains("--kind does not apply to --workload cache");

    CliRun store = cairn("bench", "--workload", "cache", "--stores", "redis");
    assertThat(store.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(store.err()).contains("unknown store for --workload cache: redis");

    CliRun reopen = cairn("bench", "--workload", "cache", "--reopen");
    assertThat(reopen.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(reopen.err()).contains("--reopen needs --dir");

    CliRun workload = cairn("bench", "--workload", "scan");
    assertThat(workload.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(workload.err()).contains("--workload must be load, cache or petclinic");

    CliRun keys = cairn("bench", "--workload", "cache", "--keys", "diagonal");
    assertThat(keys.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(keys.err()).contains("--keys must be sequential or scattered, not 'diagonal'");

    CliRun budget = cairn("bench", "--budget-fraction", "0.5");
    assertThat(budget.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(budget.err()).contains("apply to --workload cache");

    CliRun kill = cairn("bench", "--workload", "cache", "--write-before-kill", "5");
    assertThat(kill.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(kill.err()).contains("--write-before-kill needs --reopen");

    CliRun killLoad = cairn("bench", "--write-before-kill", "5");
    assertThat(killLoad.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(killLoad.err()).contains("--write-before-kill and --rounds apply to --workload");

    CliRun rounds = cairn("bench", "--workload", "cache", "--rounds", "0");
    assertThat(rounds.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(rounds.err()).contains("--rounds must be from 1 to 100: 0");

    CliRun zero =
        cairn(
            "bench",
            "--workload",
            "cache",
            "--dir",
            "/nonexistent-cairn-dir",
            "--reopen",
            "--write-before-kill",
            "0");
    assertThat(zero.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(zero.err()).contains("--write-before-kill must be positive: 0.0");
  }
}
