package dev.cairn.cli;

import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;

/** Small persistent piles for the commands to look at. */
final class TestPiles {
  /** Small segments: a test pile costs a few files of 1 MiB, not 64 MiB each. */
  static final long SEGMENT_BYTES = 1 << 20;

  private TestPiles() {}

  static PileOptions options(Durability durability) {
    return PileOptions.builder()
        .segmentBytes(SEGMENT_BYTES)
        .durability(durability)
        .logFileBytes(1 << 20)
        .logFileCount(2)
        .build();
  }

  /** Creates a pile in {@code directory} holding {@code count} short strings, and closes it. */
  static void create(Path directory, int count) throws IOException {
    try (Pile pile = Pile.open(directory, options(Durability.NONE))) {
      for (int i = 0; i < count; i++) {
        pile.put("value-" + i);
      }
    }
  }
}
