package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PileOptions#checkpointIntervalMillis}: a pile written to takes a checkpoint once the
 * interval has passed, however little it wrote; one not written to since its last checkpoint takes
 * none; 0 turns the time trigger off.
 */
class CheckpointIntervalTest {
  @TempDir Path dir;

  private static PileOptions options(long intervalMillis) {
    return PileOptions.builder()
        .segmentBytes(64 << 10)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(2)
        .checkpointIntervalMillis(intervalMillis)
        .build();
  }

  @Test
  void aPileWrittenTo_takesACheckpointOnceTheIntervalPassed_thenNoneWhileIdle()
      throws IOException, InterruptedException {
    try (Pile pile = Pile.open(dir.resolve("p"), options(100))) {
      long before = pile.durabilityStats().checkpoints();
      pile.put("a little"); // far from a quarter of the log
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (pile.durabilityStats().checkpoints() == before && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      DurabilityStats after = pile.durabilityStats();
      assertThat(after.checkpoints()).as("a checkpoint within 20 s").isGreaterThan(before);
      assertThat(after.lastCheckpointLsn()).isEqualTo(after.logEndLsn());
      Thread.sleep(600); // six intervals, nothing written
      assertThat(pile.durabilityStats().checkpoints())
          .as("idle: nothing to checkpoint")
          .isEqualTo(after.checkpoints());
    }
  }

  @Test
  void intervalZero_takesNoCheckpointForTimeAlone() throws IOException, InterruptedException {
    try (Pile pile = Pile.open(dir.resolve("p"), options(0))) {
      long before = pile.durabilityStats().checkpoints();
      pile.put("a little");
      Thread.sleep(600);
      DurabilityStats after = pile.durabilityStats();
      assertThat(after.checkpoints()).isEqualTo(before);
      assertThat(after.lastCheckpointLsn()).isLessThan(after.logEndLsn());
    }
  }
}
