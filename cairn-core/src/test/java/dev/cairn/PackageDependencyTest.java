package dev.cairn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package boundaries of cairn-core, read from the compiled classes: which class uses which, as
 * its constant pool names them (every class, field and method it refers to, and the types in their
 * descriptors and generic signatures). Nested classes count as their top-level class.
 *
 * <p>Constants are inlined by javac and imports used only by javadoc compile to nothing, so the
 * codec rule is also checked on the sources' imports.
 */
class PackageDependencyTest {
  private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L(dev/cairn/[\\w/$]+)[;<]");
  private static final Path CLASSES = classes();

  /** Top-level class (internal name) -> the Cairn top-level classes it uses, itself excluded. */
  private static final Map<String, Set<String>> USES = readUses(CLASSES);

  @Test
  void theRootPackageUsesNoOtherCairnPackage() {
    Set<String> found = new TreeSet<>();
    USES.forEach(
        (user, used) -> {
          if (packageOf(user).equals("dev/cairn")) {
            used.stream()
                .filter(u -> !packageOf(u).equals("dev/cairn"))
                .forEach(u -> found.add(user + " -> " + u));
          }
        });
    assertThat(USES).containsKey("dev/cairn/CairnException");
    assertThat(found).isEmpty();
  }

  @Test
  void durabilityKnowsNothingOfPilesOrCodecs() {
    assertThat(uses("dev/cairn/durability", "dev/cairn/pile/")).isEmpty();
    assertThat(uses("dev/cairn/durability", "dev/cairn/codec/")).isEmpty();
  }

  /**
   * The exported face of durability (its exceptions) uses none of the machinery behind it, and the
   * file layer none of the log built on it.
   */
  @Test
  void durabilityLayersRunOneWay() {
    Set<String> found = new TreeSet<>();
    USES.forEach(
        (user, used) -> {
          if (packageOf(user).equals("dev/cairn/durability")) {
            used.stream()
                .filter(u -> packageOf(u).startsWith("dev/cairn/durability/"))
                .forEach(u -> found.add(user + " -> " + u));
          }
        });
    assertThat(found).isEmpty();
    assertThat(uses("dev/cairn/durability/file", "dev/cairn/durability/log/")).isEmpty();
  }

  @Test
  void memoryKnowsNothingOfBlocksValuesOrFiles() {
    assertThat(uses("dev/cairn/memory", "dev/cairn/pile/")).isEmpty();
    assertThat(uses("dev/cairn/memory", "dev/cairn/codec/")).isEmpty();
    assertThat(uses("dev/cairn/memory", "dev/cairn/durability/")).isEmpty();
  }

  @Test
  void theCoarseClockKnowsNothingOfPilesCodecsOrFiles() {
    assertThat(USES).containsKey("dev/cairn/time/CoarseClock");
    assertThat(uses("dev/cairn/time", "dev/cairn/pile/")).isEmpty();
    assertThat(uses("dev/cairn/time", "dev/cairn/codec/")).isEmpty();
    assertThat(uses("dev/cairn/time", "dev/cairn/durability/")).isEmpty();
  }

  @Test
  void codecsKnowNothingOfPilesFilesOrMemory() {
    assertThat(uses("dev/cairn/codec", "dev/cairn/pile/")).isEmpty();
    assertThat(uses("dev/cairn/codec", "dev/cairn/durability/")).isEmpty();
    assertThat(uses("dev/cairn/codec", "dev/cairn/memory/")).isEmpty();
  }

  /**
   * CodecRegistry builds the object codec (ObjectTypes); the object codec uses only what codecs are
   * made of, never the registry, so the two packages form no circle.
   */
  @Test
  void theObjectCodecUsesNotTheRegistryThatBuildsIt() throws IOException {
    assertThat(uses("dev/cairn/codec/object", "dev/cairn/codec/CodecRegistry")).isEmpty();
    Path objectSources = CLASSES.resolve("../../src/main/java/dev/cairn/codec/object").normalize();
    List<String> imports = new ArrayList<>();
    try (Stream<Path> files = Files.list(objectSources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(file)) {
          if (line.startsWith("import dev.cairn.codec.CodecRegistry")) {
            imports.add(file.getFileName() + ": " + line);
          }
        }
      }
    }
    assertThat(imports).isEmpty();
    // only the registry reaches into the object codec
    Set<String> users = new TreeSet<>();
    USES.forEach(
        (user, used) -> {
          if (packageOf(user).equals("dev/cairn/codec")
              && used.stream().anyMatch(u -> packageOf(u).equals("dev/cairn/codec/object"))) {
            users.add(user);
          }
        });
    assertThat(users).containsExactly("dev/cairn/codec/CodecRegistry");
  }

  /**
   * No circle of classes runs through two packages: where a class of one package uses a class of
   * another, nothing that one uses, however indirectly, leads back.
   */
  @Test
  void noCircleOfClassesCrossesAPackageBoundary() {
    List<Set<String>> crossing = new ArrayList<>();
    for (Set<String> component : stronglyConnected(USES)) {
      Set<String> packages = new TreeSet<>();
      component.forEach(c -> packages.add(packageOf(c)));
      if (packages.size() > 1) {
        crossing.add(component);
      }
    }
    assertThat(crossing).isEmpty();
  }

  /** The uses, as "user -> used", of classes in {@code from} (and below) of names {@code to}*. */
  private static Set<String> uses(String from, String to) {
    Set<String> found = new TreeSet<>();
    USES.forEach(
        (user, used) -> {
          String pkg = packageOf(user);
          if (pkg.equals(from) || pkg.startsWith(from + "/")) {
            for (String u : used) {
              if (u.startsWith(to) && !packageOf(u).equals(pkg)) {
                found.add(user + " -> " + u);
              }
            }
          }
        });
    return found;
  }

  private static String packageOf(String internalName) {
    int slash = internalName.lastIndexOf('/');
    return slash < 0 ? "" : internalName.substring(0, slash);
  }

  private static String topLevel(String internalName) {
    int dollar = internalName.indexOf('$', internalName.lastIndexOf('/') + 1);
    return dollar < 0 ? internalName : internalName.substring(0, dollar);
  }

  private static Path classes() {
    try {
      return Path.of(
          CairnException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cairn-core's classes are not in a directory", e);
    }
  }

  private static Map<String, Set<String>> readUses(Path root) {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = file.getFileName().toString();
        if (name.equals("module-info.class") || name.equals("package-info.class")) {
          continue;
        }
        ClassModel model = ClassFile.of().parse(Files.readAllBytes(file));
        String self = topLevel(model.thisClass().asInternalName());
        Set<String> used = uses.computeIfAbsent(self, k -> new TreeSet<>());
        for (PoolEntry entry : model.constantPool()) {
          if (entry instanceof ClassEntry c && c.asInternalName().startsWith("dev/cairn/")) {
            used.add(topLevel(c.asInternalName()));
          } else if (entry instanceof Utf8Entry u) {
            Matcher m = DESCRIPTOR_CLASS.matcher(u.stringValue());
            while (m.find()) {
              used.add(topLevel(m.group(1)));
            }
          }
        }
        used.remove(self);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the classes under " + root, e);
    }
    assertThat(uses).as("classes under %s", root).containsKey("dev/cairn/pile/Pile");
    return uses;
  }

  /** Tarjan's strongly connected components of {@code graph}. */
  private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new java.util.HashSet<>();
    List<Set<String>> components = new ArrayList<>();
    int[] next = {0};
    for (String start : graph.keySet()) {
      if (!index.containsKey(start)) {
        connect(start, graph, index, low, stack, onStack, components, next);
      }
    }
    return components;
  }

  private static void connect(
      String v,
      Map<String, Set<String>> graph,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<Set<String>> components,
      int[] next) {
    index.put(v, next[0]);
    low.put(v, next[0]);
    next[0]++;
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!graph.containsKey(w)) {
        continue; // not a class of cairn-core's main code
      }
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, components, next);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      components.add(component);
    }
  }
}
