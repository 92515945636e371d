package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.assertConsistent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A volatile pile gives the pages of large freed blocks back to the OS (Stripe, "Giving back"), and
 * the space given back is reused as any other free space.
 */
class FreeSpaceReleaseTest {
  private static final long MIB = 1 << 20;
  private static final long SEGMENT_BYTES = 64 * MIB;
  private static final int VALUES = 40;

  private static final PileOptions OPTIONS =
      PileOptions.builder().segmentBytes(SEGMENT_BYTES).stripes(1).build();

  @Test
  void deletedLargeValues_leaveTheResidentSet() throws IOException {
    try (Pile pile = Pile.offHeap(OPTIONS)) {
      long[] pointers = putLarge(pile, (byte) 1);
      long filled = residentBytes();

      for (long pointer : pointers) {
        pile.delete(pointer);
      }

      // 40 MiB were freed; all but the first few MiB (below a sixteenth of the segment's bytes,
      // RELEASE_FREE_SHARE) lie in the extent given back
      assertThat(filled - residentBytes()).isGreaterThan(24 * MIB);
      assertConsistent(pile, SEGMENT_BYTES);
    }
  }

  @Test
  void spaceGivenBack_isReusedIntact_andOldPointersStayStale() {
    try (Pile pile = Pile.offHeap(OPTIONS)) {
      long[] old = putLarge(pile, (byte) 1);
      long small = pile.put(new byte[] {9, 9, 9});
      for (long pointer : old) {
        pile.delete(pointer);
      }

      for (long pointer : old) { // their headers read as zeros now, or as a free block's
        assertThatThrownBy(() -> pile.getBytes(pointer)).isInstanceOf(StalePointerException.class);
      }
      long[] reused = putLarge(pile, (byte) 2);
      long[] smalls = new long[1000];
      for (int i = 0; i < smalls.length; i++) {
        smalls[i] = pile.put(new byte[] {(byte) i, (byte) (i >> 8)});
      }

      assertThat(pile.stats().segmentCount()).as("the freed space was reused").isEqualTo(1);
      for (int i = 0; i < reused.length; i++) {
        assertThat(pile.getBytes(reused[i])).isEqualTo(value((byte) 2, i));
      }
      for (int i = 0; i < smalls.length; i++) {
        assertThat(pile.getBytes(smalls[i])).containsExactly((byte) i, (byte) (i >> 8));
      }
      assertThat(pile.getBytes(small)).containsExactly(9, 9, 9);
      pile.verify();
      assertConsistent(pile, SEGMENT_BYTES);
    }
  }

  /** Puts {@link #VALUES} values of 1 MiB (less a little, so that they share one segment). */
  private static long[] putLarge(Pile pile, byte fill) {
    long[] pointers = new long[VALUES];
    for (int i = 0; i < VALUES; i++) {
      pointers[i] = pile.put(value(fill, i));
    }
    return pointers;
  }

  private static byte[] value(byte fill, int i) {
    byte[] value = new byte[(int) MIB - 64];
    Arrays.fill(value, fill);
    value[0] = (byte) i;
    value[value.length - 1] = (byte) i;
    return value;
  }

  private static long residentBytes() throws IOException {
    // /proc/self/statm: size resident shared ... in pages
    String[] fields = Files.readString(Path.of("/proc/self/statm")).trim().split(" ");
    return Long.parseLong(fields[1]) * 4096;
  }
}
