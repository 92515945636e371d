package dev.cairn.bench.harness;

import dev.cairn.pile.Pile;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs a class of this bench in a JVM of its own: {@link
 * dev.cairn.process.ChildJvm}'s (this JVM's java binary and class path, with cairn-core's
 * location), plus the bench's defaults: native access granted, a small heap (the values live in the
 * pile's native memory) and the flags of {@value #OPTIONS_PROPERTY}. Used where a figure needs a
 * new process: the recovery bench's filler, killed with SIGKILL, the reopen bench's first get in a
 * fresh JVM, and every store of the cache workload.
 */
public final class ChildJvm {
  private static final String HEAP = "-Xmx512m";

  /**
   * A system property of the bench's JVM: more flags for its child JVMs, separated by spaces. For
   * what a deployment would add, such as the JDK's ahead-of-time cache (docs/BENCHMARKS.md, "Reopen
   * and restart").
   */
  static final String OPTIONS_PROPERTY = "cairn.bench.childJavaOptions";

  private ChildJvm() {}

  /** {@code java ... main arguments...}. */
  public static List<String> command(Class<?> main, List<String> arguments) {
    return command(main, List.of(), arguments);
  }

  /**
   * {@code java ... jvmOptions... main arguments...}: {@code jvmOptions} come after the defaults,
   * so that a {@code -Xmx} among them overrides the small heap.
   */
  public static List<String> command(
      Class<?> main, List<String> jvmOptions, List<String> arguments) {
    List<String> options = new ArrayList<>(List.of(HEAP, "--enable-native-access=ALL-UNNAMED"));
    for (String option : System.getProperty(OPTIONS_PROPERTY, "").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        options.add(option);
      }
    }
    options.addAll(jvmOptions);
    return dev.cairn.process.ChildJvm.command(main, List.of(Pile.class), options, arguments);
  }
}
