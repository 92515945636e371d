package dev.cairn.cli;

import dev.cairn.CairnException;
import dev.cairn.cache.CacheDirectory;
import dev.cairn.cli.inspect.CacheReport;
import dev.cairn.cli.inspect.InspectionReport;
import dev.cairn.pile.PileDirectory;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cairn inspect DIR}: reports what a persistent pile's directory holds, through {@link
 * PileDirectory#inspect}, which reads the files and changes nothing.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Reports on the persistent pile in DIR without changing it: format version, geometry,"
          + " segments, objects and links, bytes (capacity, allocated, utilized, overhead, free),"
          + " availability, the last checkpoint (LSN and time), the log written since it, and"
          + " whether the pile was last closed cleanly. For a persistent cache, also its tables:"
          + " key and value types, entries, bytes and index size.",
      "",
      "It opens the pile read-only and replays its log in memory, so the figures are those the"
          + " next open will see. It needs the directory's lock: a pile open in another process"
          + " cannot be inspected.",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the report was printed",
      "1:DIR holds no pile, or the pile is damaged (the message names the file and offset)",
      "2:bad flags, or another process has the pile open"
    },
    footer = {
      "",
      "Examples:",
      "  cairn inspect data/users",
      "  cairn inspect --json data/users",
    })
final class InspectCommand implements Callable<Integer> {

  @Mixin private DirectoryArguments arguments;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    PileDirectory.Inspection inspection;
    try {
      inspection = PileDirectoryAccess.read(arguments.directory(), PileDirectory::inspect);
    } catch (CommandFailedException cannotStart) {
      throw cannotStart; // no pile there, or in use: PileDirectoryAccess has said so
    } catch (CairnException damaged) {
      throw new CommandFailedException(
          "the pile in "
              + arguments.directory()
              + " cannot be read: "
              + damaged.getMessage()
              + " (cairn verify checks all of it)",
          damaged);
    }
    CacheDirectory.Inspection cache;
    try {
      cache = PileDirectoryAccess.read(arguments.directory(), CacheDirectory::inspect);
    } catch (CairnException damaged) {
      throw new CommandFailedException(
          "the cache in "
              + arguments.directory()
              + " cannot be read: "
              + damaged.getMessage()
              + " (cairn verify checks all of it)",
          damaged);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (arguments.json()) {
      out.print(InspectionReport.json(inspection, cache));
    } else {
      out.print(InspectionReport.text(inspection));
      if (cache.isCache()) {
        out.print(CacheReport.text(cache));
      }
    }
    out.flush();
    return 0;
  }
}
