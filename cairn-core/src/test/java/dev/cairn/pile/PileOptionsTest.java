package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log's default geometry, which depends on the durability, and what overrides it. */
class PileOptionsTest {
  private static final long MIB = 1L << 20;

  @Test
  void syncLog_defaultsToFourFilesOf64MiB() {
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    assertThat(options.logFileBytes()).isEqualTo(64 * MIB);
    assertThat(options.logFileCount()).isEqualTo(4);
  }

  @Test
  void periodicLog_defaultsToSixteenFilesOf64MiB_aGibibyteInFilesThatBoundTheCrashProof() {
    PileOptions options = PileOptions.builder().durability(Durability.PERIODIC).build();
    assertThat(options.logFileBytes()).isEqualTo(64 * MIB);
    assertThat(options.logFileCount()).isEqualTo(16);
    assertThat(options.logFileBytes() * options.logFileCount()).isEqualTo(1024 * MIB);
  }

  @Test
  void aFileSizeSet_keepsFourFiles_soThatTheLogIsFourTimesIt() {
    PileOptions options =
        PileOptions.builder().durability(Durability.PERIODIC).logFileBytes(4 * MIB).build();
    assertThat(options.logFileBytes()).isEqualTo(4 * MIB);
    assertThat(options.logFileCount()).isEqualTo(4);
  }

  @Test
  void aFileCountSet_isKept_withTheDurabilitysFileSize() {
    PileOptions options =
        PileOptions.builder().durability(Durability.PERIODIC).logFileCount(3).build();
    assertThat(options.logFileBytes()).isEqualTo(64 * MIB);
    assertThat(options.logFileCount()).isEqualTo(3);
  }

  @Test
  void aFileCountOfZero_isRefused_notTakenForTheDefault() {
    assertThatThrownBy(() -> PileOptions.builder().logFileCount(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("logFileCount must be in [2, 10000]: logFileCount=0");
  }

  @Test
  void checkpointInterval_defaultsToFiveMinutes_zeroIsNone_negativeIsRefused() {
    assertThat(PileOptions.defaults().checkpointIntervalMillis()).isEqualTo(300_000);
    assertThat(PileOptions.builder().checkpointIntervalMillis(0).build().checkpointIntervalMillis())
        .isZero();
    assertThatThrownBy(() -> PileOptions.builder().checkpointIntervalMillis(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "checkpointIntervalMillis must be 0 (none) or positive: checkpointIntervalMillis=-1");
  }

  @Test
  void aPeriodicPile_createsItsSixteenLogFiles(@TempDir Path dir) throws IOException {
    Path pileDir = dir.resolve("pile");
    try (Pile pile =
        Pile.open(pileDir, PileOptions.builder().durability(Durability.PERIODIC).build())) {
      pile.put(new byte[] {1, 2, 3});
    }
    List<Path> logFiles;
    try (Stream<Path> files = Files.list(pileDir.resolve(PileFiles.LOG_DIRECTORY))) {
      logFiles = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
    }
    assertThat(logFiles).hasSize(16);
    for (Path f : logFiles) {
      assertThat(Files.size(f)).as("%s", f).isEqualTo(64 * MIB);
    }
  }
}
