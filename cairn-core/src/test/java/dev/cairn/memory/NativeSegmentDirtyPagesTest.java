package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The dirty-page marks shared between a stripe's writers and participants' region writers
 * (NativeSegment D1-D3): marks set at once from many threads in the same word all stay, and a write
 * that races a checkpoint's clear-then-copy is in the copy or leaves its mark.
 */
class NativeSegmentDirtyPagesTest {

  private static final int PAGES = 256; // four words of marks

  @Test
  void marksSetAtOnceFromManyThreads_inTheSameWords_allStay() throws Exception {
    int threads = 4;
    for (int round = 0; round < 200; round++) {
      NativeSegment segment =
          NativeSegment.allocate(0, (long) PAGES * NativeSegment.PAGE_BYTES, false);
      try {
        segment.trackDirtyPages();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          running.add(
              Thread.ofPlatform()
                  .start(
                      () -> {
                        await(start);
                        for (int page = thread;
                            page < PAGES;
                            page += threads) { // neighbours share words
                          long offset = (long) page * NativeSegment.PAGE_BYTES;
                          if (thread == 0) {
                            segment.markDirty(offset, 8); // the owner's writer (D3)
                          } else {
                            segment.markWritten(offset, 8); // region writers
                          }
                        }
                      }));
        }
        for (Thread thread : running) {
          thread.join();
        }
        assertThat(segment.dirtyPageCount()).as("round %d", round).isEqualTo(PAGES);
      } finally {
        segment.release();
      }
    }
  }

  @Test
  void aMarkSpanningWords_setsEveryPageOfTheRange_andNoOther() {
    NativeSegment segment =
        NativeSegment.allocate(0, (long) PAGES * NativeSegment.PAGE_BYTES, false);
    try {
      segment.trackDirtyPages();
      segment.markWritten(60L * NativeSegment.PAGE_BYTES + 100, 70L * NativeSegment.PAGE_BYTES);
      assertThat(segment.nextDirtyPage(0)).isEqualTo(60);
      assertThat(segment.dirtyPageCount()).isEqualTo(71); // pages 60 to 130
      assertThat(segment.isDirty(130)).isTrue();
      assertThat(segment.isDirty(131)).isFalse();
      segment.markDirty(200L * NativeSegment.PAGE_BYTES, 1);
      segment.markAllDirty();
      assertThat(segment.dirtyPageCount()).isEqualTo(PAGES);
      for (long page = 0; page < PAGES; page++) {
        segment.clearDirty(page);
      }
      assertThat(segment.nextDirtyPage(0)).isEqualTo(-1);
    } finally {
      segment.release();
    }
  }

  /**
   * D2: a writer writes a counter into a page and marks it, over and over; a copier clears the
   * page's mark, then copies the counter, whenever it finds the page dirty. Once the writer is done
   * and the copier has taken what is still marked, the copy holds the last value: no write fell
   * between a copy and the clearing of its mark.
   */
  @Test
  void aWriteRacingTheClearThenCopy_isInTheCopyOrLeavesTheMark() throws Exception {
    int writes = 200_000;
    NativeSegment segment =
        NativeSegment.allocate(0, (long) PAGES * NativeSegment.PAGE_BYTES, false);
    try {
      segment.trackDirtyPages();
      long page = 70;
      long offset = page * NativeSegment.PAGE_BYTES;
      long[] copied = new long[1];
      Thread writer =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (long i = 1; i <= writes; i++) {
                      segment.memory().set(ValueLayout.JAVA_LONG, offset, i);
                      segment.markWritten(offset, Long.BYTES);
                    }
                  });
      while (writer.isAlive()) {
        copyIfDirty(segment, page, copied);
      }
      writer.join();
      copyIfDirty(segment, page, copied);
      assertThat(copied[0]).isEqualTo(writes);
    } finally {
      segment.release();
    }
  }

  private static void copyIfDirty(NativeSegment segment, long page, long[] copied) {
    if (segment.isDirty(page)) {
      segment.clearDirty(page);
      copied[0] = segment.memory().get(ValueLayout.JAVA_LONG, page * NativeSegment.PAGE_BYTES);
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
