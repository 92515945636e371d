package dev.cairn.cli;

import dev.cairn.CairnException;
import dev.cairn.cli.inspect.RecoverReport;
import dev.cairn.pile.PileDirectory;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cairn recover DIR}: opens a persistent pile salvaging a damaged log, through {@link
 * PileDirectory#salvage(Path)}, and reports what was kept and dropped.
 */
@Command(
    name = "recover",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Recovers the persistent pile in DIR, salvaging its log if it is damaged: the open that"
          + " Pile.open refuses with a corrupt-log error (damage in the middle of the log, where"
          + " a crash cannot explain it).",
      "",
      "Salvage is point in time: every write logged before the first damaged record is kept;"
          + " that record and everything logged after it are dropped, even intact records,"
          + " which may depend on what was lost; a transaction whose commit was dropped is rolled"
          + " back. Before the log is changed its files are copied to DIR/wal.damaged-<UTC time>,"
          + " which is never deleted. The recovered state is checkpointed and the pile closed;"
          + " it then opens normally.",
      "",
      "Prints RECOVERED and whether anything was dropped; if so, where the damage was (file,"
          + " offset, LSN), what was dropped (the LSN range and its bytes, exact; the records"
          + " as counted: those after the damage that could be read, plus the damaged one), and"
          + " where the copy is. A pile whose log is not damaged is just opened and closed.",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the pile was recovered (the report says whether anything was dropped)",
      "1:DIR holds no pile, or even a salvage cannot open it (the message names the damage)",
      "2:bad flags, or another process has the pile open"
    },
    footer = {
      "",
      "Examples:",
      "  cairn recover data/users",
      "  cairn recover --json data/users",
    })
final class RecoverCommand implements Callable<Integer> {

  @Mixin private DirectoryArguments arguments;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    PileDirectory.Salvage salvage;
    try {
      salvage = PileDirectoryAccess.read(arguments.directory(), PileDirectory::salvage);
    } catch (CommandFailedException cannotStart) {
      throw cannotStart; // no pile there, or in use: PileDirectoryAccess has said so
    } catch (CairnException damaged) {
      throw new CommandFailedException(
          "the pile in "
              + arguments.directory()
              + " cannot be recovered, not even by salvaging its log: "
              + damaged.getMessage(),
          damaged);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(arguments.json() ? RecoverReport.json(salvage) : RecoverReport.text(salvage));
    out.flush();
    return 0;
  }
}
