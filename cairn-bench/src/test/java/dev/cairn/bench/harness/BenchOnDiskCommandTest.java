package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.pile.PileDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cairn bench} with files: {@code --dir}, {@code --reopen}, {@code --commits}. Small runs
 * that check the figures appear, never their values. {@code --no-drop-caches} keeps the tests from
 * emptying the machine's page cache when they run as root.
 */
class BenchOnDiskCommandTest {
  @TempDir Path directory;

  @Test
  void bench_withDirAndReopen_reportsTheReopenFiguresForThePersistentPile() {
    CliRun run =
        cairn(
            "bench",
            "--n",
            "20k",
            "--dir",
            directory.toString(),
            "--stores",
            "pile",
            "--reopen",
            "--no-drop-caches",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"dir\": \"" + directory.toAbsolutePath() + "\"", "\"durability\": \"none\"")
        .contains("\"putsPerSec\": ", "\"closeSecs\": ", "\"reopenFirstGetMs\": ")
        .contains("\"readAllSecs\": ", "\"readAllMBps\": ", "\"coldCache\": false")
        .contains("\"restartMainMs\": ", "\"restartFirstGetMs\": ")
        .doesNotContain("ddReadMBps", "NaN", "Infinity");
    // a new JVM reaches main before its first get, and neither is instant
    assertThat(jsonNumber(run.out(), "restartMainMs")).isPositive();
    assertThat(jsonNumber(run.out(), "restartFirstGetMs"))
        .isGreaterThan(jsonNumber(run.out(), "restartMainMs"));
    assertHoldsAPile(directory.resolve("pile"));
  }

  /**
   * RocksDB beside the pile under the load and the reopen: both restart in a new JVM, and the
   * ratios compare them. Where RocksDB's native library does not load, the run says so instead.
   */
  @Test
  void bench_reopenWithRocksdb_restartsBothInANewJvm() {
    CliRun run =
        cairn(
            "bench",
            "--n",
            "20k",
            "--dir",
            directory.toString(),
            "--stores",
            "pile,rocksdb",
            "--reopen",
            "--no-drop-caches",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    if (run.err().contains("rocksdb skipped")) {
      return; // no native library here: the skip is reported, and the pile ran alone
    }
    assertThat(run.out())
        .contains("\"rocksdb\": {", "\"pileToRocksdbRatios\": {")
        .doesNotContain("NaN", "Infinity");
    String rocks = run.out().substring(run.out().indexOf("\"rocksdb\": {"));
    assertThat(rocks)
        .contains(
            "\"putsPerSec\": ",
            "\"getsPerSec\": ",
            "\"closeSecs\": ",
            "\"reopenFirstGetMs\": ",
            "\"restartMainMs\": ",
            "\"restartFirstGetMs\": ");
    assertThat(jsonNumber(rocks, "restartFirstGetMs"))
        .isGreaterThan(jsonNumber(rocks, "restartMainMs"));
    assertThat(directory.resolve("rocksdb")).isDirectory();
    assertThat(directory.resolve("rocksdb-warmup")).doesNotExist();
  }

  @Test
  void bench_warmsUpAPersistentPileBesideItsOwn_andDeletesTheWarmUp() throws Exception {
    Files.createDirectories(directory.resolve("pile-warmup").resolve("left-by-a-killed-run"));
    CliRun run =
        cairn(
            "bench",
            "--n",
            "20k",
            "--dir",
            directory.toString(),
            "--fresh",
            "--stores",
            "pile",
            "--warmup",
            "5k",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"warmup\": 2000"); // a tenth of n at most
    assertHoldsAPile(directory.resolve("pile"));
    assertThat(directory.resolve("pile-warmup")).doesNotExist();
  }

  @Test
  void bench_pileBesideMapped_reportsTheirRatioInOneRun() {
    CliRun run =
        cairn(
            "bench",
            "--n",
            "20k",
            "--dir",
            directory.toString(),
            "--stores",
            "mapped,pile",
            "--durability",
            "periodic",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"pile\": {", "\"mapped\": {", "\"mappedToPileRatios\": {")
        .contains("\"durability\": \"periodic\"");
    assertHoldsAPile(directory.resolve("mapped"));
    assertThat(directory.resolve("pile")).doesNotExist(); // the pile beside it is volatile
  }

  @Test
  void bench_intoANonEmptyDir_exitsTwo_andFreshClearsOnlyAnEarlierRun() throws Exception {
    assertThat(
            cairn("bench", "--n", "2000", "--dir", directory.toString(), "--stores", "pile")
                .exitCode())
        .isZero();

    CliRun again = cairn("bench", "--n", "2000", "--dir", directory.toString(), "--stores", "pile");
    assertThat(again.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(again.err()).contains("--fresh");

    CliRun fresh =
        cairn("bench", "--n", "2000", "--dir", directory.toString(), "--fresh", "--stores", "pile");
    assertThat(fresh.exitCode()).as(fresh.err()).isZero();

    Files.writeString(directory.resolve("notes.txt"), "mine");
    CliRun refused =
        cairn("bench", "--n", "2000", "--dir", directory.toString(), "--fresh", "--stores", "pile");
    assertThat(refused.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(refused.err()).contains("notes.txt");
    assertThat(directory.resolve("notes.txt")).exists();
    assertThat(directory.resolve("pile")).exists();
  }

  @Test
  void bench_commits_reportsTheRateLatenciesAndTheRawFsync() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--commits",
            "--count",
            "200",
            "--threads",
            "2",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"workload\": \"commits\"", "\"count\": 200", "\"durability\": \"sync\"")
        .contains("\"fsyncMicros\": ", "\"commits\": 200", "\"commitsPerSec\": ")
        .contains("\"commitP50Us\": ", "\"commitP99Us\": ", "\"commitP999Us\": ")
        .contains("\"commitMaxUs\": ");
    // each store warmed up first, in a throwaway store that is gone, and uncounted above
    assertThat(run.out()).contains("\"warmupCount\": 200");
    assertThat(directory.resolve("pile-warmup")).doesNotExist();
    assertThat(directory.resolve("pile")).exists();
  }

  @Test
  void bench_commitsForATime_warmUpInTwoThrowawayStores_andReportWhatTheJitLeft() throws Exception {
    Files.createDirectories(directory.resolve("pile-warmup-2").resolve("left-by-a-killed-run"));
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--fresh",
            "--commits",
            "--seconds",
            "1",
            "--threads",
            "2",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"seconds\": 1", "\"warmupSeconds\": 1") // rounds no longer than the run
        .contains("\"warmupSecs\": ", "\"commitJitMs\": ");
    double warmUp = jsonNumber(run.out(), "warmupSecs");
    assertThat(warmUp).isBetween(1.0, 6.0 + 1.0 + 1.0); // the limit, plus a round under way
    assertThat(directory.resolve("pile-warmup")).doesNotExist();
    assertThat(directory.resolve("pile-warmup-2")).doesNotExist();
  }

  private static double jsonNumber(String json, String key) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"" + key + "\": ([0-9.]+)").matcher(json);
    assertThat(m.find()).as(key + " in " + json).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void bench_commitsWithoutWarmUp_saySo() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--commits",
            "--count",
            "50",
            "--warmup",
            "0",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"warmupCount\": 0", "\"commits\": 50");
  }

  @Test
  void bench_commitsWithTheCache_reportItsRatioToThePile() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--commits",
            "--count",
            "200",
            "--threads",
            "2",
            "--stores",
            "pile,cache",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("\"cache\": {", "\"cacheToPileRatios\": {", "\"commits\": 200")
        .contains("\"commitsPerSec\": ");
    assertThat(directory.resolve("cache")).exists();
    assertThat(cairn("bench", "--stores", "cache").err()).contains("runs --commits only");
  }

  @Test
  void bench_commitsWithRocksdb_runsItOrSaysWhyNot() {
    CliRun run =
        cairn(
            "bench",
            "--dir",
            directory.toString(),
            "--commits",
            "--count",
            "100",
            "--threads",
            "2",
            "--stores",
            "pile,rocksdb");

    assertThat(run.exitCode()).as(run.err()).isZero();
    // where the native library loads, a rocksdb column and ratio; elsewhere a note, and the pile
    if (run.out().contains("skipped rocksdb")) {
      assertThat(run.err()).contains("rocksdb skipped");
    } else {
      assertThat(run.out()).contains("rocksdb", "pile/rocksdb", "commits/s");
    }
    assertThat(run.out()).contains("raw fsync");
  }

  @Test
  void bench_optionsThatNeedADir_withoutOne_exitTwo() {
    for (String[] args :
        new String[][] {
          {"bench", "--reopen"},
          {"bench", "--commits"},
          {"bench", "--stores", "pile,mapped"},
          {"bench", "--durability", "sync"},
        }) {
      CliRun run = cairn(args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(CommandLine.ExitCode.USAGE);
      assertThat(run.err()).as(String.join(" ", args)).contains("--dir");
    }
  }

  @Test
  void bench_commitsWithTheMapOrWithoutSync_exitsTwo() {
    CliRun map = cairn("bench", "--dir", directory.toString(), "--commits", "--stores", "pile,map");
    assertThat(map.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(map.err()).contains("not map");

    CliRun none =
        cairn("bench", "--dir", directory.toString(), "--commits", "--durability", "none");
    assertThat(none.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(none.err()).contains("durability sync");

    CliRun rocksPersons =
        cairn("bench", "--dir", directory.toString(), "--stores", "rocksdb", "--kind", "person");
    assertThat(rocksPersons.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(rocksPersons.err()).contains("rocksdb stores bytes and strings, not --kind person");
  }

  /** {@code directory} holds a pile: its superblock, as core names it. */
  static void assertHoldsAPile(Path directory) {
    try {
      assertThat(PileDirectory.files(directory))
          .as(directory.toString())
          .extracting(PileDirectory.PileFile::kind)
          .contains(PileDirectory.PileFile.Kind.SUPERBLOCK);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
