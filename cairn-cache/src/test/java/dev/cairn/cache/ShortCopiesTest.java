package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ShortCopies}: every length on both sides of the word copy, at every alignment. */
class ShortCopiesTest {

  @Test
  void everyLengthAndOffset_copiesExactlyItsBytes_bothWays() {
    long seed = new SplittableRandom().nextLong();
    System.out.println("ShortCopiesTest seed " + seed);
    SplittableRandom random = new SplittableRandom(seed);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(256);
      for (int length = 0; length <= ShortCopies.SHORT_BYTES * 2 + 5; length++) {
        for (int at = 0; at < 16; at++) {
          byte[] source = new byte[length];
          random.nextBytes(source);
          memory.fill((byte) 0x5A);
          ShortCopies.fromArray(source, memory, at, length);
          for (int i = 0; i < memory.byteSize(); i++) {
            byte expected = i >= at && i < at + length ? source[i - at] : (byte) 0x5A;
            assertThat(memory.get(ValueLayout.JAVA_BYTE, i))
                .as("length %d at %d, byte %d (seed %d)", length, at, i, seed)
                .isEqualTo(expected);
          }
          byte[] back = new byte[length + 3];
          Arrays.fill(back, (byte) 0x33);
          ShortCopies.toArray(memory, at, back, length);
          assertThat(Arrays.copyOf(back, length))
              .as("length %d at %d", length, at)
              .isEqualTo(source);
          assertThat(Arrays.copyOfRange(back, length, length + 3))
              .as("bytes past the copy untouched")
              .containsOnly((byte) 0x33);
        }
      }
    }
  }

  @Test
  void aCopyPastTheMemory_isRefused_shortOrLong() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(64);
      assertThatThrownBy(() -> ShortCopies.toArray(memory, 60, new byte[8], 8))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> ShortCopies.toArray(memory, 20, new byte[48], 48))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> ShortCopies.fromArray(new byte[8], memory, 60, 8))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> ShortCopies.toArray(memory, 0, new byte[4], 8))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }
  }
}
