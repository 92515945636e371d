package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.index.IndexRecord;
import dev.cairn.cache.index.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cache's formats (docs/FORMAT.md, "Cache"): the documented offsets equal the layout classes'
 * constants, and golden bytes of version 1, which a change of format must not break silently.
 */
class CacheFormatTest {

  @Test
  void entryLayout_offsetsAreAsDocumented_andItsBytesAreGolden() {
    assertThat(EntryLayout.FLAGS_OFFSET).isZero();
    assertThat(EntryLayout.KIND_OFFSET).isEqualTo(1);
    assertThat(EntryLayout.KEY_LENGTH_OFFSET).isEqualTo(2);
    assertThat(EntryLayout.TYPE_ID_OFFSET).isEqualTo(4);
    assertThat(EntryLayout.WRITTEN_AT_OFFSET).isEqualTo(8);
    assertThat(EntryLayout.EXPIRE_AT_OFFSET).isEqualTo(16);
    assertThat(EntryLayout.KEY_OFFSET).isEqualTo(24);

    MemorySegment entry = MemorySegment.ofArray(new byte[EntryLayout.HEADER_BYTES]);
    EntryLayout.writeHeader(
        entry, 0, EntryLayout.FLAG_PINNED, EntryLayout.KIND_STRING, 3, 0, 0x0102030405060708L, 0);
    assertThat(HexFormat.of().formatHex(entry.toArray(ValueLayout.JAVA_BYTE)))
        .isEqualTo("01010300" + "00000000" + "0807060504030201" + "0000000000000000");
  }

  @Test
  void slotLayout_isTwoWords_withHashExpiryAndPolicyInTheMeta() {
    assertThat(SlotLayout.SLOT_BYTES).isEqualTo(16);
    assertThat(SlotLayout.META_OFFSET).isEqualTo(8);
    long meta = SlotLayout.meta(0xCAFEBABE, 0x123456, 0x9A);
    assertThat(Long.toHexString(meta)).isEqualTo("cafebabe1234569a");
    assertThat(SlotLayout.hash32OfMeta(meta)).isEqualTo(0xCAFEBABE);
    assertThat(SlotLayout.expiryOfMeta(meta)).isEqualTo(0x123456);
    assertThat(SlotLayout.policyOfMeta(meta)).isEqualTo(0x9A);
  }

  @Test
  void indexRecord_sizesAreAsDocumented() {
    assertThat(IndexRecord.OPS_OFFSET).isEqualTo(2);
    assertThat(IndexRecord.SET_BYTES).isEqualTo(46);
    assertThat(IndexRecord.RESIZE_BYTES).isEqualTo(22);
    assertThat(IndexRecord.RETIRE_BYTES).isEqualTo(13);
    IndexRecord record = new IndexRecord().begin(0x0102);
    assertThat(HexFormat.of().formatHex(record.bytes().toArray(ValueLayout.JAVA_BYTE)))
        .isEqualTo("0201");
    assertThat(IndexRecord.tableId(record.bytes())).isEqualTo(0x0102);
  }

  @Test
  void state_startsWithItsMagicAndVersion_andRefusesAnother() {
    TableDescriptor d =
        new TableDescriptor(
            7,
            "t",
            "long",
            "[B",
            42L,
            1_000L,
            TableOptions.builder().expireAfterWrite(Duration.ofSeconds(5)).build());
    byte[] state = CacheState.encode(List.of(), List.of());
    assertThat(HexFormat.of().formatHex(state))
        .isEqualTo("43434845" + "0001" + "0000" + "00000000");
    byte[] descriptor = CacheState.encodeDescriptor(d);
    assertThat(HexFormat.of().formatHex(descriptor))
        .startsWith(
            "0007"
                + "000174"
                + "00046c6f6e67"
                + "00025b42"
                + "000000000000002a"
                + "00000000000003e8"
                + "0000000000001388");
    assertThat(CacheState.decodeDescriptor(descriptor)).isEqualTo(d);
    byte[] other = state.clone();
    other[5] = 2;
    assertThatThrownBy(() -> CacheState.decode(other))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("format version 2");
    other[0] = 0;
    assertThatThrownBy(() -> CacheState.decode(other))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("magic");
  }
}
