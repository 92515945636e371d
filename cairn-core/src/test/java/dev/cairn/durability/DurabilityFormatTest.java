package dev.cairn.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md and the layout constants agree, and format version 1 writes exactly the golden
 * bytes below: a change to the format must change this test, the document and the version.
 */
class DurabilityFormatTest {

  /** The rows "| `Field` | offset | bytes | ..." of the section that starts with {@code heading}. */
  private static Map<String, int[]> documentedFields(String heading) throws IOException {
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    int start = text.indexOf("\n" + heading + "\n");
    assertThat(start).as("section %s in FORMAT.md", heading).isPositive();
    int end = text.indexOf("\n#", start + heading.length() + 2);
    String section = text.substring(start, end < 0 ? text.length() : end);
    Map<String, int[]> fields = new LinkedHashMap<>();
    Matcher row = Pattern.compile("(?m)^\\| `(\\w+)` \\| (\\d+) \\| (\\d+|\\w+) \\|").matcher(section);
    while (row.find()) {
      int length = row.group(3).matches("\\d+") ? Integer.parseInt(row.group(3)) : -1;
      fields.put(row.group(1), new int[] {Integer.parseInt(row.group(2)), length});
    }
    return fields;
  }

  @Test
  void superblockTable_matchesSuperblockLayout() throws IOException {
    Map<String, int[]> doc = documentedFields("## Superblock");
    assertThat(doc).containsOnlyKeys("Magic", "Version", "Flags", "Epoch", "CheckpointLsn",
        "PayloadLength", "Crc32c", "Payload");
    assertThat(doc.get("Magic")).containsExactly(
        SuperblockLayout.MAGIC_OFFSET, SuperblockLayout.MAGIC_LENGTH);
    assertThat(doc.get("Version")).containsExactly(
        SuperblockLayout.VERSION_OFFSET, SuperblockLayout.VERSION_LENGTH);
    assertThat(doc.get("Flags")).containsExactly(
        SuperblockLayout.FLAGS_OFFSET, SuperblockLayout.FLAGS_LENGTH);
    assertThat(doc.get("Epoch")).containsExactly(
        SuperblockLayout.EPOCH_OFFSET, SuperblockLayout.EPOCH_LENGTH);
    assertThat(doc.get("CheckpointLsn")).containsExactly(SuperblockLayout.CHECKPOINT_LSN_OFFSET,
        SuperblockLayout.CHECKPOINT_LSN_LENGTH);
    assertThat(doc.get("PayloadLength")).containsExactly(SuperblockLayout.PAYLOAD_LENGTH_OFFSET,
        SuperblockLayout.PAYLOAD_LENGTH_LENGTH);
    assertThat(doc.get("Crc32c")).containsExactly(
        SuperblockLayout.CRC_OFFSET, SuperblockLayout.CRC_LENGTH);
    assertThat(doc.get("Payload")[0]).isEqualTo(SuperblockLayout.PAYLOAD_OFFSET);
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    assertThat(text).contains("Zero[" + SuperblockLayout.MAX_PAYLOAD_BYTES + " - PayloadLength]");
    assertThat(text).contains("2 x " + SuperblockLayout.SLOT_BYTES + " bytes");
  }

  @Test
  void logTables_matchLogLayout() throws IOException {
    Map<String, int[]> header = documentedFields("### Log file header");
    assertThat(header).containsOnlyKeys("Magic", "Version", "Epoch", "FileBytes", "Sequence",
        "FirstLsn", "FileCount", "Crc32c");
    assertThat(header.get("Magic")).containsExactly(LogLayout.MAGIC_OFFSET, LogLayout.MAGIC_LENGTH);
    assertThat(header.get("Version")).containsExactly(
        LogLayout.VERSION_OFFSET, LogLayout.VERSION_LENGTH);
    assertThat(header.get("Epoch")).containsExactly(
        LogLayout.FILE_EPOCH_OFFSET, LogLayout.FILE_EPOCH_LENGTH);
    assertThat(header.get("FileBytes")).containsExactly(
        LogLayout.FILE_BYTES_OFFSET, LogLayout.FILE_BYTES_LENGTH);
    assertThat(header.get("Sequence")).containsExactly(
        LogLayout.SEQUENCE_OFFSET, LogLayout.SEQUENCE_LENGTH);
    assertThat(header.get("FirstLsn")).containsExactly(
        LogLayout.FIRST_LSN_OFFSET, LogLayout.FIRST_LSN_LENGTH);
    assertThat(header.get("FileCount")).containsExactly(
        LogLayout.FILE_COUNT_OFFSET, LogLayout.FILE_COUNT_LENGTH);
    assertThat(header.get("Crc32c")).containsExactly(
        LogLayout.FILE_CRC_OFFSET, LogLayout.FILE_CRC_LENGTH);

    Map<String, int[]> record = documentedFields("### Record");
    assertThat(record).containsOnlyKeys("Length", "Crc32c", "Lsn", "Epoch", "DurableLag", "Type",
        "Payload");
    assertThat(record.get("Length")).containsExactly(
        LogLayout.LENGTH_OFFSET, LogLayout.LENGTH_LENGTH);
    assertThat(record.get("Crc32c")).containsExactly(LogLayout.CRC_OFFSET, LogLayout.CRC_LENGTH);
    assertThat(record.get("Lsn")).containsExactly(LogLayout.LSN_OFFSET, LogLayout.LSN_LENGTH);
    assertThat(record.get("Epoch")).containsExactly(LogLayout.EPOCH_OFFSET, LogLayout.EPOCH_LENGTH);
    assertThat(record.get("DurableLag")).containsExactly(LogLayout.DURABLE_LAG_OFFSET,
        LogLayout.DURABLE_LAG_LENGTH);
    assertThat(record.get("Type")).containsExactly(LogLayout.TYPE_OFFSET, LogLayout.TYPE_LENGTH);
    assertThat(record.get("Payload")[0]).isEqualTo(LogLayout.PAYLOAD_OFFSET);
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    assertThat(text).contains("align8(" + LogLayout.RECORD_HEADER_BYTES + " + Length)");
    assertThat(text).contains("Zero[" + LogLayout.FILE_HEADER_BYTES + " - "
        + LogLayout.FILE_HEADER_USED_BYTES + "]");
  }

  @Test
  void magics_areTheDocumentedText() {
    assertThat(ascii(SuperblockLayout.MAGIC)).isEqualTo("CAIRN-SB");
    assertThat(ascii(LogLayout.MAGIC)).isEqualTo("CAIRN-WL");
    assertThat(LogLayout.frameBytes(0)).isEqualTo(32);
    assertThat(LogLayout.frameBytes(7)).isEqualTo(32);
    assertThat(LogLayout.frameBytes(8)).isEqualTo(40);
  }

  private static String ascii(long magic) {
    byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(magic).array();
    return new String(bytes, StandardCharsets.US_ASCII);
  }

  // ------------------------------------------------------------------ golden bytes, version 1

  // Checked by an independent CRC32C (Castagnoli, reflected 0x82F63B78) over the documented
  // ranges when they were frozen.

  /** State(epoch 7, checkpoint 0x1122334455667788, clean, payload 01 02 03): header + payload. */
  static final String GOLDEN_SUPERBLOCK_SLOT =
      "434149524e2d5342" + "01000000" + "01000000" + "0700000000000000" + "8877665544332211"
          + "03000000" + "2a89e5f8" + "010203";

  /** Sequence 5, epoch 3, 16 KiB files, 3 of them: the 48 used bytes. */
  static final String GOLDEN_LOG_FILE_HEADER =
      "434149524e2d574c" + "01000000" + "03000000" + "0040000000000000" + "0500000000000000"
          + "00f0000000000000" + "03000000" + "69a9a075";

  /** The first record of a new log (epoch 2, nothing durable yet): type 0x42, "cairn". */
  static final String GOLDEN_RECORD =
      "05000000" + "828d9b1d" + "0000000000000000" + "02000000" + "00000000" + "42"
          + "636169726e" + "0000";

  @Test
  void superblockSlot_isTheGoldenBytes() {
    ByteBuffer slot = Superblock.encode(
        new Superblock.State(7, 0x1122334455667788L, true, new byte[] {1, 2, 3}));
    String hex = HexFormat.of().formatHex(slot.array(), 0, SuperblockLayout.PAYLOAD_OFFSET + 3);
    assertThat(hex).isEqualTo(GOLDEN_SUPERBLOCK_SLOT);
  }

  @Test
  void logFileHeader_isTheGoldenBytes() {
    ByteBuffer header = LogFiles.encodeHeader(5, 3, 16384, 3, 16384 - 4096);
    String hex = HexFormat.of().formatHex(header.array(), 0, LogLayout.FILE_HEADER_USED_BYTES);
    assertThat(hex).isEqualTo(GOLDEN_LOG_FILE_HEADER);
  }

  @Test
  void record_isTheGoldenBytes() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log = WriteAheadLog.open(disk, DurabilityTestSupport.DIR,
        LogOptions.builder().fileBytes(16384).fileCount(2).build(), 0, (a, b, c, d) -> {})) {
      log.syncTo(log.append(0x42, "cairn".getBytes(StandardCharsets.US_ASCII)));
    }
    byte[] file = disk.durableContent(DurabilityTestSupport.DIR.resolve(LogLayout.fileName(0)));
    String hex = HexFormat.of().formatHex(file, LogLayout.FILE_HEADER_BYTES,
        LogLayout.FILE_HEADER_BYTES + (int) LogLayout.frameBytes(5));
    assertThat(hex).isEqualTo(GOLDEN_RECORD);
  }
}
