package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read-ahead of an open: a hint that reads every header it names and changes nothing. */
class OpenReadAheadTest {

  @TempDir Path temp;

  @Test
  void readsEverySegmentHeaderAndTheLogsFiles_andChangesNothing() throws IOException {
    Path dir = temp.resolve("orders");
    Map<Long, byte[]> model = new HashMap<>();
    PileOptions options = PileDirectorySafetyTest.small().build(); // a log of 2 files
    try (Pile pile = Pile.open(dir, options)) {
      PersistentPileTest.churn(pile, model, new SplittableRandom(7), 3_000);
    }
    int[] segments;
    try (Stream<Path> files = Files.list(dir)) {
      segments =
          files.mapToInt(PileFiles::segmentIndexOf).filter(index -> index >= 0).sorted().toArray();
    }
    assertThat(segments).as("the churn made segment files").isNotEmpty();
    Map<String, String> before = PileDirectorySafetyTest.contents(dir);

    int read = OpenReadAhead.read(RealFileLayer.INSTANCE, dir, segments);

    assertThat(read)
        .as("each segment, wal.meta and the 2 log files")
        .isEqualTo(segments.length + 3);
    assertThat(PileDirectorySafetyTest.contents(dir)).isEqualTo(before);
    try (Pile pile = Pile.open(dir, options)) {
      PersistentPileTest.assertMatches(pile, model);
    }
  }

  @Test
  void filesThatAreMissing_areSkipped_andNothingIsCreated() {
    Path dir = temp.resolve("nothing-here");

    assertThat(OpenReadAhead.read(RealFileLayer.INSTANCE, dir, new int[] {0, 1, 7})).isZero();
    assertThat(dir).doesNotExist();
  }
}
