package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.bench.harness.CheckpointLatencyBench.CheckpointWindows;
import org.junit.jupiter.api.Test;

/** The put threads' test of whether a put overlapped a checkpoint, done without a branch. */
class CheckpointWindowsTest {

  @Test
  void aPutDueAfterTheWindowsWereMade_overlapsNothing_untilACheckpointRuns() {
    CheckpointWindows windows = new CheckpointWindows();
    long due = System.nanoTime() + 1;

    assertThat(windows.overlapIndex(due)).isZero();
    windows.running = 1;
    assertThat(windows.overlapIndex(due)).as("a checkpoint runs as it returns").isEqualTo(1);
  }

  @Test
  void aCheckpointThatEndedAfterThePutWasDue_overlapsIt_oneThatEndedBefore_doesNot() {
    CheckpointWindows windows = new CheckpointWindows();
    long due = 5_000_000_000L;

    windows.lastEndNanos = due + 1;
    assertThat(windows.overlapIndex(due)).isEqualTo(1);
    windows.lastEndNanos = due;
    assertThat(windows.overlapIndex(due)).as("ended the instant it was due").isEqualTo(1);
    windows.lastEndNanos = due - 1;
    assertThat(windows.overlapIndex(due)).isZero();
  }

  @Test
  void nanoTimesOfEitherSign_compareAsDifferences_notAsValues() {
    CheckpointWindows windows = new CheckpointWindows();
    // System.nanoTime() may be negative and may wrap: only differences mean anything
    windows.lastEndNanos = Long.MAX_VALUE;
    assertThat(windows.overlapIndex(Long.MAX_VALUE - 10)).isEqualTo(1);
    assertThat(windows.overlapIndex(Long.MIN_VALUE + 10)).as("due after a wrap").isZero();
    windows.lastEndNanos = -20;
    assertThat(windows.overlapIndex(-30)).isEqualTo(1);
    assertThat(windows.overlapIndex(-10)).isZero();
  }
}
