package dev.cairn.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cairn demo} end to end, small: a killed loader, a reopen that finds every order. */
class DemoCommandTest {
  @TempDir Path temp;

  @Test
  void demo_findsEveryOrderAfterTheKill_andSaysSo() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var commandLine = Main.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exit =
        commandLine.execute(
            "demo",
            "-n",
            "20k",
            "--updates",
            "500",
            "--dir",
            temp.resolve("demo").toString(),
            "--json");
    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains(
            "\"found\": 20000",
            "\"updatesFound\": 500",
            "\"wrong\": 0",
            "\"entriesAfterRestart\": 0");
  }

  @Test
  void demo_refusesADirectoryThatHoldsSomethingElse() throws Exception {
    Path dir = temp.resolve("other");
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(dir.resolve("notes.txt"), "mine");
    StringWriter err = new StringWriter();
    var commandLine = Main.commandLine();
    commandLine.setErr(new PrintWriter(err, true));
    int exit = commandLine.execute("demo", "-n", "1k", "--dir", dir.toString());
    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).contains("is not a directory cairn demo made");
    assertThat(dir.resolve("notes.txt")).exists();
  }
}
