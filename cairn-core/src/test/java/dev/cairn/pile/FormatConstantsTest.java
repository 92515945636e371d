package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/FORMAT.md and the layout constants must agree; a change to one without the other fails. */
class FormatConstantsTest {

  private static Map<String, int[]> documentedHeaderBits() throws IOException {
    Path format = Path.of("..", "docs", "FORMAT.md");
    String text = Files.readString(format);
    Map<String, int[]> bits = new HashMap<>();
    Matcher row = Pattern.compile("(?m)^\\| (\\w+) \\| (\\d+)(?:-(\\d+))? \\|").matcher(text);
    while (row.find()) {
      int from = Integer.parseInt(row.group(2));
      int to = row.group(3) == null ? from : Integer.parseInt(row.group(3));
      bits.put(row.group(1), new int[] {from, to});
    }
    return bits;
  }

  private static int[] bitsOf(long mask) {
    return new int[] {Long.numberOfTrailingZeros(mask), 63 - Long.numberOfLeadingZeros(mask)};
  }

  @Test
  void headerFields_matchTheDocumentedBitRanges() throws IOException {
    Map<String, int[]> documented = documentedHeaderBits();
    assertThat(documented.get("size")).containsExactly(bitsOf(BlockLayout.SIZE_MASK));
    assertThat(documented.get("F")).containsExactly(bitsOf(BlockLayout.FREE));
    assertThat(documented.get("P")).containsExactly(bitsOf(BlockLayout.PREV_FREE));
    assertThat(documented.get("kind")).containsExactly(bitsOf(BlockLayout.KIND_MASK));
    assertThat(documented.get("T")).containsExactly(bitsOf(BlockLayout.TARGET));
    long slackMask = (long) BlockLayout.SLACK_IN_TRAILER << BlockLayout.SLACK_SHIFT;
    assertThat(documented.get("slack")).containsExactly(bitsOf(slackMask));
    long tagMask = (long) Pointers.TAG_MASK << BlockLayout.TAG_SHIFT;
    assertThat(documented.get("tag")).containsExactly(bitsOf(tagMask));
    assertThat(documented.get("mark")).containsExactly(bitsOf(BlockLayout.MARK_MASK));
    assertThat(documented).doesNotContainKey("reserved");
  }

  @Test
  void segmentFileNames_zeroPadFiveDigits_andParseBack() {
    Path dir = Path.of("d");
    assertThat(PileFiles.segmentFile(dir, 0)).isEqualTo(dir.resolve("seg-00000.dat"));
    assertThat(PileFiles.segmentFile(dir, 42)).isEqualTo(dir.resolve("seg-00042.dat"));
    assertThat(PileFiles.pageCrcFile(dir, 12345)).isEqualTo(dir.resolve("seg-12345.crc"));
    for (int index : new int[] {0, 7, 10, 999, 1000, 9999, 10000, Pointers.MAX_SEGMENTS - 1}) {
      assertThat(PileFiles.segmentIndexOf(PileFiles.segmentFile(dir, index))).isEqualTo(index);
      assertThat(PileFiles.pageCrcIndexOf(PileFiles.pageCrcFile(dir, index))).isEqualTo(index);
      assertThat(PileFiles.segmentFile(dir, index).getFileName().toString())
          .isEqualTo(String.format("seg-%05d.dat", index));
    }
  }

  @Test
  void pointerAndSegmentConstants_matchTheDocument() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    assertThat(text).contains("Reserved[" + BlockLayout.SEGMENT_HEADER_BYTES + "]");
    assertThat(text).contains("tag (" + Pointers.TAG_BITS + ")");
    assertThat(text).contains("segment (" + Pointers.SEGMENT_BITS + ")");
    assertThat(text).contains("block offset (" + Pointers.OFFSET_BITS + ")");
    assertThat(text)
        .contains(
            "at least "
                + BlockLayout.MIN_BLOCK_GRANULES
                + " ("
                + BlockLayout.MIN_BLOCK_BYTES
                + " bytes)");
    assertThat(Pointers.TAG_SHIFT + Pointers.TAG_BITS).isEqualTo(64);
    assertThat(BlockLayout.MARK_SHIFT).isEqualTo(60);
    assertThat(BlockLayout.MARK_BITS).isEqualTo(4);
  }

  @Test
  void pointerFields_roundTrip() {
    long pointer = Pointers.pointer(Pointers.TAG_MASK, Pointers.MAX_SEGMENTS - 1, (1L << 30) - 8);
    assertThat(Pointers.tag(pointer)).isEqualTo(Pointers.TAG_MASK);
    assertThat(Pointers.segment(pointer)).isEqualTo(Pointers.MAX_SEGMENTS - 1);
    assertThat(Pointers.offsetBytes(pointer)).isEqualTo((1L << 30) - 8);
    assertThat(Pointers.addressOf(pointer) >>> Pointers.TAG_SHIFT).isZero();
  }
}
