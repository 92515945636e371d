package dev.cairn.durability;

import dev.cairn.durability.file.FileLayer;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command that runs a test class's {@code main} in a JVM of its own: this JVM's java binary,
 * the given JVM options, and a class path that holds this module's main and test classes. The one
 * launcher of this module's child processes: the kill -9 children ({@code KillNineTest}, {@code
 * KilledChild}) and the second lock holder ({@link DirectoryLockTest}). cairn-bench has its own for
 * the bench's children (its {@code ChildJvm}); tests there reuse that one.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java jvmOptions... -cp <class path> main arguments...}. */
  public static List<String> command(
      Class<?> main, List<String> jvmOptions, List<String> arguments) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath(main), main.getName()));
    command.addAll(arguments);
    return command;
  }

  /**
   * Where {@code main} (a test class) and this module's main classes were loaded from, then the
   * path properties. Surefire may run the tests on the module path (the main classes as a module
   * patched with the test classes), which leaves them out of {@code java.class.path}.
   */
  private static String classPath(Class<?> main) {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(loadedFrom(main));
    entries.add(loadedFrom(FileLayer.class));
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
