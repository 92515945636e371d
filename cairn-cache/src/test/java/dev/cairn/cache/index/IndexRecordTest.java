package dev.cairn.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** {@link IndexRecord#bytes}: the record as written, whatever the records before it. */
class IndexRecordTest {
  @Test
  void bytes_isTheRecordSinceItsBegin_whenLengthsRepeatOrChange() {
    IndexRecord record = new IndexRecord();
    record.begin(3).retire(1_000, 16);
    MemorySegment first = record.bytes();
    assertThat(first.byteSize()).isEqualTo(IndexRecord.OPS_OFFSET + IndexRecord.RETIRE_BYTES);
    assertThat(IndexRecord.tableId(first)).isEqualTo(3);
    assertThat(first.get(IndexRecord.U64, IndexRecord.OPS_OFFSET + 1)).isEqualTo(1_000);

    record.begin(4).retire(2_000, 32); // the same length again
    MemorySegment second = record.bytes();
    assertThat(second.byteSize()).isEqualTo(first.byteSize());
    assertThat(IndexRecord.tableId(second)).isEqualTo(4);
    assertThat(second.get(IndexRecord.U64, IndexRecord.OPS_OFFSET + 1)).isEqualTo(2_000);

    record.begin(5).retire(3_000, 64);
    record.retire(4_000, 64); // longer
    assertThat(record.bytes().byteSize())
        .isEqualTo(IndexRecord.OPS_OFFSET + 2L * IndexRecord.RETIRE_BYTES);

    record.begin(6); // empty
    assertThat(record.isEmpty()).isTrue();
    assertThat(record.bytes().byteSize()).isEqualTo(IndexRecord.OPS_OFFSET);
  }
}
