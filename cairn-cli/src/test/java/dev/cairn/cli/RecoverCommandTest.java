package dev.cairn.cli;

import static dev.cairn.cli.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.LogReader;
import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RecoverCommandTest {
  private static final int PUTS = 40;
  private static final int DAMAGED = 25; // the put whose log record gets a flipped byte
  private static final int CHECKPOINTED = 10; // values put before the checkpoint

  @TempDir Path temp;

  @Test
  void recover_ofAPileWithADamagedLog_keepsTheWritesBeforeTheDamageAndSaysWhatItDropped()
      throws Exception {
    Path pile = crashedPile();
    long damagedLsn = damageRecord(pile, DAMAGED);
    assertThatThrownBy(() -> Pile.open(pile, TestPiles.options(Durability.SYNC)).close())
        .isInstanceOf(CorruptLogException.class)
        .hasMessageContaining("cairn recover " + pile);

    CliRun run = cairn("recover", pile.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().toList())
        .first()
        .isEqualTo("RECOVERED, dropping part of a damaged log");
    assertThat(run.out())
        .contains(
            "(lsn " + damagedLsn + "): ",
            "every write logged before lsn "
                + damagedLsn
                + " ("
                + DAMAGED
                + " log records replayed)",
            "bytes (exact); "
                + (PUTS - DAMAGED - 1)
                + " readable records after the damage (counted)",
            pile.resolve("wal.damaged-").toString(),
            "objects       " + (CHECKPOINTED + DAMAGED));
    try (Pile reopened = Pile.open(pile, TestPiles.options(Durability.SYNC))) {
      assertThat(reopened.stats().objectCount()).isEqualTo(CHECKPOINTED + DAMAGED);
    }
  }

  @Test
  void recover_withJson_reportsTheDroppedRangeAndTheCopy() throws Exception {
    Path pile = crashedPile();
    long damagedLsn = damageRecord(pile, DAMAGED);

    CliRun run = cairn("recover", "--json", pile.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "\"recovered\": true",
            "\"dropped\": true",
            "\"logRecordsReplayed\": " + DAMAGED,
            "\"firstDroppedLsn\": " + damagedLsn,
            "\"readableRecordsDropped\": " + (PUTS - DAMAGED - 1),
            "\"droppedBytes\": ",
            "\"copy\": \"" + pile.resolve("wal.damaged-"));
    try (Stream<Path> files = Files.list(pile)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .anyMatch(name -> name.startsWith("wal.damaged-"));
    }
  }

  @Test
  void recover_ofAnUndamagedCrashedPile_saysNothingWasDroppedAndExitsZero() throws Exception {
    Path pile = crashedPile();

    CliRun run = cairn("recover", pile.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("RECOVERED, nothing dropped")
        .contains(PUTS + " log records", "objects       " + (CHECKPOINTED + PUTS));
  }

  @Test
  void recover_ofAPileWithoutALog_opensAndClosesItAndAddsNoLog() throws Exception {
    Path pile = temp.resolve("pile");
    TestPiles.create(pile, 100);

    CliRun run = cairn("recover", "--json", pile.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"dropped\": false", "\"damage\": null", "\"objects\": 100");
    assertThat(pile.resolve("wal")).doesNotExist();
  }

  @Test
  void recover_whenEvenASalvageCannotOpenThePile_exitsOneNamingTheDamage() throws Exception {
    Path pile = crashedPile();
    Path segment = pile.resolve("seg-00000.dat");
    VerifyCommandTest.flipByte(segment, 13);

    CliRun run = cairn("recover", pile.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err())
        .contains("cannot be recovered, not even by salvaging its log", segment.toString());
    assertThat(run.out()).isEmpty();
  }

  @Test
  void recover_ofAnEmptyDirectory_exitsOneAndCreatesNothing() throws IOException {
    Path empty = Files.createDirectories(temp.resolve("empty"));

    CliRun run = cairn("recover", empty.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err()).contains("no pile in");
    try (Stream<Path> files = Files.list(empty)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void recover_withoutADirectory_exitsTwo() {
    assertThat(cairn("recover").exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
  }

  /**
   * A pile as a kill -9 leaves it: a checkpoint, then {@link #PUTS} puts in SYNC mode (each durable
   * in the log when it returns, one record each), copied while the pile is still open.
   */
  private Path crashedPile() throws IOException {
    Path live = temp.resolve("live");
    Path crashed = temp.resolve("crashed");
    try (Pile pile = Pile.open(live, TestPiles.options(Durability.SYNC))) {
      for (int i = 0; i < CHECKPOINTED; i++) {
        pile.put("checkpointed " + i);
      }
      pile.checkpoint();
      for (int i = 0; i < PUTS; i++) {
        pile.put("value " + i);
      }
      copy(live, crashed);
    }
    assertThat(logRecords(crashed)).as("one record per put").hasSize(PUTS);
    return crashed;
  }

  /** Flips a byte in the payload of the {@code index}th record since the checkpoint. */
  private static long damageRecord(Path pile, int index) throws IOException {
    long lsn = logRecords(pile).get(index);
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, pile.resolve("wal"))) {
      VerifyCommandTest.flipByte(reader.fileOf(lsn), reader.fileOffsetOf(lsn) + 30);
    }
    return lsn;
  }

  private static List<Long> logRecords(Path pile) throws IOException {
    long checkpointLsn =
        Superblock.read(RealFileLayer.INSTANCE, pile.resolve("pile.sb")).checkpointLsn();
    List<Long> starts = new ArrayList<>();
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, pile.resolve("wal"))) {
      reader.scan(checkpointLsn, (lsn, end, type, payload) -> starts.add(lsn));
    }
    return starts;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.sorted().toList()) {
        Path target = to.resolve(from.relativize(source));
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else if (!source.getFileName().toString().equals("cairn.lock")) {
          Files.copy(source, target);
        }
      }
    }
  }
}
