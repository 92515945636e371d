package dev.cairn.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code cairn bench} where the benchmark harness is not on the class path: it says where the
 * harness is and fails. The harness and the stores it compares the pile with are in cairn-bench,
 * which {@code ./cairn bench} builds and puts on the class path (see {@link Main#commandLine}), so
 * that cairn-cli's jar and its {@code lib/} carry no benchmark code and no peer store.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Compares the Pile with a ConcurrentHashMap and other stores: throughput, memory, GC"
          + " pauses, restart, durable commits, recovery. Runs from cairn-bench: use ./cairn"
          + " bench, which builds it and puts it on the class path.",
    })
final class BenchUnavailableCommand implements Callable<Integer> {

  /** The bench's own options, which only the harness knows. */
  @SuppressWarnings("UnusedVariable") // picocli fills it: the options then make no usage error
  @Unmatched
  private List<String> arguments;

  @Override
  public Integer call() {
    throw new CommandFailedException(
        "the benchmark harness is not on the class path: it is in cairn-bench"
            + " (target/cairn-bench.jar, which names its libraries); ./cairn bench builds it and"
            + " runs it");
  }
}
