package dev.cairn.cli;

import static dev.cairn.cli.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.DirectoryLock;
import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.Transaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class InspectCommandTest {
  @TempDir Path directory;

  @Test
  void inspect_ofAClosedPile_printsItsFiguresAndACleanClose() throws Exception {
    TestPiles.create(directory, 1000);

    CliRun run = cairn("inspect", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("pile " + directory)
        .contains("format version", "1.0 MiB segments", "objects         1,000", "links")
        .contains("capacity", "allocated", "utilized", "free", "availability")
        .contains("checkpoint      LSN", "log ", "last close      clean")
        .containsPattern("tag bound +[1-9][0-9,]* \\(after a crash the pointer tag clock");
  }

  @Test
  void inspect_withJson_printsOneDocumentWithTheSameFigures() throws Exception {
    TestPiles.create(directory, 1000);

    CliRun run = cairn("inspect", "--json", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).startsWith("{").endsWith("}");
    assertThat(run.out())
        .contains("\"formatVersion\": 1", "\"segmentBytes\": 1048576", "\"objects\": 1000")
        .contains("\"links\": 0", "\"capacityBytes\": ", "\"availability\": ")
        .contains("\"checkpointLsn\": ", "\"lastCheckpoint\": \"20", "\"logEndLsn\": ")
        .contains("\"logRecordsSinceCheckpoint\": 0", "\"lastCloseClean\": true")
        .containsPattern("\"tagBound\": [1-9]");
  }

  /**
   * The files of a running pile, copied while a transaction is open, are what a crash leaves:
   * inspect says the close was not clean, counts the transaction the next open rolls back, and
   * leaves its values out of the figures, as that open will.
   */
  @Test
  void inspect_ofACrashWithATransactionOpen_reportsTheRollbackRecoveryWillMake() throws Exception {
    Path running = directory.resolve("running");
    Path crashed = directory.resolve("crashed");
    try (Pile pile = Pile.open(running, TestPiles.options(Durability.SYNC))) {
      for (int i = 0; i < 100; i++) {
        pile.put("committed " + i);
      }
      Transaction open = pile.beginTransaction();
      for (int i = 0; i < 50; i++) {
        open.put("never committed " + i);
      }
      pile.put("forces the log"); // a SYNC write: every record before it is durable
      try (Stream<Path> files = Files.walk(running)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Path copy = crashed.resolve(running.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(copy);
          } else if (!file.getFileName().toString().equals(DirectoryLock.LOCK_FILE_NAME)) {
            Files.copy(file, copy);
          }
        }
      }
      open.rollback();
    }

    CliRun run = cairn("inspect", crashed.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("objects         101", "last close      NOT clean")
        .contains(
            "unfinished      1 transaction the crash left open: the next open rolls it" + " back");
  }

  @Test
  void inspect_ofARegularFile_exitsOneSayingItIsAFile() throws Exception {
    Path file = Files.writeString(directory.resolve("notes.txt"), "not a pile");

    CliRun run = cairn("inspect", file.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("it is a file, not a pile's directory");
    assertThat(Files.readString(file)).isEqualTo("not a pile");
  }

  @Test
  void inspect_ofAnEmptyDirectory_exitsOneSayingThereIsNoPile() {
    CliRun run = cairn("inspect", directory.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err()).contains("no pile in " + directory, "pile.sb");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void inspect_ofAMissingDirectory_exitsOneWithoutCreatingIt() {
    Path missing = directory.resolve("nothing-here");

    CliRun run = cairn("inspect", missing.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err()).contains("does not exist");
    assertThat(missing).doesNotExist();
  }

  @Test
  void inspect_ofAPileOpenElsewhere_exitsTwoSayingItIsInUse() throws Exception {
    try (Pile _ = Pile.open(directory, TestPiles.options(Durability.NONE))) {
      CliRun run = cairn("inspect", directory.toString());

      assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
      assertThat(run.err()).contains(directory.toString(), "open");
    }
  }

  @Test
  void inspect_ofADamagedPile_exitsOneNamingTheFile() throws Exception {
    TestPiles.create(directory, 1000);
    Path segment = directory.resolve("seg-00000.dat");
    VerifyCommandTest.flipByte(segment, 13);

    CliRun run = cairn("inspect", directory.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err()).contains(segment.toString(), "offset");
    assertThat(Files.exists(segment)).isTrue();
  }
}
