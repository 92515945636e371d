package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.log.LogLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a persistent pile tells an operator: its durability figures ({@link Pile#durabilityStats})
 * and its JFR events (checkpoints, recovery, slow forces), which JDK Mission Control shows beside
 * the GC's.
 */
class ObservabilityTest {
  @TempDir Path dir;

  @Test
  void durabilityStats_followTheLogAndTheCheckpoints() throws IOException {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      assertThat(pile.durabilityStats()).isEqualTo(DurabilityStats.VOLATILE);
    }
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    Path data = dir.resolve("pile");
    try (Pile pile = Pile.open(data, options)) {
      DurabilityStats opened = pile.durabilityStats();
      assertThat(opened.persistent()).isTrue();
      long end = opened.logEndLsn();
      pile.put("a value");
      DurabilityStats written = pile.durabilityStats();
      assertThat(written.logEndLsn()).isGreaterThan(end);
      assertThat(written.durableLsn())
          .as("SYNC: durable when put returns")
          .isEqualTo(written.logEndLsn());
      long checkpoints = written.checkpoints();
      pile.checkpoint();
      DurabilityStats after = pile.durabilityStats();
      assertThat(after.checkpoints()).isEqualTo(checkpoints + 1);
      assertThat(after.lastCheckpointLsn()).isEqualTo(after.logEndLsn());
    }
    try (Pile pile = Pile.open(data, options)) {
      DurabilityStats reopened = pile.durabilityStats();
      assertThat(reopened.lastCloseClean()).isTrue();
      assertThat(reopened.recordsReplayed()).isZero();
      assertThat(reopened.replayMillis()).isBetween(0L, reopened.openMillis());
    }
  }

  /**
   * After a crash the open reads the rest of the log file in which the log ends, from the 8 bytes
   * past the end's position to the file's end (the other file never held a later sequence), and
   * says how much; after a clean close it reads nothing past the end.
   */
  @Test
  void durabilityStats_sayHowMuchLogTheOpenReadPastTheEnd() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    Path data = Path.of("/pile");
    long fileBytes = 1 << 20;
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(64 << 10)
            .durability(Durability.SYNC)
            .logFileBytes(fileBytes)
            .logFileCount(2)
            .build();
    OffHeapPile pile = PersistentStore.open(disk, data, options);
    for (int i = 0; i < 100; i++) {
      pile.put("value " + i);
    }
    long end = pile.durabilityStats().logEndLsn();
    disk.processCrash();
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // its files died with the process
    }
    long dataBytes = fileBytes - LogLayout.FILE_HEADER_BYTES;
    long endOffset = LogLayout.FILE_HEADER_BYTES + end % dataBytes;
    try (OffHeapPile crashed = PersistentStore.open(disk, data, options)) {
      DurabilityStats recovered = crashed.durabilityStats();
      assertThat(recovered.lastCloseClean()).isFalse();
      assertThat(recovered.recordsReplayed()).isPositive();
      assertThat(recovered.endSearchBytes())
          .as("the rest of the file after lsn %d (offset %d)", end, endOffset)
          .isEqualTo(fileBytes - endOffset - LogLayout.ALIGNMENT);
      assertThat(recovered.endSearchMillis()).isBetween(0L, recovered.replayMillis());
    }
    try (OffHeapPile clean = PersistentStore.open(disk, data, options)) {
      assertThat(clean.durabilityStats().lastCloseClean()).isTrue();
      assertThat(clean.durabilityStats().endSearchBytes()).isZero();
    }
  }

  @Test
  void checkpointsRecoveryAndForces_areJfrEvents() throws Exception {
    Path data = dir.resolve("pile");
    Path dump = dir.resolve("events.jfr");
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    try (Recording recording = new Recording()) {
      recording.enable("dev.cairn.Checkpoint");
      recording.enable("dev.cairn.Recovery");
      recording.enable("dev.cairn.FileForce").withThreshold(Duration.ZERO); // every force
      recording.start();
      try (Pile pile = Pile.open(data, options)) {
        pile.put("durable");
        pile.checkpoint();
      }
      try (Pile pile = Pile.open(data, options)) {
        assertThat(pile.durabilityStats().persistent()).isTrue();
      }
      recording.stop();
      recording.dump(dump);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
    List<RecordedEvent> checkpoints = of(events, "dev.cairn.Checkpoint");
    assertThat(checkpoints).isNotEmpty();
    assertThat(checkpoints).anySatisfy(e -> assertThat(e.getBoolean("clean")).isTrue());
    assertThat(checkpoints.getFirst().getString("directory")).isEqualTo(data.toString());
    List<RecordedEvent> recoveries = of(events, "dev.cairn.Recovery");
    assertThat(recoveries).hasSize(2);
    assertThat(recoveries.getLast().getBoolean("lastCloseClean")).isTrue();
    assertThat(recoveries.getLast().getLong("endSearchBytes"))
        .as("a clean close's end needs no proof")
        .isZero();
    assertThat(of(events, "dev.cairn.FileForce"))
        .anySatisfy(e -> assertThat(e.getString("file")).startsWith(data.toString()));
  }

  private static List<RecordedEvent> of(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }
}
