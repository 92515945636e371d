package dev.cairn.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code cairn} command. It does nothing by itself; each task is a subcommand ({@code
 * bench}, {@code inspect}, {@code verify}, {@code recover}), registered by {@link
 * Main#commandLine}: {@code bench} comes from cairn-bench when it is on the class path.
 */
@Command(
    name = "cairn",
    mixinStandardHelpOptions = true,
    versionProvider = CairnCommand.Version.class,
    description = "Cairn: an off-heap object store (Pile) for Java.")
final class CairnCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  /** Invoked without a subcommand: show what there is, and fail so that scripts notice. */
  @Override
  public Integer call() {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println("cairn: missing subcommand");
    commandLine.usage(commandLine.getErr());
    return CommandLine.ExitCode.USAGE;
  }

  /** The version from the jar's manifest, which Maven writes; "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = CairnCommand.class.getPackage().getImplementationVersion();
      return new String[] {"cairn " + (version == null ? "dev" : version)};
    }
  }
}
