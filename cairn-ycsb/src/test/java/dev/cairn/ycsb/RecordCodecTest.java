package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

class RecordCodecTest {

  @Test
  void encodeThenDecode_givesEveryField_ofEveryLength() {
    SplittableRandom random = new SplittableRandom(7);
    // lengths around each varint boundary: 1, 2 and 3 bytes
    for (int length : new int[] {0, 1, 127, 128, 16_383, 16_384, 100_000}) {
      Map<String, byte[]> fields = new LinkedHashMap<>();
      for (int f = 0; f < 3; f++) {
        byte[] value = new byte[length];
        random.nextBytes(value);
        fields.put("field" + f + "-é", value);
      }
      Map<String, byte[]> back = bytes(decode(RecordCodec.encode(fields), null));
      assertThat(back.keySet()).isEqualTo(fields.keySet());
      fields.forEach((name, value) -> assertThat(back.get(name)).as(name).isEqualTo(value));
    }
  }

  @Test
  void emptyRecord_hasOneByte() {
    byte[] record = RecordCodec.encode(Map.of());
    assertThat(record).hasSize(1);
    assertThat(decode(record, null)).isEmpty();
  }

  @Test
  void tenFieldsOf100Bytes_take2BytesOfFramingEach_plusTheCount() {
    Map<String, byte[]> fields = new LinkedHashMap<>();
    for (int f = 0; f < 10; f++) {
      fields.put("field" + f, new byte[100]);
    }
    assertThat(RecordCodec.encode(fields)).hasSize(1 + 10 * (1 + 6 + 1 + 100));
  }

  @Test
  void decode_ofSomeFields_givesThoseOnly() {
    byte[] record = RecordCodec.encode(fields("a", "1", "b", "2", "c", "3"));
    assertThat(strings(decode(record, Set.of("a", "c", "z"))))
        .isEqualTo(Map.of("a", "1", "c", "3"));
  }

  @Test
  void merge_replacesInPlace_andAppendsNewFields() {
    byte[] record = RecordCodec.encode(fields("a", "1", "b", "2", "c", "3"));
    byte[] merged = RecordCodec.merge(record, fields("b", "two", "d", "4"));
    Map<String, ByteIterator> back = new LinkedHashMap<>();
    RecordCodec.decode(merged, null, back);
    assertThat(List.copyOf(back.keySet())).containsExactly("a", "b", "c", "d");
    assertThat(strings(back)).isEqualTo(Map.of("a", "1", "b", "two", "c", "3", "d", "4"));
  }

  @Test
  void toBytes_readsEachIteratorOnce() {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("a", new ByteArrayByteIterator("xyz".getBytes(StandardCharsets.UTF_8)));
    Map<String, byte[]> bytes = RecordCodec.toBytes(values);
    assertThat(new String(bytes.get("a"), StandardCharsets.UTF_8)).isEqualTo("xyz");
    assertThat(values.get("a").hasNext()).isFalse();
  }

  @Test
  void malformedBytes_areRefused_neverReadPastTheirEnd() {
    byte[] record = RecordCodec.encode(fields("a", "1", "bb", "22"));
    for (int cut = 0; cut < record.length; cut++) {
      byte[] truncated = Arrays.copyOf(record, cut);
      assertThatThrownBy(() -> decode(truncated, null))
          .as("cut at " + cut)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a YCSB record");
    }
    byte[] longer = Arrays.copyOf(record, record.length + 1);
    assertThatThrownBy(() -> decode(longer, null))
        .hasMessageContaining("1 bytes follow its last field");
    byte[] hugeLength = {1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
    assertThatThrownBy(() -> decode(hugeLength, null))
        .hasMessageContaining("a length is over " + Integer.MAX_VALUE);
    byte[] longVarint = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
    assertThatThrownBy(() -> decode(longVarint, null)).hasMessageContaining("more than 5 bytes");
    assertThatThrownBy(() -> RecordCodec.merge(truncatedLength(), Map.of()))
        .hasMessageContaining("passes its end");
  }

  /** A record whose one field's name claims 10 bytes, of which 1 follows. */
  private static byte[] truncatedLength() {
    return new byte[] {1, 10, 'a'};
  }

  private static Map<String, ByteIterator> decode(byte[] record, Set<String> wanted) {
    Map<String, ByteIterator> into = new HashMap<>();
    RecordCodec.decode(record, wanted, into);
    return into;
  }

  private static Map<String, byte[]> fields(String... namesAndValues) {
    Map<String, byte[]> fields = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put(namesAndValues[i], namesAndValues[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return fields;
  }

  private static Map<String, byte[]> bytes(Map<String, ByteIterator> values) {
    Map<String, byte[]> bytes = new HashMap<>();
    values.forEach((name, value) -> bytes.put(name, value.toArray()));
    return bytes;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> values) {
    Map<String, String> strings = new HashMap<>();
    values.forEach((name, value) -> strings.put(name, value.toString()));
    return strings;
  }
}
