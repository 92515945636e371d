package dev.cairn.process;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command that runs a class's {@code main} in a JVM of its own: this JVM's java binary, the
 * given JVM options, and a class path that can load the class. The one launcher of Cairn's child
 * processes: the kill -9 children and the second lock holder of cairn-core's and cairn-cache's
 * tests, and the benchmark's children (which add their defaults, see cairn-bench's {@code
 * ChildJvm}).
 *
 * <p>The class path: where {@code main} and each class of {@code alongside} were loaded from, then
 * this JVM's {@code java.class.path} and {@code jdk.module.path}. The locations come first because
 * a test runner may put the module under test on the module path (patched with its test classes) or
 * list classes directories only in a manifest of its own, and {@code ./cairn bench} runs from a jar
 * whose manifest names the rest.
 *
 * <p>Thread-safety: stateless.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * {@code java jvmOptions... -cp <class path> main arguments...}.
   *
   * @param main the class whose {@code main} the child runs
   * @param alongside classes whose locations the class path must hold too (the module under test,
   *     say)
   * @param jvmOptions the child's JVM options, in order
   * @param arguments the arguments of {@code main}
   * @return the command, for a {@link ProcessBuilder}
   * @throws IllegalStateException if a class's location cannot be told (no code source)
   */
  public static List<String> command(
      Class<?> main, List<Class<?>> alongside, List<String> jvmOptions, List<String> arguments) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath(main, alongside), main.getName()));
    command.addAll(arguments);
    return command;
  }

  private static String classPath(Class<?> main, List<Class<?>> alongside) {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(loadedFrom(main));
    for (Class<?> type : alongside) {
      entries.add(loadedFrom(type));
    }
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
      var source = type.getProtectionDomain().getCodeSource();
      if (source == null) {
        throw new IllegalStateException(
            "cannot locate the classes of " + type.getName() + ": it has no code source");
      }
      return Path.of(source.getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
    }
  }
}
