package dev.cairn.durability.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.file.SuperblockFormatTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md and the write-ahead log's layout constants agree, and format version 1 writes
 * exactly the golden bytes below: a change to the format must change this test, the document and
 * the version. The superblock's format: {@link SuperblockFormatTest}.
 */
class LogFormatTest {

  @Test
  void logTables_matchLogLayout() throws IOException {
    Map<String, int[]> header = SuperblockFormatTest.documentedFields("### Log file header");
    assertThat(header)
        .containsOnlyKeys(
            "Magic",
            "Version",
            "Epoch",
            "FileBytes",
            "Sequence",
            "FirstLsn",
            "FileCount",
            "Crc32c");
    assertThat(header.get("Magic")).containsExactly(LogLayout.MAGIC_OFFSET, LogLayout.MAGIC_LENGTH);
    assertThat(header.get("Version"))
        .containsExactly(LogLayout.VERSION_OFFSET, LogLayout.VERSION_LENGTH);
    assertThat(header.get("Epoch"))
        .containsExactly(LogLayout.FILE_EPOCH_OFFSET, LogLayout.FILE_EPOCH_LENGTH);
    assertThat(header.get("FileBytes"))
        .containsExactly(LogLayout.FILE_BYTES_OFFSET, LogLayout.FILE_BYTES_LENGTH);
    assertThat(header.get("Sequence"))
        .containsExactly(LogLayout.SEQUENCE_OFFSET, LogLayout.SEQUENCE_LENGTH);
    assertThat(header.get("FirstLsn"))
        .containsExactly(LogLayout.FIRST_LSN_OFFSET, LogLayout.FIRST_LSN_LENGTH);
    assertThat(header.get("FileCount"))
        .containsExactly(LogLayout.FILE_COUNT_OFFSET, LogLayout.FILE_COUNT_LENGTH);
    assertThat(header.get("Crc32c"))
        .containsExactly(LogLayout.FILE_CRC_OFFSET, LogLayout.FILE_CRC_LENGTH);

    Map<String, int[]> record = SuperblockFormatTest.documentedFields("### Record");
    assertThat(record)
        .containsOnlyKeys("Length", "Crc32c", "Lsn", "Epoch", "DurableLag", "Type", "Payload");
    assertThat(record.get("Length"))
        .containsExactly(LogLayout.LENGTH_OFFSET, LogLayout.LENGTH_LENGTH);
    assertThat(record.get("Crc32c")).containsExactly(LogLayout.CRC_OFFSET, LogLayout.CRC_LENGTH);
    assertThat(record.get("Lsn")).containsExactly(LogLayout.LSN_OFFSET, LogLayout.LSN_LENGTH);
    assertThat(record.get("Epoch")).containsExactly(LogLayout.EPOCH_OFFSET, LogLayout.EPOCH_LENGTH);
    assertThat(record.get("DurableLag"))
        .containsExactly(LogLayout.DURABLE_LAG_OFFSET, LogLayout.DURABLE_LAG_LENGTH);
    assertThat(record.get("Type")).containsExactly(LogLayout.TYPE_OFFSET, LogLayout.TYPE_LENGTH);
    assertThat(record.get("Payload")[0]).isEqualTo(LogLayout.PAYLOAD_OFFSET);
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    assertThat(text).contains("align8(" + LogLayout.RECORD_HEADER_BYTES + " + Length)");
    assertThat(text)
        .contains(
            "Zero[" + LogLayout.FILE_HEADER_BYTES + " - " + LogLayout.FILE_HEADER_USED_BYTES + "]");
  }

  @Test
  void fileNames_areTheSlotInAtLeastFourDigits() {
    assertThat(LogLayout.fileName(0)).isEqualTo("wal-0000.log");
    assertThat(LogLayout.fileName(7)).isEqualTo("wal-0007.log");
    assertThat(LogLayout.fileName(42)).isEqualTo("wal-0042.log");
    assertThat(LogLayout.fileName(123)).isEqualTo("wal-0123.log");
    assertThat(LogLayout.fileName(LogLayout.MAX_FILE_COUNT - 1)).isEqualTo("wal-9999.log");
    assertThat(LogLayout.fileName(12_345)).isEqualTo("wal-12345.log");
    for (int slot = 0; slot < LogLayout.MAX_FILE_COUNT; slot += 97) {
      assertThat(LogLayout.fileName(slot))
          .isEqualTo(String.format(java.util.Locale.ROOT, "wal-%04d.log", slot));
    }
    assertThatThrownBy(() -> LogLayout.fileName(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }

  @Test
  void logMagic_isTheDocumentedText() {
    assertThat(SuperblockFormatTest.ascii(LogLayout.MAGIC)).isEqualTo("CAIRN-WL");
    assertThat(LogLayout.frameBytes(0)).isEqualTo(32);
    assertThat(LogLayout.frameBytes(7)).isEqualTo(32);
    assertThat(LogLayout.frameBytes(8)).isEqualTo(40);
  }

  // ------------------------------------------------------------------ golden bytes, version 1

  // Checked by an independent CRC32C (Castagnoli, reflected 0x82F63B78) over the documented
  // ranges when they were frozen.

  /** Sequence 5, epoch 3, 16 KiB files, 3 of them: the 48 used bytes. */
  static final String GOLDEN_LOG_FILE_HEADER =
      "434149524e2d574c"
          + "01000000"
          + "03000000"
          + "0040000000000000"
          + "0500000000000000"
          + "00f0000000000000"
          + "03000000"
          + "69a9a075";

  /** The first record of a new log (epoch 2, nothing durable yet): type 0x42, "cairn". */
  static final String GOLDEN_RECORD =
      "05000000"
          + "828d9b1d"
          + "0000000000000000"
          + "02000000"
          + "00000000"
          + "42"
          + "636169726e"
          + "0000";

  @Test
  void logFileHeader_isTheGoldenBytes() {
    ByteBuffer header = LogFiles.encodeHeader(5, 3, 16384, 3, 16384 - 4096);
    String hex =
        HexFormat.of()
            .formatHex(
                header.array(),
                header.arrayOffset(),
                header.arrayOffset() + LogLayout.FILE_HEADER_USED_BYTES);
    assertThat(hex).isEqualTo(GOLDEN_LOG_FILE_HEADER);
  }

  @Test
  void record_isTheGoldenBytes() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(
            disk,
            DurabilityTestSupport.DIR,
            LogOptions.builder().fileBytes(16384).fileCount(2).build(),
            0,
            (a, b, c, d) -> {})) {
      log.syncTo(log.append(0x42, "cairn".getBytes(StandardCharsets.US_ASCII)));
    }
    byte[] file = disk.durableContent(DurabilityTestSupport.DIR.resolve(LogLayout.fileName(0)));
    String hex =
        HexFormat.of()
            .formatHex(
                file,
                LogLayout.FILE_HEADER_BYTES,
                LogLayout.FILE_HEADER_BYTES + (int) LogLayout.frameBytes(5));
    assertThat(hex).isEqualTo(GOLDEN_RECORD);
  }
}
