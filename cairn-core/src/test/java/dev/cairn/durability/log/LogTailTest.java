package dev.cairn.durability.log;

import static dev.cairn.durability.log.DurabilityTestSupport.DIR;
import static dev.cairn.durability.log.DurabilityTestSupport.collect;
import static dev.cairn.durability.log.DurabilityTestSupport.payload;
import static dev.cairn.durability.log.DurabilityTestSupport.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.log.DurabilityTestSupport.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * I9, case by case: a torn, zeroed, garbage or stale tail ends the log cleanly; damage where the
 * log had been durable (proved by a later record, or by the caller's knowledge) is a
 * CorruptFileException naming the file and offset.
 */
class LogTailTest {
  private static final LogOptions OPTIONS =
      LogOptions.builder()
          .fileBytes(16 << 10)
          .fileCount(3)
          .bufferBytes(8 << 10)
          .mode(LogSync.ON_COMMIT)
          .build();

  private final SimulatedDisk disk = new SimulatedDisk();

  /** Appends {@code count} records of {@code length} bytes; syncs after each if asked. */
  private List<Rec> append(long from, int count, int length, boolean syncEach, int writer)
      throws IOException {
    return append(OPTIONS, from, count, length, syncEach, writer);
  }

  private List<Rec> append(
      LogOptions options, long from, int count, int length, boolean syncEach, int writer)
      throws IOException {
    List<Rec> appended = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, options, from, collect(new ArrayList<>()))) {
      for (int i = 0; i < count; i++) {
        byte[] p = payload(writer, i, length);
        long start = log.endLsn();
        long end = log.append(30, p);
        appended.add(new Rec(start, end, 30, p));
        if (syncEach) {
          log.syncTo(end);
        }
      }
    }
    return appended;
  }

  private void overwrite(long lsn, byte[] bytes) throws IOException {
    try (LogReader reader = LogReader.open(disk, DIR)) {
      try (FileHandle h = disk.open(reader.fileOf(lsn), FileLayer.OpenMode.READ_WRITE)) {
        h.write(ByteBuffer.wrap(bytes), reader.fileOffsetOf(lsn));
        h.force();
      }
    }
  }

  private ScanResult scan(List<Rec> into) throws IOException {
    try (LogReader reader = LogReader.open(disk, DIR)) {
      return reader.scan(0, collect(into));
    }
  }

  @Test
  void zeroedTail_endsTheLogCleanly() throws IOException {
    List<Rec> appended = append(0, 20, 100, false, 1);
    overwrite(
        appended.get(15).lsn(),
        new byte[(int) (appended.getLast().end() - appended.get(15).lsn())]);
    List<Rec> read = new ArrayList<>();
    ScanResult result = scan(read);
    assertThat(read).containsExactlyElementsOf(appended.subList(0, 15));
    assertThat(result.endLsn()).isEqualTo(appended.get(15).lsn());
    assertThat(result.endReason()).isEqualTo("zeroed space");
  }

  @Test
  void garbageTail_endsTheLogCleanly() throws IOException {
    List<Rec> appended = append(0, 20, 100, false, 1);
    byte[] garbage = new byte[3000];
    new java.util.SplittableRandom(5).nextBytes(garbage);
    overwrite(appended.get(12).lsn() + 8, garbage);
    List<Rec> read = new ArrayList<>();
    ScanResult result = scan(read);
    assertThat(read).containsExactlyElementsOf(appended.subList(0, 12));
    assertThat(result.endReason()).contains("lsn field");
  }

  @Test
  void tornLastRecord_endsTheLogCleanly_evenIfItHadBeenSynced() throws IOException {
    List<Rec> appended = append(0, 20, 100, true, 1);
    Rec last = appended.getLast();
    overwrite(last.lsn() + 40, new byte[] {(byte) 0xFF});
    List<Rec> read = new ArrayList<>();
    assertThat(scan(read).endReason()).contains("checksum mismatch");
    assertThat(read).containsExactlyElementsOf(appended.subList(0, 19));
    // ...unless the caller knows the log was durable further
    try (LogReader reader = LogReader.open(disk, DIR)) {
      assertThatThrownBy(() -> reader.scan(0, last.end(), (a, b, c, d) -> {}))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("known to be durable through lsn " + last.end());
    }
  }

  @Test
  void staleTail_fromAnEarlierIncarnation_endsTheLogCleanly() throws IOException {
    // epoch 2 writes 30 records; none is proved durable by a later one (no sync until close),
    // so damage to record 10 reads as a torn tail
    List<Rec> first = append(0, 30, 40, false, 1);
    overwrite(first.get(10).lsn() + 30, new byte[] {(byte) 0xAA});
    // epoch 3 recovers records 0-9 and appends 5 of the same size: they end exactly where
    // record 15 of epoch 2 starts, a whole record with the right LSN and checksum
    List<Rec> second = append(first.get(10).lsn(), 5, 40, false, 2);
    assertThat(second.getLast().end()).isEqualTo(first.get(15).lsn());
    List<Rec> read = new ArrayList<>();
    ScanResult result = scan(read);
    List<Rec> expected = new ArrayList<>(first.subList(0, 10));
    expected.addAll(second);
    assertThat(read).containsExactlyElementsOf(expected);
    assertThat(result.endReason()).isEqualTo("stale record of epoch 2 after a record of epoch 3");
  }

  @Test
  void damageWhereTheLogWasDurable_isCorruptFileException_namingFileAndOffset() throws IOException {
    List<Rec> appended = append(0, 40, 300, true, 1); // every record proves the ones before it
    Rec victim = appended.get(7);
    overwrite(victim.lsn() + 100, new byte[] {0x01});
    Path file;
    long offset;
    try (LogReader reader = LogReader.open(disk, DIR)) {
      file = reader.fileOf(victim.lsn());
      offset = reader.fileOffsetOf(victim.lsn());
    }
    assertThatThrownBy(() -> scan(new ArrayList<>()))
        .isInstanceOfSatisfying(
            CorruptFileException.class,
            e -> {
              assertThat(e.file()).isEqualTo(file);
              assertThat(e.offset()).isEqualTo(offset);
            })
        .hasMessageContaining(
            "the record at lsn " + victim.lsn() + " is invalid (checksum mismatch")
        .hasMessageContaining("was appended when the log was durable through lsn");
    assertThatThrownBy(() -> WriteAheadLog.open(disk, DIR, OPTIONS, 0, (a, b, c, d) -> {}))
        .isInstanceOf(CorruptFileException.class);
  }

  /**
   * The proof may lie far behind the damage, past unwritten (zeroed) space that the scan for it
   * skips: here more than a megabyte of zeros, across the scanner's 1 MiB chunks, with stray bytes
   * in it that start no record, each at an offset of its own within an lsn field.
   */
  @Test
  void damageWhereTheLogWasDurable_isFound_pastZerosAndStrayBytes() throws IOException {
    assertProofFoundPast(
        between -> {
          for (int i = 0; i < 16; i++) { // stray bytes, at each offset within an 8-byte word
            between[100_000 * (i + 1) + 8 * i + i % 8] = (byte) (0x40 + i);
          }
        },
        "zeros and stray bytes");
  }

  /**
   * The same behind more than a megabyte of bytes that are not zero, as a log file reused by a
   * later pass holds the earlier pass's records: the scan for the proof reads every 8-aligned
   * offset there, across its 1 MiB chunks, and garbage starts no record.
   */
  @Test
  void damageWhereTheLogWasDurable_isFound_pastAMegabyteOfGarbage() throws IOException {
    long seed = System.nanoTime();
    System.out.println("LogTailTest garbage seed " + seed);
    assertProofFoundPast(
        between -> new java.util.Random(seed).nextBytes(between), "garbage of seed " + seed);
  }

  /**
   * Appends 6,000 synced records, replaces those between the 9th and the 5,002nd with the bytes
   * {@code fill} writes into a zeroed array (more than a megabyte), damages the 8th, and checks
   * that the scan reports the 8th as corrupt, proved durable by the 5,002nd.
   */
  private void assertProofFoundPast(java.util.function.Consumer<byte[]> fill, String what)
      throws IOException {
    LogOptions big =
        LogOptions.builder()
            .fileBytes(4 << 20)
            .fileCount(2)
            .bufferBytes(64 << 10)
            .mode(LogSync.ON_COMMIT)
            .build();
    List<Rec> appended = append(big, 0, 6_000, 300, true, 1); // each proves the ones before it
    Rec victim = appended.get(7);
    Rec proof = appended.get(5_001);
    long betweenFrom = appended.get(8).lsn();
    byte[] between = new byte[(int) (proof.lsn() - betweenFrom)];
    assertThat(between.length).isGreaterThan(1 << 20);
    fill.accept(between);
    overwrite(betweenFrom, between);
    overwrite(victim.lsn() + 100, new byte[] {0x01});
    assertThatThrownBy(() -> scan(new ArrayList<>()))
        .as("past %s", what)
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(
            "the record at lsn " + victim.lsn() + " is invalid (checksum mismatch")
        .hasMessageContaining("but the valid record at lsn " + proof.lsn());
  }

  @Test
  void damagedHeaderOfAFileInTheMiddle_isCorruptFileException() throws IOException {
    List<Rec> appended = append(0, 100, 300, true, 1); // spans all three files
    assertThat(appended.getLast().end()).isGreaterThan(2 * (16 << 10));
    Path middle = DIR.resolve(LogLayout.fileName(1));
    try (FileHandle h = disk.open(middle, FileLayer.OpenMode.READ_WRITE)) {
      h.write(ByteBuffer.wrap(new byte[] {0x7F}), LogLayout.SEQUENCE_OFFSET);
      h.force();
    }
    assertThatThrownBy(() -> scan(new ArrayList<>()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("wal-0001.log, which holds an invalid header");
  }

  @Test
  void checkpointInAFileThatNoLongerHoldsIt_isCorruptFileException() throws IOException {
    List<Rec> appended = append(0, 20, 300, true, 1);
    Path first = DIR.resolve(LogLayout.fileName(0));
    try (FileHandle h = disk.open(first, FileLayer.OpenMode.READ_WRITE)) {
      h.write(ByteBuffer.wrap(new byte[8]), LogLayout.MAGIC_OFFSET);
      h.force();
    }
    try (LogReader reader = LogReader.open(disk, DIR)) {
      assertThatThrownBy(() -> reader.scan(appended.get(3).lsn(), (a, b, c, d) -> {}))
          .isInstanceOfSatisfying(
              CorruptFileException.class, e -> assertThat(e.file()).isEqualTo(first))
          .hasMessageContaining("the log continues at lsn " + appended.get(3).lsn());
    }
  }

  @Test
  void scanFromTheEnd_readsNothing() throws IOException {
    List<Rec> appended = append(0, 5, 10, true, 1);
    assertThat(scanAll(disk, DIR, appended.getLast().end())).isEmpty();
  }

  @Test
  void staleRecordsRightAtACheckpoint_areRejected_thanksToTheEpochStarts() throws IOException {
    // epoch 2 (NONE mode, nothing proved durable) fills file 0 and part of file 1 with records
    // of 256 bytes; then file 0's header is lost, as a power loss may lose a page never forced
    LogOptions none =
        LogOptions.builder()
            .fileBytes(16 << 10)
            .fileCount(3)
            .bufferBytes(8 << 10)
            .mode(LogSync.NO_FORCE)
            .build();
    try (WriteAheadLog log = WriteAheadLog.open(disk, DIR, none, 0, collect(new ArrayList<>()))) {
      for (int i = 0; i < 60; i++) {
        log.append(30, payload(1, i, 231));
      }
    }
    try (FileHandle h =
        disk.open(DIR.resolve(LogLayout.fileName(0)), FileLayer.OpenMode.READ_WRITE)) {
      h.write(ByteBuffer.wrap(new byte[4096]), 0);
      h.force();
    }
    // epoch 3 recovers nothing (the log starts at 0 again) and rewrites file 0 exactly; file 1
    // still holds epoch 2's records, at the very LSNs epoch 3 will use next
    List<Rec> recovered = new ArrayList<>();
    try (WriteAheadLog log = WriteAheadLog.open(disk, DIR, none, 0, collect(recovered))) {
      assertThat(recovered).isEmpty();
      for (int i = 0; i < 48; i++) {
        log.append(31, payload(2, i, 231));
      }
      assertThat(log.endLsn()).isEqualTo(12288); // the first byte of file 1
    }
    // a checkpoint at 12288 must not replay epoch 2's leftovers
    try (LogReader reader = LogReader.open(disk, DIR)) {
      List<Rec> read = new ArrayList<>();
      ScanResult result = reader.scan(12288, collect(read));
      assertThat(read).isEmpty();
      assertThat(result.endReason()).isEqualTo("stale record of epoch 2: epoch 3 began at lsn 0");
    }
  }
}
