package dev.cairn.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the {@code cairn} program: runs {@link CairnCommand} and exits with its code.
 *
 * <p>Exit codes: 0 success; 1 the command failed (the reason is on stderr), or found a pile missing
 * or damaged; 2 bad flags, or a pile directory that another process has open.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // exit explicitly: a library thread (the progress bar's refresher) must not keep the JVM up
    System.exit(commandLine().execute(args));
  }

  /**
   * The class of {@code cairn bench}, in cairn-bench. cairn-bench depends on this module, not the
   * reverse: the harness brings the stores it compares the pile with (RocksDB, a JNI library of its
   * own), which the command line must not carry. So the command is found by name, when cairn-bench
   * is on the class path ({@code ./cairn bench} puts it there); without it, {@code bench} is {@link
   * BenchUnavailableCommand}, which says so.
   */
  static final String BENCH_COMMAND = "dev.cairn.bench.harness.BenchCommand";

  /**
   * The class of {@code cairn demo}, in cairn-bench for the same reason as {@link #BENCH_COMMAND}:
   * it sets the cache beside peers (Caffeine). Added only when present.
   */
  static final String DEMO_COMMAND = "dev.cairn.bench.demo.DemoCommand";

  /** The configured command line; tests drive it directly, with their own out and err writers. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new CairnCommand());
    // subcommands first: the settings below reach only the subcommands already added
    commandLine.addSubcommand(benchCommand());
    Object demo = optionalCommand(DEMO_COMMAND);
    if (demo != null) {
      commandLine.addSubcommand(demo);
    }
    commandLine.addSubcommand(new InspectCommand());
    commandLine.addSubcommand(new VerifyCommand());
    commandLine.addSubcommand(new RecoverCommand());
    commandLine.addSubcommand(new CommandLine.HelpCommand());
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setParameterExceptionHandler(Main::reportUsageError);
    commandLine.setExecutionExceptionHandler(Main::reportFailure);
    return commandLine;
  }

  private static Object optionalCommand(String name) {
    Class<?> type;
    try {
      type = Class.forName(name);
    } catch (ClassNotFoundException absent) {
      return null;
    }
    try {
      return type.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make the command " + name, e);
    }
  }

  private static Object benchCommand() {
    Class<?> type;
    try {
      type = Class.forName(BENCH_COMMAND);
    } catch (ClassNotFoundException absent) {
      return new BenchUnavailableCommand();
    }
    try {
      return type.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make the bench command " + BENCH_COMMAND, e);
    }
  }

  /**
   * Prints what is wrong with the flags in one or two lines, rather than the whole help, which
   * would bury the message: the problem, then a near miss for a misspelt option, or where help is.
   */
  private static int reportUsageError(CommandLine.ParameterException problem, String[] args) {
    CommandLine commandLine = problem.getCommandLine();
    PrintWriter err = commandLine.getErr();
    String command = commandLine.getCommandSpec().qualifiedName();
    err.println(command + ": " + problem.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(problem, err)) {
      err.println("Try '" + command + " --help' for more information.");
    }
    err.flush();
    return commandLine.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * Prints why a command failed. An expected failure ({@link CommandFailedException}) gets its
   * message alone; anything else is a bug or an environment problem, and gets its stack trace too.
   */
  private static int reportFailure(
      Exception failure, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    PrintWriter err = commandLine.getErr();
    err.println(commandLine.getCommandSpec().qualifiedName() + ": " + failure.getMessage());
    if (failure instanceof CommandFailedException expected) {
      err.flush();
      return expected.exitCode();
    }
    failure.printStackTrace(err);
    err.flush();
    return CommandLine.ExitCode.SOFTWARE;
  }
}
