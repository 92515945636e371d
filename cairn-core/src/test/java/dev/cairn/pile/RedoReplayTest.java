package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Op records in both state forms: the full 80-byte state that logs written before the
 * changed-fields form hold, and the changed-fields form with a mask naming fields out of range.
 */
class RedoReplayTest {

  private static final int RANGE_BYTES = 8;

  /** An op record with no heads or table entries and one 8-byte range at {@code offset}. */
  private static MemorySegment fullStateRecord(Stripe stripe, int segment, long offset,
      long objectCount) {
    long bytes = Journal.FIXED_BYTES + Journal.RANGE_HEADER_BYTES + RANGE_BYTES;
    MemorySegment record = MemorySegment.ofArray(new byte[(int) bytes]);
    record.set(Journal.U32, 0, stripe.id); // bit 31 clear: the full state follows
    record.set(Journal.U32, 4, 0);
    record.set(Journal.U32, 8, 0);
    record.set(Journal.U32, 12, 1);
    long[] fields = new long[Stripe.STATE_FIELDS];
    stripe.readStateFields(fields);
    fields[4] = objectCount;
    for (int i = 0; i < Stripe.STATE_FIELDS; i++) {
      record.set(Journal.U64, Journal.PREFIX_BYTES + 8L * i, fields[i]);
    }
    long at = Journal.FIXED_BYTES;
    record.set(Journal.U32, at, segment);
    record.set(Journal.U32, at + 4, RANGE_BYTES);
    record.set(Journal.U64, at + 8, offset);
    record.set(Journal.U64, at + Journal.RANGE_HEADER_BYTES, 0x1122334455667788L);
    return record;
  }

  @Test
  void aFullStateRecordOfAnEarlierLog_setsTheStateAndItsBytes() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      long pointer = pile.put(new byte[64]);
      Stripe stripe = pile.stripe(0);
      int segment = Pointers.segment(pointer);
      long target = Pointers.offsetBytes(pointer) + BlockLayout.HEADER_BYTES;
      new RedoReplay(pile.segmentTable(), pile.stripes(), null).applyOp(fullStateRecord(stripe, segment, target, 42));
      assertThat(stripe.objectCount).isEqualTo(42);
      NativeSegment written = pile.segmentTable().segmentAt(segment);
      assertThat(written.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, target))
          .isEqualTo(0x1122334455667788L);
    }
  }

  @Test
  void aChangedStateRecordNamingAnUnknownField_isCorruption() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      MemorySegment record = MemorySegment.ofArray(new byte[Journal.PREFIX_BYTES + 2]);
      record.set(Journal.U32, 0, Journal.COMPACT_STATE); // stripe 0, changed-fields form
      record.set(Journal.U16, Journal.PREFIX_BYTES, (short) (1 << 12));
      assertThatThrownBy(() -> new RedoReplay(pile.segmentTable(), pile.stripes(), null).applyOp(record))
          .isInstanceOf(PileCorruptionException.class)
          .hasMessageContaining("unknown state fields");
    }
  }

  @Test
  void aChangedStateRecord_setsOnlyTheFieldsItNames() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      pile.put(new byte[64]);
      Stripe stripe = pile.stripe(0);
      long links = stripe.linkCount;
      long utilized = stripe.utilizedBytes;
      MemorySegment record = MemorySegment.ofArray(new byte[Journal.PREFIX_BYTES + 2 + 2]);
      record.set(Journal.U32, 0, Journal.COMPACT_STATE);
      record.set(Journal.U16, Journal.PREFIX_BYTES, (short) (1 << 4)); // ObjectCount only
      Uleb128.write(record, Journal.PREFIX_BYTES + 2, 300); // two bytes
      new RedoReplay(pile.segmentTable(), pile.stripes(), null).applyOp(record);
      assertThat(stripe.objectCount).isEqualTo(300);
      assertThat(stripe.linkCount).isEqualTo(links);
      assertThat(stripe.utilizedBytes).isEqualTo(utilized);
    }
  }
}
