package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
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
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .stripes(2)
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(3)
            .build();
    try (Pile pile = Pile.open(dir, options)) {
      PersistentPileTest.churn(pile, model, new SplittableRandom(7), 3_000);
    }
    int[] segments;
    try (Stream<Path> files = Files.list(dir)) {
      segments =
          files.mapToInt(PileFiles::segmentIndexOf).filter(index -> index >= 0).sorted().toArray();
    }
    assertThat(segments).as("the churn made segment files").isNotEmpty();
    Map<String, String> before = contents(dir);

    int read = OpenReadAhead.read(RealFileLayer.INSTANCE, dir, segments);

    assertThat(read)
        .as("each segment, wal.meta and the 3 log files")
        .isEqualTo(segments.length + 4);
    assertThat(contents(dir)).isEqualTo(before);
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

  private static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> result = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.toList()) {
        result.put(
            dir.relativize(path).toString(),
            Files.isDirectory(path) ? "dir" : HexFormat.of().formatHex(Files.readAllBytes(path)));
      }
    }
    return result;
  }
}
