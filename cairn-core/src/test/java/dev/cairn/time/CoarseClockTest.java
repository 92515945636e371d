package dev.cairn.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The coarse clock: never ahead of the precise one, behind it by at most its resolution. */
class CoarseClockTest {
  @Test
  void onLinuxWithNativeAccess_itReadsTheCoarseClock() {
    // the tests run with native access (the pom's argLine), on Linux
    assertThat(CoarseClock.coarse()).isTrue();
    assertThat(CoarseClock.resolution()).isBetween(1L, 100_000_000L); // a tick: 1 to 100 ms
  }

  @Test
  void itIsNeverAheadOfThePreciseClock_andBehindItByAtMostATick() throws Exception {
    MemorySegment timespec = CoarseClock.timespec();
    long slack = CoarseClock.resolution() / 1_000_000 + 1; // ms, and a millisecond's rounding
    long seen = 0;
    long deadline = System.nanoTime() + 200_000_000L;
    int reads = 0;
    while (System.nanoTime() < deadline) {
      long before = System.currentTimeMillis();
      long coarse = CoarseClock.millis(timespec);
      long after = System.currentTimeMillis();
      assertThat(coarse).as("read %d", reads).isLessThanOrEqualTo(after);
      // behind by at most a tick (plus what a preemption between the reads adds, 50 ms)
      assertThat(before - coarse).as("lag at read %d", reads).isLessThanOrEqualTo(slack + 50);
      seen = Math.max(seen, coarse);
      reads++;
    }
    assertThat(reads).isGreaterThan(1000);
    Thread.sleep(3 * (slack + 1));
    assertThat(CoarseClock.millis(timespec)).as("moves on").isGreaterThan(seen);
  }

  @Test
  void aBufferShorterThanATimespec_isRefused() {
    assertThatThrownBy(() -> CoarseClock.millis(MemorySegment.ofArray(new long[1])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("CoarseClock.millis needs a 16-byte buffer");
  }
}
