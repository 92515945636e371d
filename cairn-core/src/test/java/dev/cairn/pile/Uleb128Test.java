package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class Uleb128Test {

  @Property
  void everyLongRoundTrips_inTheBytesLengthPredicts(@ForAll long value) {
    MemorySegment buffer = MemorySegment.ofArray(new byte[Uleb128.MAX_BYTES + 1]);
    long end = Uleb128.write(buffer, 1, value);
    assertThat(end - 1).isEqualTo(Uleb128.length(value));
    long[] after = new long[1];
    assertThat(Uleb128.read(buffer, 1, after)).isEqualTo(value);
    assertThat(after[0]).isEqualTo(end);
  }

  @Test
  void smallValuesTakeOneByte_andSevenBitsMore_takeOneMore() {
    assertThat(Uleb128.length(0)).isEqualTo(1);
    assertThat(Uleb128.length(127)).isEqualTo(1);
    assertThat(Uleb128.length(128)).isEqualTo(2);
    assertThat(Uleb128.length(-1)).isEqualTo(10);
  }

  @Test
  void aValueLongerThanTenBytes_isCorruption_andOneCutShort_isOutOfBounds() {
    MemorySegment eleven = MemorySegment.ofArray(new byte[11]);
    eleven.fill((byte) 0x80);
    assertThatThrownBy(() -> Uleb128.read(eleven, 0, new long[1]))
        .isInstanceOf(PileCorruptionException.class)
        .hasMessageContaining("longer than 10 bytes");
    MemorySegment cut = MemorySegment.ofArray(new byte[] {(byte) 0x80, (byte) 0x80});
    assertThatThrownBy(() -> Uleb128.read(cut, 0, new long[1]))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(cut.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x80);
  }
}
