package dev.cairn.cli;

import dev.cairn.CairnException;
import dev.cairn.cache.CacheDirectory;
import dev.cairn.cli.inspect.Damage;
import dev.cairn.cli.inspect.VerifyReport;
import dev.cairn.pile.PileDirectory;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cairn verify DIR}: checks every checksum and allocator invariant of a persistent pile
 * through {@link PileDirectory#verify}, and reports OK or the first problem. The verdict is the
 * command's result, so a damaged pile is reported on stdout, and exits 1.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Checks the persistent pile in DIR without changing it: the superblock, checkpoint"
          + " metadata and segment header checksums, every log record since the checkpoint"
          + " (CRC32C), and the allocator invariants of every segment (blocks tile it, free lists"
          + " and counters agree). Values carry no checksum of their own, so their contents are"
          + " not checked.",
      "",
      "Prints OK and a summary line (objects, segments, bytes checked: segment bytes walked"
          + " plus log bytes read; log records checked), or DAMAGED and the first problem: the"
          + " file and offset, or the segment, offset and invariant.",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the pile is intact",
      "1:the pile is damaged (the report says where), or DIR holds no pile",
      "2:bad flags, or another process has the pile open"
    },
    footer = {
      "",
      "Examples:",
      "  cairn verify data/users",
      "  cairn verify --json data/users",
    })
final class VerifyCommand implements Callable<Integer> {

  @Mixin private DirectoryArguments arguments;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try {
      PileDirectory.Inspection inspection =
          PileDirectoryAccess.read(arguments.directory(), PileDirectory::verify);
      CacheDirectory.Inspection cache =
          PileDirectoryAccess.read(arguments.directory(), CacheDirectory::verify);
      out.print(
          arguments.json()
              ? VerifyReport.okJson(inspection, cache)
              : VerifyReport.okText(inspection)
                  + (cache.isCache()
                      ? String.format(
                          java.util.Locale.ROOT,
                          "cache: %,d %s in %d %s checked: index and pile agree%n",
                          cache.verifiedEntries(),
                          cache.verifiedEntries() == 1 ? "entry" : "entries",
                          cache.tables().size(),
                          cache.tables().size() == 1 ? "table" : "tables")
                      : ""));
      return 0;
    } catch (CommandFailedException cannotStart) {
      throw cannotStart; // no pile there, or in use: PileDirectoryAccess has said so
    } catch (CairnException damaged) {
      // what is left is damage found in the files (a file, an allocator invariant, a value)
      Damage damage = Damage.of(damaged);
      out.print(
          arguments.json()
              ? VerifyReport.damagedJson(arguments.directory(), damage)
              : VerifyReport.damagedText(arguments.directory(), damage));
      return CommandLine.ExitCode.SOFTWARE;
    } finally {
      out.flush();
    }
  }
}
