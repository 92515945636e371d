package dev.cairn.cli;

import static dev.cairn.cli.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code cairn bench} from cairn-cli alone: the harness is in cairn-bench, which this module's
 * tests do not see, as the CLI's jar does not. The command is still listed, and says where it is.
 */
class BenchUnavailableCommandTest {

  @Test
  void help_listsBench_amongTheCommands() {
    CliRun run = cairn("--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("bench", "inspect", "verify", "recover");
  }

  @Test
  void bench_withoutTheHarness_exitsOneSayingWhereItIs() {
    assertThat(classExists(Main.BENCH_COMMAND))
        .as("the harness is not on this class path")
        .isFalse();

    CliRun run = cairn("bench", "--n", "5k", "--json");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("cairn bench: ", "cairn-bench", "./cairn bench");
  }

  private static boolean classExists(String name) {
    try {
      Class.forName(name);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
