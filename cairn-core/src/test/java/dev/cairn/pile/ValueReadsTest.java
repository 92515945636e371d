package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reads that copy into the caller's memory through a thread's copy target (ValueReads): a moved
 * value always takes that path, never the fast one, so the length it reports, and whether the value
 * fit, must be the read's that validated (R1). And each pointer problem makes the exception, and
 * the message, it names.
 */
class ValueReadsTest {

  private static Pile volatilePile() {
    return Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).stripes(2).build());
  }

  /** A pointer whose value moved behind a link: an update too large for its block. */
  private static long movedValue(Pile pile, byte[] value) {
    long pointer = pile.put(new byte[8]);
    pile.update(pointer, value);
    return pointer;
  }

  private static byte[] bytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  @Test
  void getBytes_ofAMovedValue_intoAnArray_copiesIt_orNamesItsSize() {
    try (Pile pile = volatilePile()) {
      byte[] value = bytes(200, 1);
      long pointer = movedValue(pile, value);
      byte[] roomy = new byte[300];
      assertThat(pile.getBytes(pointer, roomy, 50)).isEqualTo(200);
      assertThat(Arrays.copyOfRange(roomy, 50, 250)).isEqualTo(value);

      byte[] small = new byte[120];
      assertThatThrownBy(() -> pile.getBytes(pointer, small, 20))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("buffer too small: size=200 available=100");
      assertThat(small).as("nothing copied").isEqualTo(new byte[120]);
    }
  }

  @Test
  void read_ofAMovedValue_intoAByteBuffer_copiesIt_orOverflows() {
    try (Pile pile = volatilePile()) {
      byte[] value = bytes(200, 2);
      long pointer = movedValue(pile, value);
      ByteBuffer roomy = ByteBuffer.allocateDirect(260).position(10);
      assertThat(pile.read(pointer, roomy)).isEqualTo(200);
      assertThat(roomy.position()).isEqualTo(210);
      byte[] copied = new byte[200];
      roomy.get(10, copied);
      assertThat(copied).isEqualTo(value);

      ByteBuffer small = ByteBuffer.allocate(150).position(1);
      assertThatThrownBy(() -> pile.read(pointer, small))
          .isInstanceOf(BufferOverflowException.class);
      assertThat(small.position()).isEqualTo(1);
    }
  }

  @Test
  void sizeOf_andTransferTo_ofAMovedValue_seeTheValue() throws IOException {
    try (Pile pile = volatilePile()) {
      byte[] large = bytes(100_000, 3); // past the thread's 64 KiB of staging memory
      long pointer = movedValue(pile, large);
      assertThat(pile.sizeOf(pointer)).isEqualTo(100_000);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(pile.transferTo(pointer, Channels.newChannel(out))).isEqualTo(100_000);
      assertThat(out.toByteArray()).isEqualTo(large);
    }
  }

  @Test
  void eachPointerProblem_makesTheExceptionItsKindNames() {
    for (PointerProblem problem : PointerProblem.values()) {
      PointerException thrown = problem.exception(Pointers.pointer(5, 1, 64), 7, 9);
      assertThat(thrown)
          .as(problem.name())
          .isInstanceOf(
              problem.stale() ? StalePointerException.class : InvalidPointerException.class);
    }
    assertThat(PointerProblem.DELETED.stale()).isTrue();
    assertThat(PointerProblem.TAG_MISMATCH.stale()).isTrue();
    assertThat(PointerProblem.SEGMENT_RELEASED.stale()).isTrue();
    assertThat(PointerProblem.TAG_NEVER_HANDED_OUT.stale()).isFalse();
    assertThat(PointerProblem.SEGMENT_NEVER_USED.stale()).isFalse();
  }

  @Test
  void aPointerProblemsNumbers_areWrittenTheSameInEveryLocale() {
    Locale before = Locale.getDefault();
    try {
      Locale.setDefault(Locale.forLanguageTag("ar-EG")); // Arabic-Indic digits by default
      PointerException thrown =
          PointerProblem.SEGMENT_NEVER_USED.exception(Pointers.pointer(5, 1, 64), 1234, 56);
      assertThat(thrown.getMessage())
          .startsWith("not a pointer of this pile: it never had a segment 1234 (56 so far)");
    } finally {
      Locale.setDefault(before);
    }
  }
}
