package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.NativeSegment;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * docs/FORMAT.md and the pile's layout classes agree, and format version 1 writes exactly the
 * golden bytes below: a change to a format must change this test, the document and the version. The
 * golden checksums were computed by an independent CRC32C (Castagnoli, reflected 0x82F63B78) over
 * the documented ranges when they were frozen.
 */
class PileFormatTest {

  /** Segment 5 of 64 KiB: the 64-byte header. */
  static final String GOLDEN_SEGMENT_HEADER =
      "434149524e2d5347"
          + "01000000"
          + "05000000"
          + "0000010000000000"
          + "00".repeat(36)
          + "908ced77";

  /** Segment 5, 16 pages: the 24-byte header. */
  static final String GOLDEN_PAGE_CRC_HEADER =
      "434149524e2d5043" + "01000000" + "05000000" + "10000000" + "db3ab43f";

  /** Geometry(4 stripes, 1 MiB, key 0x1122334455667788, slot 1, 3584, 0xCAFEBABE, ...). */
  static final String GOLDEN_PAYLOAD =
      "01000000"
          + "04000000"
          + "0000100000000000"
          + "8877665544332211"
          + "01000000"
          + "000e0000"
          + "bebafeca"
          + "00000000"
          + "0068e5cf8b010000"
          + "9f86010000000000"
          + "9210000000000000";

  /** The metadata of a new pile of one stripe and 64 KiB segments: header, length, CRC. */
  static final String GOLDEN_EMPTY_META_HEADER =
      "434149524e2d504d"
          + "01000000"
          + "01000000"
          + "0000010000000000"
          + "0000000000000000"
          + "00000000"
          + "00000000"
          + "00000000"
          + "00000000";

  static final int GOLDEN_EMPTY_META_BYTES = 3716;
  static final String GOLDEN_EMPTY_META_CRC = "9a372582";

  /** Root "orders" at 0x0123456789abcdef. */
  static final String GOLDEN_ROOT_RECORD = "efcdab8967452301" + "0600" + "6f7264657273";

  @Test
  void segmentHeader_isTheGoldenBytes() {
    NativeSegment segment = NativeSegment.allocate(5, 64 << 10, false);
    try {
      PileFiles.writeSegmentHeader(segment);
      assertThat(hex(segment.memory(), SegmentHeaderLayout.HEADER_BYTES))
          .isEqualTo(GOLDEN_SEGMENT_HEADER);
    } finally {
      segment.release();
    }
  }

  @Test
  void pageCrcHeader_isTheGoldenBytes() {
    assertThat(hex(PileFiles.pageCrcHeader(5, 16), PageCrcLayout.HEADER_BYTES))
        .isEqualTo(GOLDEN_PAGE_CRC_HEADER);
  }

  @Test
  void superblockPayload_isTheGoldenBytes_andDecodesBack() {
    PileFiles.Geometry geometry =
        new PileFiles.Geometry(
            4, 1 << 20, 0x1122334455667788L, 1, 3584, 0xCAFEBABE, 1_700_000_000_000L, 4242);
    byte[] payload = PileFiles.Geometry.withTagBound(geometry.encode(), 99_999);
    assertThat(payload).hasSize(PilePayloadLayout.PAYLOAD_BYTES);
    assertThat(HexFormat.of().formatHex(payload)).isEqualTo(GOLDEN_PAYLOAD);
    Path file = Path.of("/pile/pile.sb");
    assertThat(PileFiles.Geometry.decode(file, payload)).isEqualTo(geometry);
    assertThat(PileFiles.Geometry.tagBoundOf(file, payload)).isEqualTo(99_999);
  }

  @Test
  void emptyMetadata_isTheGoldenBytes() {
    MemorySegment meta = MetaImage.empty(1, 64 << 10);
    assertThat(meta.byteSize()).isEqualTo(GOLDEN_EMPTY_META_BYTES);
    assertThat(hex(meta, MetaLayout.HEADER_BYTES)).isEqualTo(GOLDEN_EMPTY_META_HEADER);
    assertThat(
            HexFormat.of()
                .formatHex(meta.asSlice(meta.byteSize() - 4).toArray(ValueLayout.JAVA_BYTE)))
        .isEqualTo(GOLDEN_EMPTY_META_CRC);
  }

  @Test
  void rootRecord_isTheGoldenBytes() {
    byte[] name = "orders".getBytes(StandardCharsets.UTF_8);
    assertThat(hex(RootDirectory.record(name, 0x0123456789abcdefL), 16))
        .isEqualTo(GOLDEN_ROOT_RECORD);
  }

  @Test
  void tables_matchTheLayouts() throws IOException {
    assertThat(documentedFields("### Superblock payload"))
        .containsExactly(
            field("Version", PilePayloadLayout.VERSION_OFFSET, PilePayloadLayout.VERSION_LENGTH),
            field("Stripes", PilePayloadLayout.STRIPES_OFFSET, PilePayloadLayout.STRIPES_LENGTH),
            field(
                "SegmentBytes",
                PilePayloadLayout.SEGMENT_BYTES_OFFSET,
                PilePayloadLayout.SEGMENT_BYTES_LENGTH),
            field("TagKey", PilePayloadLayout.TAG_KEY_OFFSET, PilePayloadLayout.TAG_KEY_LENGTH),
            field(
                "MetaSlot", PilePayloadLayout.META_SLOT_OFFSET, PilePayloadLayout.META_SLOT_LENGTH),
            field(
                "MetaLength",
                PilePayloadLayout.META_LENGTH_OFFSET,
                PilePayloadLayout.META_LENGTH_LENGTH),
            field(
                "MetaCrc32c", PilePayloadLayout.META_CRC_OFFSET, PilePayloadLayout.META_CRC_LENGTH),
            field("Flags", PilePayloadLayout.FLAGS_OFFSET, PilePayloadLayout.FLAGS_LENGTH),
            field(
                "CheckpointMillis",
                PilePayloadLayout.CHECKPOINT_MILLIS_OFFSET,
                PilePayloadLayout.CHECKPOINT_MILLIS_LENGTH),
            field(
                "TagBound", PilePayloadLayout.TAG_BOUND_OFFSET, PilePayloadLayout.TAG_BOUND_LENGTH),
            field(
                "TagOrigin",
                PilePayloadLayout.TAG_ORIGIN_OFFSET,
                PilePayloadLayout.TAG_ORIGIN_LENGTH));
    assertThat(documentedFields("### Metadata file"))
        .containsExactly(
            field("Magic", MetaLayout.MAGIC_OFFSET, MetaLayout.MAGIC_LENGTH),
            field("Version", MetaLayout.VERSION_OFFSET, MetaLayout.VERSION_LENGTH),
            field("Stripes", MetaLayout.STRIPES_OFFSET, MetaLayout.STRIPES_LENGTH),
            field("SegmentBytes", MetaLayout.SEGMENT_BYTES_OFFSET, MetaLayout.SEGMENT_BYTES_LENGTH),
            field(
                "CheckpointLsn",
                MetaLayout.CHECKPOINT_LSN_OFFSET,
                MetaLayout.CHECKPOINT_LSN_LENGTH),
            field("TableCount", MetaLayout.TABLE_COUNT_OFFSET, MetaLayout.TABLE_COUNT_LENGTH),
            field("RootsBytes", MetaLayout.ROOTS_BYTES_OFFSET, MetaLayout.ROOTS_BYTES_LENGTH),
            field("StatesBytes", MetaLayout.STATES_BYTES_OFFSET, MetaLayout.STATES_BYTES_LENGTH),
            field("Zero", MetaLayout.ZERO_OFFSET, MetaLayout.ZERO_LENGTH));
    assertThat(documentedFields("### Segment file"))
        .containsExactly(
            field("Magic", SegmentHeaderLayout.MAGIC_OFFSET, SegmentHeaderLayout.MAGIC_LENGTH),
            field(
                "Version", SegmentHeaderLayout.VERSION_OFFSET, SegmentHeaderLayout.VERSION_LENGTH),
            field("Index", SegmentHeaderLayout.INDEX_OFFSET, SegmentHeaderLayout.INDEX_LENGTH),
            field(
                "SegmentBytes",
                SegmentHeaderLayout.SEGMENT_BYTES_OFFSET,
                SegmentHeaderLayout.SEGMENT_BYTES_LENGTH),
            field("Zero", SegmentHeaderLayout.ZERO_OFFSET, SegmentHeaderLayout.ZERO_LENGTH),
            field("Crc32c", SegmentHeaderLayout.CRC_OFFSET, SegmentHeaderLayout.CRC_LENGTH));
    assertThat(documentedFields("### Page checksum file"))
        .containsExactly(
            field("Magic", PageCrcLayout.MAGIC_OFFSET, PageCrcLayout.MAGIC_LENGTH),
            field("Version", PageCrcLayout.VERSION_OFFSET, PageCrcLayout.VERSION_LENGTH),
            field("Segment", PageCrcLayout.SEGMENT_OFFSET, PageCrcLayout.SEGMENT_LENGTH),
            field("PageCount", PageCrcLayout.PAGE_COUNT_OFFSET, PageCrcLayout.PAGE_COUNT_LENGTH),
            field(
                "HeaderCrc32c", PageCrcLayout.HEADER_CRC_OFFSET, PageCrcLayout.HEADER_CRC_LENGTH));
    assertThat(SegmentHeaderLayout.HEADER_BYTES).isEqualTo(BlockLayout.SEGMENT_HEADER_BYTES);
  }

  private static Map.Entry<String, String> field(String name, int offset, int length) {
    return Map.entry(name, offset + "/" + length);
  }

  /** The rows "| `Field` | offset | bytes | ..." of the section that starts with heading. */
  private static Map<String, String> documentedFields(String heading) throws IOException {
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    int start = text.indexOf("\n" + heading + "\n");
    assertThat(start).as("section %s in FORMAT.md", heading).isPositive();
    int end = text.indexOf("\n#", start + heading.length() + 2);
    String section = text.substring(start, end < 0 ? text.length() : end);
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher row = Pattern.compile("(?m)^\\| `(\\w+)` \\| (\\d+) \\| (\\d+) \\|").matcher(section);
    while (row.find()) {
      fields.put(row.group(1), row.group(2) + "/" + row.group(3));
    }
    return fields;
  }

  private static String hex(MemorySegment bytes, int length) {
    return HexFormat.of().formatHex(bytes.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
  }
}
