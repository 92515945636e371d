package dev.cairn.codec.object;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.object.Desc.Prim;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md, "Object encoding", against the code: the tag and flavour tables match the
 * constants, and the wire primitives write exactly the documented bytes.
 */
class ObjectFormatTest {

  private static String section() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "FORMAT.md"));
    int start = text.indexOf("## Object encoding");
    assertThat(start).as("FORMAT.md has an Object encoding section").isNotNegative();
    return text.substring(start);
  }

  /** The cells of a row whose first cell is {@code key} in backticks. */
  private static List<String> row(String text, String key) {
    Matcher m = Pattern.compile("(?m)^\\| `" + Pattern.quote(key) + "` \\|(.*)\\|$").matcher(text);
    assertThat(m.find()).as("a row for %s", key).isTrue();
    List<String> cells = new ArrayList<>();
    for (String cell : m.group(1).split("\\|")) {
      cells.add(cell.trim());
    }
    return cells;
  }

  @Test
  void anyTags_matchTheDocumentedTable() throws IOException {
    String doc = section();
    StringBuilder boxes = new StringBuilder();
    StringBuilder arrays = new StringBuilder();
    for (Prim p : Prim.values()) {
      assertThat(Refs.boxTag(p)).isEqualTo(1 + p.ordinal());
      boxes.append(boxes.isEmpty() ? "" : ", ").append('`').append(p.boxName).append('`');
      arrays.append(arrays.isEmpty() ? "" : ", ").append('`').append(p.primName).append("[]`");
    }
    assertThat(row(doc, "1-8")).first().isEqualTo(boxes.toString());
    assertThat(row(doc, "10-17")).first().isEqualTo(arrays.toString());
    assertThat(Refs.primArrayTag(Prim.BOOLEAN)).isEqualTo(10);
    assertThat(Refs.TAG_STRING).isEqualTo(9);
    StringBuilder values = new StringBuilder();
    int expected = 18;
    for (JdkValueType k : JdkValueType.values()) {
      assertThat(k.tag()).as(k.typeName()).isEqualTo(expected++);
      values.append(values.isEmpty() ? "" : ", ").append('`').append(k.typeName()).append('`');
    }
    assertThat(row(doc, "18-36")).first().isEqualTo(values.toString());
    assertThat(row(doc, "37").getFirst()).contains("collection");
    assertThat(Refs.TAG_COLLECTION).isEqualTo(37);
    assertThat(Refs.TAG_MAP).isEqualTo(38);
    assertThat(Refs.TAG_OPTIONAL).isEqualTo(39);
    assertThat(Refs.TAG_OBJECT_ARRAY).isEqualTo(40);
    assertThat(Refs.FIRST_USER_TAG).isEqualTo(64);
    assertThat(doc).contains("`typeId = tag - " + Refs.USER_TAG_OFFSET + "`");
  }

  @Test
  void flavours_matchTheDocumentedTable() throws IOException {
    String doc = section();
    assertThat(row(doc, "1")).containsExactly("`ArrayList` (also `Arrays.asList`)", "`HashMap`");
    assertThat(Containers.ARRAY_LIST).isEqualTo(1);
    assertThat(Containers.HASH_MAP).isEqualTo(1);
    assertThat(row(doc, "2").getFirst()).isEqualTo("`LinkedList`");
    assertThat(Containers.LINKED_LIST).isEqualTo(2);
    assertThat(Containers.LINKED_HASH_MAP).isEqualTo(2);
    assertThat(row(doc, "3").getFirst()).startsWith("immutable list");
    assertThat(Containers.IMMUTABLE_LIST).isEqualTo(3);
    assertThat(Containers.TREE_MAP).isEqualTo(3);
    assertThat(Containers.HASH_SET).isEqualTo(4);
    assertThat(Containers.IMMUTABLE_MAP).isEqualTo(4);
    assertThat(Containers.LINKED_HASH_SET).isEqualTo(5);
    assertThat(Containers.CONCURRENT_HASH_MAP).isEqualTo(5);
    assertThat(Containers.TREE_SET).isEqualTo(6);
    assertThat(Containers.CONCURRENT_SKIP_LIST_MAP).isEqualTo(6);
    assertThat(row(doc, "7").getFirst()).startsWith("immutable set");
    assertThat(Containers.IMMUTABLE_SET).isEqualTo(Containers.MAX_COLLECTION_FLAVOUR);
  }

  @Test
  void maxDepth_isTheDocumentedOne() throws IOException {
    assertThat(section()).contains("limited\nto " + ObjectTypes.MAX_DEPTH + " objects deep");
  }

  // ---------------------------------------------------------------- strings

  private static byte[] written(java.util.function.Consumer<Out> writes) {
    Out out = Out.acquire();
    try {
      out.reset();
      writes.accept(out);
      return java.util.Arrays.copyOf(out.buf, out.pos);
    } finally {
      out.reset();
      out.release();
    }
  }

  private static String encode(String s) {
    return HexFormat.ofDelimiter(" ").formatHex(written(out -> out.putString(s)));
  }

  private static String decode(String hex) {
    byte[] bytes = HexFormat.ofDelimiter(" ").parseHex(hex);
    In in = In.acquire(MemorySegment.ofArray(bytes), 0, bytes.length);
    try {
      String s = in.readString();
      assertThat(in.pos).as("consumed").isEqualTo(bytes.length);
      return s;
    } finally {
      in.release();
    }
  }

  @Test
  void strings_haveTheDocumentedForms() {
    assertThat(encode(null)).isEqualTo("80");
    assertThat(encode("")).isEqualTo("81");
    assertThat(encode("a")).isEqualTo("83 61");
    assertThat(encode("ab")).isEqualTo("61 e2");
    assertThat(encode("é")).isEqualTo("85 c3 a9"); // ((2 << 1) | 0) + 1 = 5, then UTF-8
    assertThat(encode("\ud800")).isEqualTo("86 00 d8"); // ((2 << 1) | 1) + 1: UTF-16LE
    // 40 bytes of UTF-8: header (40 << 1) + 1 = 81 = 0x51, past six bits: 0xC0 | 0x11, then 1
    assertThat(encode("é".repeat(20))).startsWith("d1 01 c3 a9");
    for (String s :
        new String[] {null, "", "a", "ab", "é", "\ud800", "é".repeat(20), "x".repeat(1000)}) {
      assertThat(decode(encode(s))).isEqualTo(s);
    }
  }

  @Property(tries = 500)
  void anyString_roundTrips(@ForAll String s) {
    assertThat(decode(encode(s))).isEqualTo(s);
  }

  @Test
  void unterminatedAsciiString_isCorrupt() {
    assertThatThrownBy(() -> decode("61 62 63"))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("unterminated");
  }

  // ---------------------------------------------------------------- varints

  @Property(tries = 500)
  void varints_roundTrip_inTheirSize(@ForAll int i, @ForAll long l) {
    byte[] bytes =
        written(
            out -> {
              out.putZigZagInt(i);
              out.putZigZagLong(l);
            });
    int intBytes = written(out -> out.putZigZagInt(i)).length;
    assertThat(intBytes)
        .isEqualTo(Math.max(1, (32 - Integer.numberOfLeadingZeros(Wire.zigZag(i)) + 6) / 7));
    In in = In.acquire(MemorySegment.ofArray(bytes), 0, bytes.length);
    try {
      assertThat(in.readZigZagInt()).isEqualTo(i);
      assertThat(in.pos).isEqualTo(intBytes);
      assertThat(in.readZigZagLong()).isEqualTo(l);
      assertThat(in.pos).isEqualTo(bytes.length);
    } finally {
      in.release();
    }
  }

  @Test
  void overlongVarints_areCorrupt() {
    for (String hex : List.of("ff ff ff ff 1f", "80 80 80 80 80 00")) {
      byte[] bytes = HexFormat.ofDelimiter(" ").parseHex(hex);
      In in = In.acquire(MemorySegment.ofArray(bytes), 0, bytes.length);
      try {
        assertThatThrownBy(in::readVarInt).as(hex).isInstanceOf(CorruptValueException.class);
      } finally {
        in.release();
      }
    }
    byte[] eleven = HexFormat.ofDelimiter(" ").parseHex("ff ff ff ff ff ff ff ff ff 7f");
    In in = In.acquire(MemorySegment.ofArray(eleven), 0, eleven.length);
    try {
      assertThatThrownBy(in::readVarLong).isInstanceOf(CorruptValueException.class);
    } finally {
      in.release();
    }
  }

  @Test
  void descriptors_parseTheirOwnText_andRejectGarbage() {
    for (String d :
        List.of(
            "int",
            "Integer",
            "String",
            "LocalDate",
            "int[]",
            "array<ref:a.B>",
            "coll<map<String,optional<enum#17>>>",
            "any",
            "ref:x.Y$Z")) {
      assertThat(Desc.parse(d)).hasToString(d);
    }
    for (String bad :
        List.of(
            "",
            "integer",
            "coll<int",
            "map<int>",
            "enum#",
            "ref:",
            "coll<".repeat(100) + "int" + ">".repeat(100),
            "int extra")) {
      assertThatThrownBy(() -> Desc.parse(bad)).as(bad).isInstanceOf(CorruptValueException.class);
    }
  }
}
