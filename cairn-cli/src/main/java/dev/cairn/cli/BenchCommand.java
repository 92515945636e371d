package dev.cairn.cli;

import dev.cairn.cli.bench.BenchConfig;
import dev.cairn.cli.bench.BenchReport;
import dev.cairn.cli.bench.BenchRunner;
import dev.cairn.cli.bench.BenchValueKind;
import dev.cairn.cli.bench.GetOrder;
import dev.cairn.cli.bench.JsonReport;
import dev.cairn.cli.bench.Progress;
import dev.cairn.cli.bench.StoreFailedException;
import dev.cairn.cli.bench.StoreKind;
import dev.cairn.cli.bench.TableReport;
import dev.cairn.cli.bench.TerminalProgress;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn bench}: puts N values into a Pile and into a {@code ConcurrentHashMap}, gets them
 * back, and compares throughput, memory and GC pauses. The measuring is done by {@link
 * BenchRunner}; this class only turns options into a {@link BenchConfig} and prints the report.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Puts N values into a Pile and into a ConcurrentHashMap<Long, byte[]>, with T threads,"
          + " then gets them all back, and prints for each store: puts/s, gets/s, bytes per"
          + " value (growth of the process RSS while loading it, and the live heap's), the"
          + " longest and the total GC pause during its puts and gets, and the pile/map ratio"
          + " of each.",
      "",
      "Values come from a pool of 64K distinct values made before the stores run, cycled by"
          + " index, identically for both stores: N values made ahead would sit on the heap, and"
          + " a new value per put would be garbage, and either would distort the pile's GC and"
          + " RSS figures. The map keeps a string as its UTF-8 bytes, the smallest heap form."
          + " Gets copy a value into a reused buffer (pile) or return the stored array (map),"
          + " and are checked by checksum.",
      "",
      "The pile runs first and is closed before the map runs, so the pile is measured on a"
          + " clean heap. The pile's pointers (a long[N]) are made before its baseline and not"
          + " counted. RSS figures need N of a million or more to rise above fixed costs (the"
          + " pile takes memory a 64 MiB segment at a time).",
      "",
      "The map needs about 110 bytes of heap per 32-byte value: for large N give it heap"
          + " (JAVA_OPTS=-Xmx16g) or run --stores pile.",
    },
    footer = {
      "",
      "Examples:",
      "  cairn bench                                  # both stores, defaults",
      "  cairn bench --n 200k --json                  # small run, JSON on stdout",
      "  JAVA_OPTS=-Xmx2g cairn bench --n 100M --stores pile",
    })
final class BenchCommand implements Callable<Integer> {

  /*
   * The default N: 10M takes about 10 s for both stores together on the reference machine
   * (2 cores, 24 GiB), fits the map (about 1.1 GiB live) in ./cairn's default 4 GiB heap, and
   * makes the pile's fixed cost (a 64 MiB segment per busy stripe) under 1 % of its figures.
   * Larger N changes the pile's figures little; the map's need more heap.
   */
  @Option(
      names = {"-n", "--n"},
      paramLabel = "N",
      defaultValue = "10_000_000",
      converter = CountConverter.class,
      description =
          "Values to put into each store, then get (default: ${DEFAULT-VALUE}, about 10 s for"
              + " both stores on 2 cores). Accepts 5_000_000 or 5M.")
  private int n;

  @Option(
      names = {"-t", "--threads"},
      paramLabel = "T",
      defaultValue = "2",
      description = "Threads; each takes an equal share of the indices (default: ${DEFAULT-VALUE}).")
  private int threads;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      defaultValue = "string",
      description =
          "Value kind: string (ASCII String, stored as UTF-8) or bytes (random byte[])"
              + " (default: ${DEFAULT-VALUE}).")
  private BenchValueKind kind;

  @Option(
      names = "--size",
      paramLabel = "SIZE",
      defaultValue = "32",
      description =
          "Characters of a string, bytes of a byte[] (default: ${DEFAULT-VALUE}, as in the"
              + " seed system's string[32] benchmark).")
  private int size;

  @Option(
      names = "--stores",
      paramLabel = "STORE",
      split = ",",
      defaultValue = "pile,map",
      description =
          "Stores to measure, comma-separated: pile, map (default: ${DEFAULT-VALUE}). They"
              + " always run pile first.")
  private List<StoreKind> stores;

  @Option(
      names = "--get-order",
      paramLabel = "ORDER",
      defaultValue = "random",
      description =
          "Order of the gets in each thread's share: random (a full-period stride, far-apart"
              + " reads) or sequential (index order, which prefetching flatters)"
              + " (default: ${DEFAULT-VALUE}).")
  private GetOrder getOrder;

  @Option(
      names = "--churn",
      paramLabel = "CYCLES",
      defaultValue = "0",
      description =
          "After the gets, delete a random half of the values and put them back, CYCLES times,"
              + " and report the RSS growth this adds as a percentage of the load's"
              + " (default: ${DEFAULT-VALUE}: no churn).")
  private int churn;

  @Option(names = "--json", description = "Print one JSON document on stdout instead of a table.")
  private boolean json;

  @Option(
      names = "--progress",
      negatable = true,
      description =
          "Draw progress bars on stderr (default: only when stderr is a terminal, CI is unset"
              + " and --json is not given).")
  private Boolean progress;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    BenchConfig config;
    try {
      config = new BenchConfig(n, threads, kind, size, stores, getOrder, churn);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    requireMemoryFor(config);

    BenchReport report;
    try {
      report = new BenchRunner(config, showProgress() ? TerminalProgress.on(System.err) : Progress.Factory.NONE).run();
    } catch (StoreFailedException e) {
      throw new CommandFailedException(e.getMessage(), e);
    }

    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? JsonReport.render(report) : TableReport.render(report));
    out.flush();
    return 0;
  }

  /**
   * Refuses a run whose payload alone exceeds the machine's memory: the pile has no budget by
   * default, and would otherwise grow until the OS kills the process, or swaps the machine.
   */
  private void requireMemoryFor(BenchConfig config) {
    long payloadBytes = (long) config.n() * config.valueSize();
    long machineBytes =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    if (payloadBytes > machineBytes) {
      throw new ParameterException(
          spec.commandLine(),
          String.format(
              Locale.ROOT,
              "n x size must fit in this machine's memory: n=%d size=%d needs %,d MiB, memory is"
                  + " %,d MiB",
              config.n(),
              config.valueSize(),
              payloadBytes >> 20,
              machineBytes >> 20));
    }
  }

  private boolean showProgress() {
    if (progress != null) {
      return progress;
    }
    String ci = System.getenv("CI");
    boolean underCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    return !json && !underCi && stderrIsTerminal();
  }

  /**
   * Java cannot ask whether stderr is a terminal, so ./cairn tells it ({@code [ -t 2 ]}) through
   * the property {@code cairn.stderr.terminal}. Without it, the best guess is whether the JVM has
   * an interactive console at all.
   */
  private static boolean stderrIsTerminal() {
    String told = System.getProperty("cairn.stderr.terminal");
    if (told != null) {
      return Boolean.parseBoolean(told);
    }
    var console = System.console();
    return console != null && console.isTerminal();
  }
}
