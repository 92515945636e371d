package dev.cairn.bench.harness;

import dev.cairn.pile.Pile;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command that runs a class of this bench in a JVM of its own: this JVM's java binary and class
 * path, native access granted, a small heap (the values live in the pile's native memory). Used
 * where a figure needs a new process: the recovery bench's filler, killed with SIGKILL, and the
 * reopen bench's first get in a fresh JVM.
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
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command =
        new ArrayList<>(List.of(java, HEAP, "--enable-native-access=ALL-UNNAMED"));
    for (String option : System.getProperty(OPTIONS_PROPERTY, "").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        command.add(option);
      }
    }
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath(main), main.getName()));
    command.addAll(arguments);
    return command;
  }

  /**
   * Where {@code main} and cairn-core were loaded from, then this JVM's class path: ./cairn bench
   * runs from cairn-bench.jar (whose manifest names the rest), a test runner from classes
   * directories it may list only in a manifest of its own.
   */
  private static String classPath(Class<?> main) {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(loadedFrom(main));
    entries.add(loadedFrom(Pile.class));
    for (String property : List.of("java.class.path", "jdk.module.path")) {
      for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(entry);
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String loadedFrom(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the classes of " + type, e);
    }
  }
}
