package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a {@link PageCheck} reads a segment: its first {@link PageCheck#EXACT_READS} checks from the
 * file in one request each (a page's aligned window, a range of up to {@link
 * PageCheck#MAX_READ_PAGES}), the rest through the mapping, and what becomes of the pages read that
 * were not asked for (its notes I5 and I6). The file here is a fake that holds the segment's bytes
 * (zeros) except on the pages a test damages; the recorded checksums are those of zeros.
 */
class PageCheckTest {
  private static final int PAGES = 640; // 2.5 MiB: windows of 16, reads of up to 256

  private final NativeSegment segment =
      NativeSegment.allocate(0, (long) PAGES * NativeSegment.PAGE_BYTES, false);
  private final FakeFile file = new FakeFile();
  private final PageCheck check = PageCheck.attach(segment, file);

  @AfterEach
  void release() {
    segment.release();
  }

  @Test
  void aPagesCheck_readsItsAlignedWindowOnce_andChecksTheNeighbours() {
    assertThat(check.check(37)).isTrue();

    assertThat(file.reads).containsExactly(new long[] {32, 16});
    for (long page = 32; page < 48; page++) {
      assertThat(check.isChecked(page)).as("page %d", page).isTrue();
    }
    assertThat(check.isChecked(31)).isFalse();
    assertThat(check.isChecked(48)).isFalse();
    assertThat(check.uncheckedPages()).isEqualTo(PAGES - 16);

    assertThat(check.check(40)).isTrue(); // checked by the window: no read
    assertThat(file.reads).hasSize(1);
  }

  @Test
  void afterTheFirstExactReads_checksReadThroughTheMapping() {
    for (int i = 0; i < PageCheck.EXACT_READS; i++) {
      check.check(100L * i);
    }
    int reads = file.reads.size();
    segment.memory().set(ValueLayout.JAVA_BYTE, 500L * NativeSegment.PAGE_BYTES + 7, (byte) 1);

    assertThat(check.check(450)).isTrue();
    assertThat(check.check(500)).isFalse();

    assertThat(file.reads).hasSize(reads).hasSize(PageCheck.EXACT_READS);
    assertThat(check.isChecked(451)).isFalse(); // no window through the mapping
    assertThat(check.isDamaged(500)).isTrue();
  }

  @Test
  void theLastWindow_stopsAtTheSegmentsEnd() {
    assertThat(check.check(PAGES - 1)).isTrue();

    assertThat(file.reads).containsExactly(new long[] {PAGES - 16, 16});
  }

  @Test
  void aDamagedNeighbour_staysUnchecked_untilAReadAsksForIt() {
    file.damaged.add(38L);

    assertThat(check.check(37)).isTrue();

    assertThat(check.isChecked(38)).isFalse();
    assertThat(check.isDamaged(38)).isFalse();
    assertThat(check.check(38)).isFalse();
    assertThat(check.isDamaged(38)).isTrue();
  }

  @Test
  void aNeighbourThatDiffersFromItsChecksum_canStillBeTrusted() {
    // a page a recovery after a cut checkpoint rewrites: its file bytes rightly differ
    file.damaged.add(38L);
    check.check(37);

    check.trust(38);

    assertThat(check.isChecked(38)).isTrue();
    assertThat(check.isDamaged(38)).isFalse();
  }

  @Test
  void aNeighbourCheckedDuringTheRead_isLeftAsItIs() {
    // the file changes under the read (a checkpoint rewrote page 40 after checking it)
    file.damaged.add(40L);
    file.duringRead = () -> check.trust(40);

    assertThat(check.check(37)).isTrue();

    assertThat(check.isChecked(40)).isTrue();
    assertThat(check.isDamaged(40)).isFalse();
  }

  @Test
  void aRange_isReadInOneRequest_fromItsFirstUncheckedPagesWindow_toItsLastPagesWindow() {
    check.check(2); // window 0-15

    long offset = 5L * NativeSegment.PAGE_BYTES + 100;
    long length = 200L * NativeSegment.PAGE_BYTES; // pages 5-205
    assertThat(check.checkRange(offset, length)).isEqualTo(-1);

    assertThat(file.reads).containsExactly(new long[] {0, 16}, new long[] {16, 192});
    assertThat(check.uncheckedPages()).isEqualTo(PAGES - 208);
  }

  @Test
  void aRangeLargerThanOneRead_isCheckedThroughTheMapping() {
    assertThat(check.checkRange(0, 300L * NativeSegment.PAGE_BYTES)).isEqualTo(-1);

    assertThat(file.reads).isEmpty();
    assertThat(check.isChecked(299)).isTrue();
    assertThat(check.isChecked(300)).isFalse();
  }

  @Test
  void aRange_reportsItsFirstDamagedPage_andChecksTheRest() {
    file.damaged.add(150L);
    file.damaged.add(20L);

    assertThat(check.checkRange(0, 200L * NativeSegment.PAGE_BYTES)).isEqualTo(20);

    assertThat(file.reads).containsExactly(new long[] {0, 208});
    assertThat(check.isDamaged(20)).isTrue();
    assertThat(check.isDamaged(150)).isTrue();
    assertThat(check.isChecked(199)).isTrue();
    assertThat(check.isChecked(21)).isTrue();
    assertThat(check.checkRange(150L * NativeSegment.PAGE_BYTES, 1)).isEqualTo(150);
  }

  @Test
  void aRangeAlreadyChecked_readsNothing() {
    check.checkRange(0, 64L * NativeSegment.PAGE_BYTES);
    int reads = file.reads.size();

    assertThat(check.checkRange(10L * NativeSegment.PAGE_BYTES, 40L * NativeSegment.PAGE_BYTES))
        .isEqualTo(-1);

    assertThat(file.reads).hasSize(reads);
  }

  @Test
  void everyPageChecked_dropsTheCheckFromTheSegment() {
    assertThat(segment.pageCheck()).isSameAs(check);

    assertThat(check.checkRange(0, (long) PAGES * NativeSegment.PAGE_BYTES)).isEqualTo(-1);

    assertThat(segment.pageCheck()).isNull();
  }

  /** Holds zeros but on damaged pages. Records each read as {from, count}. */
  private static final class FakeFile implements PageCheck.Source {
    static final int ZEROS = crcOfZeros();

    final List<long[]> reads = new ArrayList<>();
    final Set<Long> damaged = new HashSet<>();
    Runnable duringRead = () -> {};

    @Override
    public int[] recordedCrcs() {
      int[] crcs = new int[PAGES];
      Arrays.fill(crcs, ZEROS);
      return crcs;
    }

    @Override
    public void fileCrcs(long firstPage, int[] crcs) {
      reads.add(new long[] {firstPage, crcs.length});
      for (int i = 0; i < crcs.length; i++) {
        crcs[i] = damaged.contains(firstPage + i) ? ~ZEROS : ZEROS;
      }
      duringRead.run();
    }

    private static int crcOfZeros() {
      CRC32C crc = new CRC32C();
      crc.update(new byte[NativeSegment.PAGE_BYTES]);
      return (int) crc.getValue();
    }
  }
}
