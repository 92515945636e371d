package dev.cairn.bench.harness;

import dev.cairn.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Runs the {@code cairn} command line in-process, as a user would, and keeps what it printed. The
 * command line is cairn-cli's; with this module on the class path it has the real {@code bench}.
 */
record CliRun(int exitCode, String out, String err) {

  static CliRun cairn(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var commandLine = Main.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new CliRun(exitCode, out.toString(), err.toString());
  }
}
