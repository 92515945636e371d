package dev.cairn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cairn-core as a module, the way an application on the module path meets it: surefire runs the
 * other tests from the class path, where module-info means nothing. Each test launches a child JVM
 * with {@code --module-path target/classes --add-modules dev.cairn.core} and a source file (run by
 * the source launcher, in the unnamed module), so javac checks the program's imports against the
 * module's exports and the JVM its reflective access.
 */
class ModulePathTest {
  private static final List<String> INTERNAL =
      List.of(
          "dev.cairn.memory",
          "dev.cairn.codec.object",
          "dev.cairn.durability.log",
          "dev.cairn.durability.file");

  @TempDir Path work;

  /**
   * A program that uses only the exported packages: it stores and reads back an object (the
   * generated codec reaches the program's record across the module boundary), meets a Cairn
   * exception of an exported package, and finds the internal packages closed to it.
   */
  @Test
  void aPileWorksThroughTheExportedPackagesAlone() throws Exception {
    Path program = work.resolve("ExportedApiOnly.java");
    Files.writeString(
        program,
        """
        import dev.cairn.CairnException;
        import dev.cairn.codec.CodecRegistry;
        import dev.cairn.durability.DirectoryLockedException;
        import dev.cairn.pile.Pile;
        import dev.cairn.pile.PileOptions;
        import java.nio.file.Path;
        import java.util.List;

        public class ExportedApiOnly {
          public record Point(int x, int y) {}

          public static void main(String[] args) throws Exception {
            Module core = Pile.class.getModule();
            check(core.isNamed() && core.getName().equals("dev.cairn.core"),
                "Pile is in " + core + ", not in the named module dev.cairn.core");
            Path dir = Path.of(args[0]);
            PileOptions options = PileOptions.builder().segmentBytes(1 << 20)
                .codecs(CodecRegistry.builder().allow(Point.class).build()).build();
            long point;
            long text;
            try (Pile pile = Pile.open(dir, options)) {
              point = pile.put(new Point(3, 4));
              text = pile.put("through the module path");
              try {
                Pile.open(dir, options).close();
                check(false, "a second open of " + dir + " was not refused");
              } catch (DirectoryLockedException expected) {
                check(expected instanceof CairnException, "not a CairnException: " + expected);
              }
            }
            try (Pile pile = Pile.open(dir, options)) {
              check(pile.get(point).equals(new Point(3, 4)), "read back " + pile.get(point));
              check(pile.get(text).equals("through the module path"),
                  "read back " + pile.get(text));
            }
            for (String internal : List.of(args).subList(1, args.length)) {
              check(core.getPackages().contains(internal), internal + " is not in " + core);
              check(!core.isExported(internal), internal + " is exported");
            }
            try {
              Class.forName("dev.cairn.durability.file.RealFileLayer").getField("INSTANCE")
                  .get(null);
              check(false, "RealFileLayer.INSTANCE was readable from outside the module");
            } catch (IllegalAccessException expected) {
              // the package is not exported: reflection is refused as javac would refuse
            }
            System.out.println("exported API only: ok");
          }

          static void check(boolean ok, String what) {
            if (!ok) {
              throw new AssertionError(what);
            }
          }
        }
        """);
    List<String> args = new ArrayList<>(List.of(work.resolve("pile").toString()));
    args.addAll(INTERNAL);
    Run run = launch(program, args);
    assertThat(run.exitCode).as(run.output).isZero();
    assertThat(run.output).contains("exported API only: ok");
  }

  /** A program that imports from an internal package does not compile. */
  @Test
  void theInternalPackagesAreNotVisible() throws Exception {
    Path program = work.resolve("InternalApi.java");
    StringBuilder source = new StringBuilder();
    for (String internal : INTERNAL) {
      source.append("import ").append(internal).append(".*;\n");
    }
    source.append(
        """
        public class InternalApi {
          public static void main(String[] args) {
            System.out.println("internal API: compiled");
          }
        }
        """);
    Files.writeString(program, source);
    Run run = launch(program, List.of());
    assertThat(run.exitCode).as(run.output).isNotZero();
    assertThat(run.output).doesNotContain("internal API: compiled");
    for (String internal : INTERNAL) {
      assertThat(run.output)
          .as(run.output)
          .contains(
              "package "
                  + internal
                  + " is declared in module dev.cairn.core, which does not export"
                  + " it");
    }
  }

  private record Run(int exitCode, String output) {}

  private static Run launch(Path program, List<String> args)
      throws IOException, InterruptedException, URISyntaxException {
    Path classes =
        Path.of(CairnException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(classes.resolve("module-info.class")).exists();
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "--module-path",
                classes.toString(),
                "--add-modules",
                "dev.cairn.core",
                "--enable-native-access=dev.cairn.core",
                program.toString()));
    command.addAll(args);
    Path log = program.resolveSibling(program.getFileName() + ".out");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    process.getOutputStream().close();
    boolean done = process.waitFor(60, TimeUnit.SECONDS);
    if (!done) {
      process.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(done).as("the child JVM ended within 60 s: %s", output).isTrue();
    return new Run(process.exitValue(), String.join(" ", command) + "\n" + output);
  }
}
