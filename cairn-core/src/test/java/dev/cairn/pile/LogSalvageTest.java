package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.LogDamage;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.LogReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A persistent pile whose log is damaged in the middle (a flipped byte in a record that a later
 * record proves was durable): a normal open refuses it and says how to salvage; {@link
 * PileDirectory#salvage} recovers exactly the writes logged before the damaged record, reports what
 * it dropped, keeps a copy of the damaged log, and leaves a pile that opens normally.
 */
class LogSalvageTest {

  private static final int PUTS = 100;
  private static final int DAMAGED = 60; // the put whose record gets a flipped byte

  @TempDir Path dir;

  /** One log record: where it starts and ends, and its type. */
  record Logged(long lsn, long end, int type) {}

  private final List<Long> pointers = new ArrayList<>();
  private final List<byte[]> values = new ArrayList<>();

  @Test
  void open_withAByteFlippedInTheMiddleOfTheLog_refusesNamingHowToSalvage() throws IOException {
    crashAfterPuts();
    List<Logged> log = logSinceCheckpoint();
    flipByteIn(log.get(DAMAGED));
    Map<Path, byte[]> before = walFiles(walDir());

    assertThatThrownBy(() -> open().close())
        .isInstanceOf(CorruptLogException.class)
        .hasMessageContaining("lsn " + log.get(DAMAGED).lsn())
        .hasMessageContaining("cairn recover " + dir)
        .hasMessageContaining("PileDirectory.salvage")
        .hasMessageContaining("drops that record and everything logged after it");
    assertSameFiles(walDir(), before);
    assertThat(damagedCopies()).isEmpty();
  }

  @Test
  void salvage_recoversExactlyTheWritesBeforeTheDamagedRecord_andReportsWhatItDropped()
      throws IOException {
    crashAfterPuts();
    List<Logged> log = logSinceCheckpoint();
    Logged damaged = log.get(DAMAGED);
    Path damagedFile;
    long damagedOffset;
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, walDir())) {
      damagedFile = reader.fileOf(damaged.lsn());
      damagedOffset = reader.fileOffsetOf(damaged.lsn());
    }
    flipByteIn(damaged);
    Map<Path, byte[]> damagedFiles = walFiles(walDir());

    PileDirectory.Salvage salvage = PileDirectory.salvage(dir, options());

    assertThat(salvage.dropped()).isTrue();
    assertThat(salvage.logRecordsReplayed()).isEqualTo(DAMAGED);
    assertThat(salvage.objectCount()).isEqualTo(DAMAGED);
    LogDamage damage = salvage.damage();
    Logged last = log.get(PUTS - 1);
    assertThat(damage.file()).isEqualTo(damagedFile);
    assertThat(damage.fileOffset()).isEqualTo(damagedOffset);
    assertThat(damage.firstDroppedLsn()).isEqualTo(damaged.lsn());
    assertThat(damage.lastDroppedLsn()).isEqualTo(last.lsn());
    assertThat(damage.droppedEndLsn()).isEqualTo(last.end());
    assertThat(damage.droppedBytes()).isEqualTo(last.end() - damaged.lsn());
    assertThat(damage.readableRecordsDropped()).isEqualTo(PUTS - DAMAGED - 1);
    assertThat(damage.unreadableBytes()).isEqualTo(damaged.end() - damaged.lsn());
    assertThat(damage.problem()).contains("checksum mismatch");
    assertThat(damage.describe())
        .contains(
            damage.copy().toString(),
            "dropped the log from lsn " + damaged.lsn() + " to " + last.end());
    // the copy: the damaged log as it was, beside wal/
    assertThat(damage.copy().getParent()).isEqualTo(dir);
    assertThat(damage.copy().getFileName().toString()).startsWith("wal.damaged-");
    assertSameFiles(damage.copy(), damagedFiles);

    try (OffHeapPile pile = open()) { // strict again
      assertExactlyTheFirst(pile, DAMAGED);
      pile.verify();
    }
    try (OffHeapPile pile = open()) { // and again: the same data
      assertExactlyTheFirst(pile, DAMAGED);
    }
    assertThat(damage.copy()).as("never deleted").isDirectory();
  }

  @Test
  void writesAfterASalvage_surviveTheNextCrash() throws IOException {
    crashAfterPuts();
    flipByteIn(logSinceCheckpoint().get(DAMAGED));
    PileDirectory.salvage(dir, options());
    pointers.subList(DAMAGED, PUTS).clear();
    values.subList(DAMAGED, PUTS).clear();

    OffHeapPile pile = open();
    for (int i = 0; i < 50; i++) {
      byte[] value = ("after salvage " + i).getBytes(StandardCharsets.UTF_8);
      values.add(value);
      pointers.add(pile.put(value));
    }
    pile.store().abandon(); // a crash: the new writes are only in the log

    try (OffHeapPile reopened = open()) {
      assertExactlyTheFirst(reopened, DAMAGED + 50);
      reopened.verify();
    }
  }

  @Test
  void salvage_rollsBackATransactionWhoseCommitWasDropped() throws IOException {
    OffHeapPile pile = open();
    long before = pile.put("before");
    pile.checkpoint();
    long inTransaction;
    try (Transaction tx = pile.beginTransaction()) {
      inTransaction = tx.put("in the transaction");
      pile.put("between"); // its record gets the flipped byte
      tx.commit();
    }
    pile.put("after");
    pile.store().abandon();
    List<Logged> log = logSinceCheckpoint();
    assertThat(log)
        .extracting(Logged::type)
        .containsSubsequence(
            Journal.TYPE_TX_ALLOC, Journal.TYPE_OP, Journal.TYPE_TX_COMMIT, Journal.TYPE_OP);
    int between = 0;
    while (log.get(between).type() != Journal.TYPE_TX_ALLOC) {
      between++;
    }
    flipByteIn(log.get(between + 1));

    PileDirectory.Salvage salvage = PileDirectory.salvage(dir, options());

    assertThat(salvage.transactionsRolledBack()).isEqualTo(1);
    assertThat(salvage.damage().readableRecordsDropped()).isEqualTo(2); // the commit, "after"
    try (OffHeapPile reopened = open()) {
      assertThat(reopened.get(before)).isEqualTo("before");
      assertThat(reopened.stats().objectCount()).isEqualTo(1);
      assertThatThrownBy(() -> reopened.get(inTransaction)).isInstanceOf(PileException.class);
      reopened.verify();
    }
  }

  @Test
  void salvage_ofAnUndamagedCrashedPile_dropsNothingAndCopiesNothing() throws IOException {
    crashAfterPuts();

    PileDirectory.Salvage salvage = PileDirectory.salvage(dir, options());

    assertThat(salvage.dropped()).isFalse();
    assertThat(salvage.damage()).isNull();
    assertThat(salvage.logRecordsReplayed()).isEqualTo(PUTS);
    assertThat(damagedCopies()).isEmpty();
    try (OffHeapPile pile = open()) {
      assertExactlyTheFirst(pile, PUTS);
    }
  }

  @Test
  void salvage_ofADirectoryWithoutAPile_throwsNoSuchFileAndCreatesNothing() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    assertThatThrownBy(() -> PileDirectory.salvage(empty, options()))
        .isInstanceOf(java.nio.file.NoSuchFileException.class)
        .hasMessageContaining("no pile in " + empty);
    try (Stream<Path> files = Files.list(empty)) {
      assertThat(files).isEmpty();
    }
  }

  // -----------------------------------------------------------------------------------------

  private static PileOptions options() {
    return PersistentPileTest.options(Durability.SYNC);
  }

  private OffHeapPile open() throws IOException {
    return PersistentStore.open(RealFileLayer.INSTANCE, dir, options());
  }

  private Path walDir() {
    return dir.resolve(PileFiles.LOG_DIRECTORY);
  }

  /** A checkpointed pile, then {@link #PUTS} puts in SYNC mode (one record each), then a crash. */
  private void crashAfterPuts() throws IOException {
    OffHeapPile pile = open();
    pile.checkpoint();
    for (int i = 0; i < PUTS; i++) {
      byte[] value = ("value " + i + " ").repeat(1 + i % 7).getBytes(StandardCharsets.UTF_8);
      values.add(value);
      pointers.add(pile.put(value));
    }
    pile.store().abandon(); // every put was acknowledged, so is durable, and in the log only
    assertThat(logSinceCheckpoint()).as("one record per put").hasSize(PUTS);
  }

  private void assertExactlyTheFirst(Pile pile, int count) {
    assertThat(pile.stats().objectCount()).isEqualTo(count);
    for (int i = 0; i < count; i++) {
      assertThat(pile.getBytes(pointers.get(i))).as("value %d", i).isEqualTo(values.get(i));
    }
  }

  private List<Logged> logSinceCheckpoint() throws IOException {
    long checkpointLsn =
        Superblock.read(RealFileLayer.INSTANCE, dir.resolve(PileFiles.SUPERBLOCK)).checkpointLsn();
    List<Logged> records = new ArrayList<>();
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, walDir())) {
      reader.scan(
          checkpointLsn, (lsn, end, type, payload) -> records.add(new Logged(lsn, end, type)));
    }
    return records;
  }

  /** Inverts a byte in the payload of {@code record}. */
  private void flipByteIn(Logged record) throws IOException {
    Path file;
    long offset;
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, walDir())) {
      file = reader.fileOf(record.lsn());
      offset = reader.fileOffsetOf(record.lsn()) + 30; // past the 25-byte header
    }
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) ~one.get(0)).rewind();
      channel.write(one, offset);
    }
  }

  /** The files of a log directory (or its copy), by name. */
  private static Map<Path, byte[]> walFiles(Path directory) throws IOException {
    Map<Path, byte[]> files = new LinkedHashMap<>();
    try (Stream<Path> list = Files.list(directory)) {
      for (Path file : list.sorted().toList()) {
        files.put(file.getFileName(), Files.readAllBytes(file));
      }
    }
    return files;
  }

  private static void assertSameFiles(Path directory, Map<Path, byte[]> expected)
      throws IOException {
    assertThat(walFiles(directory)).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (name, bytes) ->
            assertThat(directory.resolve(name)).as(name.toString()).hasBinaryContent(bytes));
  }

  private List<Path> damagedCopies() throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(p -> p.getFileName().toString().startsWith("wal.damaged")).toList();
    }
  }
}
