package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Op records: the changed-fields state form, a mask naming fields out of range, a range's
 * after-image, and a record without the compact-state flag (no log of this format has one).
 */
class RedoReplayTest {

  private static final int RANGE_BYTES = 8;

  /** An op record naming no state field, with one 8-byte range at {@code offset}. */
  private static MemorySegment rangeRecord(Stripe stripe, int segment, long offset) {
    long at = RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES;
    MemorySegment record =
        MemorySegment.ofArray(new byte[(int) (at + RedoLayout.RANGE_HEADER_BYTES + RANGE_BYTES)]);
    record.set(Journal.U32, RedoLayout.STRIPE_WORD_OFFSET, stripe.id | RedoLayout.COMPACT_STATE);
    record.set(Journal.U32, RedoLayout.RANGE_COUNT_OFFSET, 1);
    record.set(Journal.U32, at + RedoLayout.RANGE_SEGMENT_OFFSET, segment);
    record.set(Journal.U32, at + RedoLayout.RANGE_LENGTH_OFFSET, RANGE_BYTES);
    record.set(Journal.U64, at + RedoLayout.RANGE_OFFSET_OFFSET, offset);
    record.set(Journal.U64, at + RedoLayout.RANGE_HEADER_BYTES, 0x1122334455667788L);
    return record;
  }

  @Test
  void aRangeRecord_writesItsAfterImage() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      long pointer = pile.put(new byte[64]);
      Stripe stripe = pile.stripe(0);
      long objects = stripe.objectCount;
      int segment = Pointers.segment(pointer);
      long target = Pointers.offsetBytes(pointer) + BlockLayout.HEADER_BYTES;
      new RedoReplay(pile.segmentTable(), pile.stripes(), pile.segmentTable().segmentBytes(), false)
          .applyOp(rangeRecord(stripe, segment, target));
      assertThat(stripe.objectCount).as("no state field named").isEqualTo(objects);
      NativeSegment written = pile.segmentTable().segmentAt(segment);
      assertThat(written.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, target))
          .isEqualTo(0x1122334455667788L);
    }
  }

  @Test
  void aRangeRunningPastItsRecord_isCorruption() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      long pointer = pile.put(new byte[64]);
      MemorySegment record =
          rangeRecord(
              pile.stripe(0),
              Pointers.segment(pointer),
              Pointers.offsetBytes(pointer) + BlockLayout.HEADER_BYTES);
      long at = RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES;
      record.set(Journal.U32, at + RedoLayout.RANGE_LENGTH_OFFSET, RANGE_BYTES + 1);
      assertThatThrownBy(() -> newReplay(pile).applyOp(record))
          .isInstanceOf(PileCorruptionException.class)
          .hasMessageContaining("runs past the record's end");
    }
  }

  private static RedoReplay newReplay(OffHeapPile pile) {
    return new RedoReplay(
        pile.segmentTable(), pile.stripes(), pile.segmentTable().segmentBytes(), false);
  }

  @Test
  void aRecordWithoutTheCompactStateFlag_isCorruption() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      MemorySegment record = rangeRecord(pile.stripe(0), 0, 64);
      record.set(Journal.U32, RedoLayout.STRIPE_WORD_OFFSET, 0);
      assertThatThrownBy(
              () ->
                  new RedoReplay(
                          pile.segmentTable(),
                          pile.stripes(),
                          pile.segmentTable().segmentBytes(),
                          false)
                      .applyOp(record))
          .isInstanceOf(PileCorruptionException.class)
          .hasMessageContaining("compact state");
    }
  }

  @Test
  void aChangedStateRecordNamingAnUnknownField_isCorruption() {
    try (Pile volatilePile = Pile.offHeap(PileOptions.builder().stripes(1).build())) {
      OffHeapPile pile = (OffHeapPile) volatilePile;
      MemorySegment record =
          MemorySegment.ofArray(new byte[RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES]);
      record.set(
          Journal.U32,
          RedoLayout.STRIPE_WORD_OFFSET,
          RedoLayout.COMPACT_STATE); // stripe 0, changed-fields form
      record.set(Journal.U16, RedoLayout.OP_PREFIX_BYTES, (short) (1 << 12));
      assertThatThrownBy(
              () ->
                  new RedoReplay(
                          pile.segmentTable(),
                          pile.stripes(),
                          pile.segmentTable().segmentBytes(),
                          false)
                      .applyOp(record))
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
      MemorySegment record =
          MemorySegment.ofArray(
              new byte[RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES + 2]);
      record.set(Journal.U32, RedoLayout.STRIPE_WORD_OFFSET, RedoLayout.COMPACT_STATE);
      record.set(Journal.U16, RedoLayout.OP_PREFIX_BYTES, (short) (1 << 4)); // ObjectCount only
      Uleb128.write(
          record, RedoLayout.OP_PREFIX_BYTES + RedoLayout.FIELD_MASK_BYTES, 300); // two bytes
      new RedoReplay(pile.segmentTable(), pile.stripes(), pile.segmentTable().segmentBytes(), false)
          .applyOp(record);
      assertThat(stripe.objectCount).isEqualTo(300);
      assertThat(stripe.linkCount).isEqualTo(links);
      assertThat(stripe.utilizedBytes).isEqualTo(utilized);
    }
  }
}
