package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.index.HashIndex;
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
 * constants, and golden bytes of version 6, which a change of format must not break silently.
 */
class CacheFormatTest {

  @Test
  void entryLayout_offsetsAreAsDocumented_andItsBytesAreGolden() {
    assertThat(EntryLayout.HEAD_OFFSET).isZero();
    assertThat(EntryLayout.OPTIONAL_OFFSET).isEqualTo(8);
    assertThat(EntryLayout.KIND_SHIFT).isEqualTo(3);
    assertThat(EntryLayout.KEY_LENGTH_SHIFT).isEqualTo(5);
    assertThat(EntryLayout.WRITTEN_AT_SHIFT).isEqualTo(21);
    assertThat(EntryLayout.MAX_WRITTEN_AT).isEqualTo((1L << 43) - 1);

    // a pinned string entry with a 3-byte key, no expiry: one word of header
    MemorySegment plain = MemorySegment.ofArray(new byte[8]);
    assertThat(
            EntryLayout.writeHeader(
                plain, 0, EntryLayout.FLAG_PINNED, EntryLayout.KIND_STRING, 3, 0, 0x123456789AL, 0))
        .isEqualTo(8);
    // 0x123456789A << 21 | 3 << 5 | 1 << 3 | 1 = 0x02468ACF13400069, little-endian
    assertThat(HexFormat.of().formatHex(plain.toArray(ValueLayout.JAVA_BYTE)))
        .isEqualTo("69004013cf8a4602");
    assertThat(EntryLayout.flags(plain, 0, EntryLayout.HEADED)).isEqualTo(EntryLayout.FLAG_PINNED);
    assertThat(EntryLayout.kind(plain, 0, EntryLayout.HEADED)).isEqualTo(EntryLayout.KIND_STRING);
    assertThat(EntryLayout.keyLength(plain, 0, EntryLayout.HEADED)).isEqualTo(3);
    assertThat(EntryLayout.writtenAt(plain, 0, EntryLayout.HEADED)).isEqualTo(0x123456789AL);
    assertThat(EntryLayout.expireAt(plain, 0, EntryLayout.HEADED)).isZero();
    assertThat(EntryLayout.keyOffset(plain, 0, EntryLayout.HEADED)).isEqualTo(8);

    // an object entry that expires: head, type id, expire-at
    MemorySegment full = MemorySegment.ofArray(new byte[20]);
    assertThat(
            EntryLayout.writeHeader(
                full, 0, 0, EntryLayout.KIND_OBJECT, 8, 0x0A0B0C0D, 1, 0x0102030405060708L))
        .isEqualTo(20);
    // 1 << 21 | 8 << 5 | 2 << 3 | FLAG_EXPIRES = 0x0000000000200112
    assertThat(HexFormat.of().formatHex(full.toArray(ValueLayout.JAVA_BYTE)))
        .isEqualTo("1201200000000000" + "0d0c0b0a" + "0807060504030201");
    assertThat(EntryLayout.typeId(full, 0, EntryLayout.HEADED)).isEqualTo(0x0A0B0C0D);
    assertThat(EntryLayout.expireAt(full, 0, EntryLayout.HEADED)).isEqualTo(0x0102030405060708L);
    assertThat(EntryLayout.keyOffset(full, 0, EntryLayout.HEADED)).isEqualTo(20);
    assertThat(EntryLayout.headerBytes(EntryLayout.KIND_BYTES, 0)).isEqualTo(8);
    assertThat(EntryLayout.headerBytes(EntryLayout.KIND_OBJECT, 5)).isEqualTo(20);
  }

  @Test
  void aBareEntry_isItsKeyAndValue_whoseLengthAndKindItsTableFixes() {
    long longBytes = EntryLayout.bareForm("long", byte[].class.getName());
    long uuidStrings = EntryLayout.bareForm("uuid", String.class.getName());
    // the head word a header would have had: key length 8, kind 0 (bytes); 16, kind 1 (string)
    assertThat(longBytes).isEqualTo(8L << 5);
    assertThat(uuidStrings).isEqualTo(16L << 5 | 1L << 3);
    long stringBytes = EntryLayout.bareForm("string", byte[].class.getName());
    assertThat(stringBytes).as("a key of no fixed length: its length first").isEqualTo(1L << 2);
    assertThat(EntryLayout.bareForm("bytes", String.class.getName())).isEqualTo(1L << 2 | 1L << 3);
    long longObjects = EntryLayout.bareForm("long", "com.example.Order");
    assertThat(longObjects).as("values of any class: a kind byte first").isEqualTo(8L << 5 | 1);
    MemorySegment object = MemorySegment.ofArray(new byte[15]); // kind, type id, key, 2 bytes
    object.set(ValueLayout.JAVA_BYTE, 0, EntryLayout.KIND_OBJECT);
    object.set(EntryLayout.U32, 1, 0x0A0B0C0D);
    assertThat(EntryLayout.wellFormed(object, longObjects)).isTrue();
    assertThat(EntryLayout.kind(object, 0, longObjects)).isEqualTo(EntryLayout.KIND_OBJECT);
    assertThat(EntryLayout.typeId(object, 0, longObjects)).isEqualTo(0x0A0B0C0D);
    assertThat(EntryLayout.keyOffset(object, 0, longObjects)).isEqualTo(5);
    assertThat(EntryLayout.valueOffset(object, 0, longObjects)).isEqualTo(13);
    object.set(ValueLayout.JAVA_BYTE, 0, EntryLayout.KIND_STRING);
    assertThat(EntryLayout.keyOffset(object, 0, longObjects)).as("no type id").isEqualTo(1);
    object.set(ValueLayout.JAVA_BYTE, 0, (byte) 3);
    assertThat(EntryLayout.wellFormed(object, longObjects)).as("kind 3").isFalse();
    assertThat(EntryLayout.bareHeaderBytes(longObjects, EntryLayout.KIND_OBJECT)).isEqualTo(5);
    assertThat(EntryLayout.bareHeaderBytes(EntryLayout.bareForm("string", "x.Y"), 0)).isEqualTo(2);

    MemorySegment entry = MemorySegment.ofArray(new byte[12]); // an 8-byte key, 4 bytes of value
    assertThat(EntryLayout.wellFormed(entry, longBytes)).isTrue();
    assertThat(EntryLayout.keyOffset(entry, 0, longBytes)).isZero();
    assertThat(EntryLayout.keyLength(entry, 0, longBytes)).isEqualTo(8);
    assertThat(EntryLayout.valueOffset(entry, 0, longBytes)).isEqualTo(8);
    assertThat(EntryLayout.kind(entry, 0, longBytes)).isEqualTo(EntryLayout.KIND_BYTES);
    assertThat(EntryLayout.writtenAt(entry, 0, longBytes)).as("none: older than any age").isZero();
    assertThat(EntryLayout.expireAt(entry, 0, longBytes)).isZero();
    assertThat(EntryLayout.flags(entry, 0, longBytes)).isZero();
    assertThat(EntryLayout.wellFormed(entry, uuidStrings)).as("shorter than its key").isFalse();
    assertThat(EntryLayout.wellFormed(entry, EntryLayout.NOT_BARE))
        .as("marked, read with no table's form")
        .isFalse();
    MemorySegment prefixed = MemorySegment.ofArray(new byte[] {3, 'a', 'b', 'c', 9, 9});
    assertThat(EntryLayout.wellFormed(prefixed, stringBytes)).isTrue();
    assertThat(EntryLayout.keyLength(prefixed, 0, stringBytes)).isEqualTo(3);
    assertThat(EntryLayout.keyOffset(prefixed, 0, stringBytes)).isEqualTo(1);
    assertThat(EntryLayout.valueOffset(prefixed, 0, stringBytes)).isEqualTo(4);
    assertThat(EntryLayout.flags(prefixed, 0, stringBytes)).isZero();
    prefixed.set(ValueLayout.JAVA_BYTE, 0, (byte) 6);
    assertThat(EntryLayout.wellFormed(prefixed, stringBytes)).as("a key past the end").isFalse();
    assertThat(EntryLayout.wellFormed(MemorySegment.ofArray(new byte[0]), stringBytes)).isFalse();
    assertThat(EntryLayout.form(EntryLayout.MARK_BARE, longBytes)).isEqualTo(longBytes);
    assertThat(EntryLayout.form(0, longBytes)).isEqualTo(EntryLayout.HEADED);
    assertThat(EntryLayout.markOf(longBytes, 8, EntryLayout.KIND_BYTES))
        .as("nothing for the mark to say in a table that fixes both")
        .isEqualTo(EntryLayout.MARK_BARE);
    assertThat(EntryLayout.markOf(EntryLayout.HEADED, 8, EntryLayout.KIND_BYTES)).isZero();
  }

  @Test
  void aBareEntrysMark_leavesOutAnEightByteKeysLengthAndTheValuesKind() {
    long bytesObjects = EntryLayout.bareForm("bytes", Object.class.getName()); // a JCache table's
    int mark = EntryLayout.markOf(bytesObjects, 8, EntryLayout.KIND_BYTES);
    assertThat(mark).isEqualTo(0b0111); // bare, key of 8, kind 0 + 1
    long form = EntryLayout.form(mark, bytesObjects);
    assertThat(form).isEqualTo(8L << 5 | (long) EntryLayout.KIND_BYTES << 3);
    MemorySegment entry = MemorySegment.ofArray(new byte[40]); // the key, then 32 bytes of value
    assertThat(EntryLayout.wellFormed(entry, form)).isTrue();
    assertThat(EntryLayout.keyLength(entry, 0, form)).isEqualTo(8);
    assertThat(EntryLayout.keyOffset(entry, 0, form)).isZero();
    assertThat(EntryLayout.valueOffset(entry, 0, form)).isEqualTo(8);
    assertThat(EntryLayout.kind(entry, 0, form)).isEqualTo(EntryLayout.KIND_BYTES);
    assertThat(EntryLayout.bareHeaderBytes(form, EntryLayout.KIND_BYTES)).isZero();
    assertThat(EntryLayout.form(EntryLayout.MARK_BARE, bytesObjects))
        .as("an entry of format 5: both bytes in the entry")
        .isEqualTo(bytesObjects);

    int objectMark = EntryLayout.markOf(bytesObjects, 3, EntryLayout.KIND_OBJECT);
    assertThat(objectMark).as("a key of 3 keeps its length byte").isEqualTo(0b1101);
    long objectForm = EntryLayout.form(objectMark, bytesObjects);
    MemorySegment object = MemorySegment.ofArray(new byte[10]); // length, type id, key, 2 bytes
    object.set(ValueLayout.JAVA_BYTE, 0, (byte) 3);
    object.set(EntryLayout.U32, 1, 0x0A0B0C0D);
    assertThat(EntryLayout.wellFormed(object, objectForm)).isTrue();
    assertThat(EntryLayout.kind(object, 0, objectForm)).isEqualTo(EntryLayout.KIND_OBJECT);
    assertThat(EntryLayout.typeId(object, 0, objectForm)).isEqualTo(0x0A0B0C0D);
    assertThat(EntryLayout.keyOffset(object, 0, objectForm)).isEqualTo(5);
    assertThat(EntryLayout.valueOffset(object, 0, objectForm)).isEqualTo(8);
    assertThat(EntryLayout.bareHeaderBytes(objectForm, EntryLayout.KIND_OBJECT)).isEqualTo(5);

    long longBytes = EntryLayout.bareForm("long", byte[].class.getName());
    long stringBytes = EntryLayout.bareForm("string", byte[].class.getName());
    assertThat(EntryLayout.markOf(stringBytes, 8, EntryLayout.KIND_BYTES)).isEqualTo(0b0011);
    assertThat(EntryLayout.form(0b0011, longBytes))
        .as("no key length to leave out in a table of long keys: damage")
        .isEqualTo(EntryLayout.NOT_BARE);
    assertThat(EntryLayout.form(0b0101, stringBytes))
        .as("no kind to leave out in a table of byte[] values: damage")
        .isEqualTo(EntryLayout.NOT_BARE);
    assertThat(EntryLayout.form(0b0010, stringBytes))
        .as("not bare")
        .isEqualTo(EntryLayout.NOT_BARE);
    long eightObjects = EntryLayout.form(0b1111, bytesObjects);
    assertThat(eightObjects).isEqualTo(8L << 5 | (long) EntryLayout.KIND_OBJECT << 3);
    assertThat(EntryLayout.keyOffset(entry, 0, eightObjects)).as("after the type id").isEqualTo(4);
    assertThat(EntryLayout.wellFormed(MemorySegment.ofArray(new byte[11]), eightObjects))
        .as("shorter than its type id and key")
        .isFalse();
  }

  @Test
  void entryLayout_refusesAnInvalidKindOrAShortEntry() {
    MemorySegment entry = MemorySegment.ofArray(new byte[8]);
    entry.set(EntryLayout.I64, 0, 3L << EntryLayout.KIND_SHIFT);
    assertThat(EntryLayout.wellFormed(entry, EntryLayout.HEADED)).isFalse();
    EntryLayout.writeHeader(entry, 0, 0, EntryLayout.KIND_BYTES, 9, 0, 1, 0);
    assertThat(EntryLayout.wellFormed(entry, EntryLayout.HEADED))
        .as("a 9-byte key in 8 bytes")
        .isFalse();
    assertThat(EntryLayout.wellFormed(MemorySegment.ofArray(new byte[7]), EntryLayout.HEADED))
        .isFalse();
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
            TableOptions.builder().expireAfterWrite(Duration.ofSeconds(5)).build(),
            KeyPlacement.RUNS);
    byte[] state = CacheState.encode(List.of(), List.of(), List.of());
    assertThat(HexFormat.of().formatHex(state))
        .isEqualTo("43434845" + "0006" + "0000" + "00000000" + "0000");
    byte[] withDropped = CacheState.encode(List.of(), List.of(), List.of(0x0203, 5));
    assertThat(HexFormat.of().formatHex(withDropped))
        .as("the dropped ids, in order")
        .isEqualTo("43434845" + "0006" + "0000" + "00000000" + "0002" + "0005" + "0203");
    assertThat(CacheState.decode(withDropped).dropped()).containsExactly(5, 0x0203);
    byte[] descriptor = CacheState.encodeDescriptor(d);
    assertThat(HexFormat.of().formatHex(descriptor))
        .startsWith(
            "0007"
                + "000174"
                + "00046c6f6e67"
                + "00025b42"
                + "000000000000002a"
                + "00000000000003e8"
                + "0000000000001388")
        .as("the placement, then write times, last")
        .endsWith("0100");
    assertThat(CacheState.decodeDescriptor(descriptor)).isEqualTo(d);
    byte[] other = state.clone();
    other[5] = 2; // version 2: the state of an earlier build, without the dropped tables
    assertThatThrownBy(() -> CacheState.decode(other))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("format version 2");
    other[0] = 0;
    assertThatThrownBy(() -> CacheState.decode(other))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("magic");
  }

  @Test
  void aShardNoIndexWrites_isRefusedAsDamage() {
    byte[] state = stateOf(ORDERS);
    int capacityAt = 4 + 2 + 2 + CacheState.encodeDescriptor(ORDERS).length + Long.BYTES;
    for (int capacity : new int[] {24, 8, HashIndex.MAX_CAPACITY * 2, -16}) {
      byte[] damaged = withShard(state, capacityAt, 4096, capacity, 0, 0);
      assertThatThrownBy(() -> CacheState.decode(damaged))
          .isInstanceOf(CacheCorruptionException.class)
          .hasMessageContaining("table \"orders\" has index shard 0 of capacity " + capacity)
          .hasMessageContaining("not a power of two");
    }
    byte[] noRegion = withShard(state, capacityAt, 0, 64, 0, 0);
    assertThatThrownBy(() -> CacheState.decode(noRegion))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("of capacity 64 in region 0");
    byte[] overfull = withShard(state, capacityAt, 4096, 64, 60, 5);
    assertThatThrownBy(() -> CacheState.decode(overfull))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("holding 60 entries and 5 tombstones");
    byte[] fine = withShard(state, capacityAt, 4096, 64, 60, 4);
    CacheState.TableImage image = CacheState.decode(fine).tables().getFirst();
    assertThat(image.capacities()[0]).isEqualTo(64);
    assertThat(image.regions()[0]).isEqualTo(4096);
  }

  private static final TableDescriptor ORDERS =
      new TableDescriptor(
          3, "orders", "long", "[B", 42L, 1_000L, TableOptions.defaults(), KeyPlacement.RUNS);

  /** The state of one table {@code d} whose shards have no region yet. */
  private static byte[] stateOf(TableDescriptor d) {
    return CacheState.encode(
        List.of(new CacheState.Table(d, new HashIndex(d.id(), null))), List.of(), List.of());
  }

  /** {@code state} with its first shard's region, capacity, count and dead set as given. */
  private static byte[] withShard(
      byte[] state, int capacityAt, long region, int capacity, int count, int dead) {
    byte[] changed = state.clone();
    java.nio.ByteBuffer.wrap(changed)
        .putLong(capacityAt - Long.BYTES, region)
        .putInt(capacityAt, capacity)
        .putInt(capacityAt + 4, count)
        .putInt(capacityAt + 8, dead);
    return changed;
  }

  @Test
  void placements_areGolden() {
    MemorySegment key = MemorySegment.ofArray(new byte[8]);
    key.set(KeyHash.BE_LONG, 0, 5L);
    assertThat(
            HexFormat.of()
                .formatHex(
                    java.nio.ByteBuffer.allocate(32)
                        .putLong(KeyPlacement.HASHED.hash(key, 8, 42L))
                        .putLong(KeyPlacement.RUNS.hash(key, 8, 42L))
                        .putLong(KeyPlacement.RUNS.hash(key, 7, 42L))
                        .putLong(KeyPlacement.ofLong(-1L, 42L))
                        .array()))
        .as("HASHED, RUNS of 8 bytes, RUNS of 7 (hashed), RUNS of -1")
        .isEqualTo(
            "2154698fc9a708c9" + "1fc1633ff18cd5e1" + "32b1ebcb03fa87d0" + "4dfe355db3b17ae8");
  }

  @Test
  void versions3To5_areReadWithTheirDefaults_inAStateAndInATableRecord() {
    TableOptions writeTimes = TableOptions.builder().writeTimes(true).build();
    TableDescriptor d = ORDERS;
    byte[] v5 = stateOf(d);
    assertThat(CacheState.decode(v5).tables().getFirst().descriptor()).isEqualTo(d);
    v5[5] = 5; // version 5 has the same bytes; its entries keep the bytes marks leave out since
    assertThat(CacheState.decode(v5).tables().getFirst().descriptor()).isEqualTo(d);

    // the same state as a build of version 4 wrote it: no write-times byte after the placement
    int writeTimesAt = 4 + 2 + 2 + CacheState.encodeDescriptor(d).length - 1;
    assertThat(v5[writeTimesAt]).isZero();
    byte[] v4 = without(v5, writeTimesAt);
    v4[5] = 4;
    TableDescriptor read4 = CacheState.decode(v4).tables().getFirst().descriptor();
    assertThat(read4.options()).as("its entries all kept write times").isEqualTo(writeTimes);
    assertThat(read4.placement()).isEqualTo(KeyPlacement.RUNS);

    // and as a build of version 3 wrote it: no placement byte either
    int placementAt = writeTimesAt - 1;
    assertThat(v4[placementAt]).isEqualTo((byte) KeyPlacement.RUNS.code());
    byte[] v3 = without(v4, placementAt);
    v3[5] = 3;
    CacheState.Image image = CacheState.decode(v3);
    assertThat(image.tables().getFirst().descriptor().placement()).isEqualTo(KeyPlacement.HASHED);
    assertThat(image.tables().getFirst().descriptor().options()).isEqualTo(writeTimes);
    assertThat(image.tables().getFirst().descriptor().name()).isEqualTo("orders");

    byte[] record = CacheState.encodeDescriptor(d);
    byte[] recordOfVersion4 = java.util.Arrays.copyOf(record, record.length - 1);
    assertThat(CacheState.decodeDescriptor(recordOfVersion4).options()).isEqualTo(writeTimes);
    byte[] recordOfVersion3 = java.util.Arrays.copyOf(record, record.length - 2);
    assertThat(CacheState.decodeDescriptor(recordOfVersion3).placement())
        .isEqualTo(KeyPlacement.HASHED);

    record[record.length - 2] = 7;
    assertThatThrownBy(() -> CacheState.decodeDescriptor(record))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("\"orders\" has key placement 7");
    record[record.length - 2] = (byte) KeyPlacement.RUNS.code();
    record[record.length - 1] = 2;
    assertThatThrownBy(() -> CacheState.decodeDescriptor(record))
        .isInstanceOf(CacheCorruptionException.class)
        .hasMessageContaining("\"orders\" has write times 2");
  }

  private static byte[] without(byte[] bytes, int at) {
    byte[] shorter = new byte[bytes.length - 1];
    System.arraycopy(bytes, 0, shorter, 0, at);
    System.arraycopy(bytes, at + 1, shorter, at, bytes.length - at - 1);
    return shorter;
  }
}
