package dev.cairn.bench.harness;

import static dev.cairn.bench.harness.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Drives {@code cairn bench} as a user would, with small N, and checks output and exit codes. */
class BenchCommandTest {

  @Test
  void bench_withJson_printsEverySpecKeyForBothStoresAndTheRatios() {
    CliRun run = cairn("bench", "--n", "20_000", "--threads", "2", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String json = run.out();
    assertThat(json.strip()).startsWith("{").endsWith("}");
    assertThat(json)
        .contains("\"n\": 20000", "\"threads\": 2", "\"valueKind\": \"string\"")
        .contains("\"valueSize\": 32", "\"pile\": {", "\"map\": {", "\"ratios\": {");
    assertEverySpecKeyForBothStoresAndTheRatios(json);
    assertThat(json).doesNotContain("NaN", "Infinity", "E+", "E-");
  }

  @Test
  void bench_pileAloneWithBytes_printsATableWithoutRatios() {
    CliRun run =
        cairn("bench", "--n", "5k", "--kind", "bytes", "--size", "100", "--stores", "pile");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("n=5,000 threads=2 kind=bytes size=100")
        .contains("puts/s", "gets/s", "bytes/value (pile capacity)")
        .doesNotContain("pile/map", "map ");
  }

  @Test
  void bench_withHugePages_runsAndSaysSoInTheJson() {
    CliRun run = cairn("bench", "--n", "5k", "--stores", "pile", "--huge-pages", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"hugePages\": true", "\"putsPerSec\"");
    assertThat(cairn("bench", "--n", "5k", "--stores", "pile", "--json").out())
        .doesNotContain("hugePages");
  }

  @Test
  void bench_warmsUpEachStore_unlessToldNot() {
    assertThat(cairn("bench", "--n", "5k", "--stores", "pile,map", "--json").out())
        .contains("\"warmup\": 500"); // the default 1M, held to a tenth of n
    assertThat(cairn("bench", "--n", "5k", "--stores", "pile", "--warmup", "0", "--json").out())
        .contains("\"warmup\": 0");
    CliRun negative = cairn("bench", "--warmup", "-1");
    assertThat(negative.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(negative.err()).contains("warmup must not be negative: warmup=-1");
  }

  @Test
  void bench_listsStoresInAnyOrder_runsPileFirst() {
    CliRun run =
        cairn("bench", "--n", "2000", "--stores", "map,pile,map", "--get-order", "sequential");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().skip(1).findFirst())
        .hasValueSatisfying(
            header -> assertThat(header).containsSubsequence("pile", "map", "pile/map"));
  }

  @Test
  void bench_withZeroThreads_exitsTwoNamingTheRule() {
    CliRun run = cairn("bench", "--threads", "0");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("threads must be in [1, 1024]: threads=0");
  }

  @Test
  void bench_withMoreThreadsThanValues_exitsTwo() {
    CliRun run = cairn("bench", "--n", "3", "--threads", "4");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("threads must not exceed n: threads=4 n=3");
  }

  @Test
  void bench_withUnknownKind_exitsTwoListingTheKinds() {
    CliRun run = cairn("bench", "--kind", "pojo");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("--kind", "STRING", "BYTES", "PERSON", "pojo");
  }

  @Test
  void bench_personKind_printsTheUsualFiguresForBothStoresAndTheRatios() {
    CliRun run = cairn("bench", "--kind", "person", "--n", "20k", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String json = run.out();
    assertThat(json)
        .contains("\"valueKind\": \"person\"", "\"valueSize\": null", "\"workload\": \"load\"")
        .contains("\"pile\": {", "\"map\": {", "\"ratios\": {", "\"payloadBytesPerValue\": ");
    assertEverySpecKeyForBothStoresAndTheRatios(json);
    assertThat(json).doesNotContain("NaN", "Infinity");
  }

  @Test
  void bench_personKindWithASize_exitsTwo() {
    CliRun run = cairn("bench", "--kind", "person", "--size", "64");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("--size does not apply to --kind person");
  }

  @Test
  void bench_withUnreadableCount_exitsTwoSayingHowToWriteOne() {
    CliRun run = cairn("bench", "--n", "ten");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("'ten' is not a count");
  }

  @Test
  void bench_withZeroSize_exitsTwo() {
    CliRun run = cairn("bench", "--size", "0");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("size must be in");
  }

  @Test
  void bench_biggerThanTheMachine_exitsTwoBeforeStoringAnything() {
    CliRun run = cairn("bench", "--n", "2G", "--size", "1000000");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("n x size must fit in this machine's memory");
  }

  @Test
  void bench_withUnknownStoreOrOption_exitsTwo() {
    assertThat(cairn("bench", "--stores", "redis").exitCode())
        .isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(cairn("bench", "--frobnicate").exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
  }

  @Test
  void cairn_withoutSubcommand_exitsTwoWithUsage() {
    CliRun run = cairn();

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("missing subcommand", "bench");
  }

  @Test
  void benchHelp_describesTheDefaults() {
    CliRun run = cairn("bench", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("--n", "10_000_000", "--threads", "--kind", "--stores", "--json");
  }

  /** picocli formats descriptions: a bare '%' made it warn on stderr and print the raw text. */
  @Test
  void benchHelp_formatsEveryDescriptionWithoutAWarning() {
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    CliRun run;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      run = cairn("bench", "--help");
    } finally {
      System.setErr(stderr);
    }

    assertThat(run.exitCode()).isZero();
    assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    assertThat(run.out()).contains("90% gets", "70% owner pages").doesNotContain("%%");
  }

  /**
   * Each of the spec's five keys once per store and once among the ratios, a number or null (an RSS
   * figure too small to trust at a test's n: {@code "unreliable"}, after them, says why).
   */
  private static void assertEverySpecKeyForBothStoresAndTheRatios(String json) {
    int unreliable = json.indexOf("\"unreliable\": {");
    String figures = unreliable < 0 ? json : json.substring(0, unreliable);
    for (String key :
        new String[] {"putsPerSec", "getsPerSec", "bytesPerValue", "gcMaxPauseMs", "gcTotalMs"}) {
      assertThat(figures.split("\"" + key + "\": ", -1)).as(key).hasSize(4);
    }
    assertThat(figures).doesNotContainPattern("\"bytesPerValue\": -");
  }
}
