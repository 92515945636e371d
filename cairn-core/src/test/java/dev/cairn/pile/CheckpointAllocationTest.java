package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How much Java heap a checkpoint of a small change allocates, all threads together (the pile's I/O
 * runs on pooled threads). Why it matters: the young collections that garbage brings stop every
 * writer, and checkpoints that allocated 35-63 KB each (a page list and a checksum array per
 * segment, a slot buffer per superblock write) met two 17-29 ms collections in a 5-second loop of
 * them ({@code cairn bench --latency-during-checkpoint}, where pooled threads also fixed a worse
 * waste: see {@code OwnThread}). Prints the figure; fails if it grows back past {@link
 * #MAX_BYTES_PER_ROUND}.
 */
class CheckpointAllocationTest {
  private static final int PUTS_PER_CHECKPOINT = 300;
  private static final int ROUNDS = 200;

  /** About twice what a round allocates now (20-22 KB). */
  private static final long MAX_BYTES_PER_ROUND = 48 << 10;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(
      value = Durability.class,
      names = {"NONE", "PERIODIC"})
  void aCheckpointOfAFewHundredPuts_allocatesOnlyAFewKilobytes(Durability durability)
      throws Exception {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    String[] values = new String[PUTS_PER_CHECKPOINT];
    for (int i = 0; i < values.length; i++) {
      values[i] = "value-" + i;
    }
    try (Pile pile = Pile.open(dir, PileOptions.builder().durability(durability).build())) {
      long perRound = 0;
      for (int pass = 0; pass < 3; pass++) { // the first passes load and compile the code
        long before = threads.getTotalThreadAllocatedBytes();
        for (int round = 0; round < ROUNDS; round++) {
          for (String value : values) {
            pile.put(value);
          }
          pile.checkpoint();
        }
        perRound = (threads.getTotalThreadAllocatedBytes() - before) / ROUNDS;
      }
      System.out.printf(
          "[alloc] %s: %,d bytes allocated per checkpoint of %d puts%n",
          durability, perRound, PUTS_PER_CHECKPOINT);
      assertThat(perRound).isLessThan(MAX_BYTES_PER_ROUND);
    }
  }
}
