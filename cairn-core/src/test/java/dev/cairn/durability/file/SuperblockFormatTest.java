package dev.cairn.durability.file;

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
 * docs/FORMAT.md and the superblock's layout constants agree, and format version 1 writes exactly
 * the golden bytes below: a change to the format must change this test, the document and the
 * version. The log's formats: {@code dev.cairn.durability.log.LogFormatTest}.
 */
public class SuperblockFormatTest {

  /**
   * The rows "| `Field` | offset | bytes | ..." of the section that starts with {@code heading}.
   */
  public static Map<String, int[]> documentedFields(String heading) throws IOException {
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    int start = text.indexOf("\n" + heading + "\n");
    assertThat(start).as("section %s in FORMAT.md", heading).isPositive();
    int end = text.indexOf("\n#", start + heading.length() + 2);
    String section = text.substring(start, end < 0 ? text.length() : end);
    Map<String, int[]> fields = new LinkedHashMap<>();
    Matcher row =
        Pattern.compile("(?m)^\\| `(\\w+)` \\| (\\d+) \\| (\\d+|\\w+) \\|").matcher(section);
    while (row.find()) {
      int length = row.group(3).matches("\\d+") ? Integer.parseInt(row.group(3)) : -1;
      fields.put(row.group(1), new int[] {Integer.parseInt(row.group(2)), length});
    }
    return fields;
  }

  @Test
  void superblockTable_matchesSuperblockLayout() throws IOException {
    Map<String, int[]> doc = documentedFields("## Superblock");
    assertThat(doc)
        .containsOnlyKeys(
            "Magic",
            "Version",
            "Flags",
            "Epoch",
            "CheckpointLsn",
            "PayloadLength",
            "Crc32c",
            "Payload");
    assertThat(doc.get("Magic"))
        .containsExactly(SuperblockLayout.MAGIC_OFFSET, SuperblockLayout.MAGIC_LENGTH);
    assertThat(doc.get("Version"))
        .containsExactly(SuperblockLayout.VERSION_OFFSET, SuperblockLayout.VERSION_LENGTH);
    assertThat(doc.get("Flags"))
        .containsExactly(SuperblockLayout.FLAGS_OFFSET, SuperblockLayout.FLAGS_LENGTH);
    assertThat(doc.get("Epoch"))
        .containsExactly(SuperblockLayout.EPOCH_OFFSET, SuperblockLayout.EPOCH_LENGTH);
    assertThat(doc.get("CheckpointLsn"))
        .containsExactly(
            SuperblockLayout.CHECKPOINT_LSN_OFFSET, SuperblockLayout.CHECKPOINT_LSN_LENGTH);
    assertThat(doc.get("PayloadLength"))
        .containsExactly(
            SuperblockLayout.PAYLOAD_LENGTH_OFFSET, SuperblockLayout.PAYLOAD_LENGTH_LENGTH);
    assertThat(doc.get("Crc32c"))
        .containsExactly(SuperblockLayout.CRC_OFFSET, SuperblockLayout.CRC_LENGTH);
    assertThat(doc.get("Payload")[0]).isEqualTo(SuperblockLayout.PAYLOAD_OFFSET);
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    assertThat(text).contains("Zero[" + SuperblockLayout.MAX_PAYLOAD_BYTES + " - PayloadLength]");
    assertThat(text).contains("2 x " + SuperblockLayout.SLOT_BYTES + " bytes");
  }

  @Test
  void superblockMagic_isTheDocumentedText() {
    assertThat(ascii(SuperblockLayout.MAGIC)).isEqualTo("CAIRN-SB");
  }

  /** The 8 ASCII bytes of a little-endian magic number. */
  public static String ascii(long magic) {
    byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(magic).array();
    return new String(bytes, StandardCharsets.US_ASCII);
  }

  // ------------------------------------------------------------------ golden bytes, version 1

  // Checked by an independent CRC32C (Castagnoli, reflected 0x82F63B78) over the documented
  // ranges when they were frozen.

  /** State(epoch 7, checkpoint 0x1122334455667788, clean, payload 01 02 03): header + payload. */
  static final String GOLDEN_SUPERBLOCK_SLOT =
      "434149524e2d5342"
          + "01000000"
          + "01000000"
          + "0700000000000000"
          + "8877665544332211"
          + "03000000"
          + "2a89e5f8"
          + "010203";

  @Test
  void superblockSlot_isTheGoldenBytes() {
    ByteBuffer slot =
        Superblock.encode(new Superblock.State(7, 0x1122334455667788L, true, new byte[] {1, 2, 3}));
    String hex =
        HexFormat.of()
            .formatHex(
                slot.array(),
                slot.arrayOffset(),
                slot.arrayOffset() + SuperblockLayout.PAYLOAD_OFFSET + 3);
    assertThat(hex).isEqualTo(GOLDEN_SUPERBLOCK_SLOT);
  }
}
