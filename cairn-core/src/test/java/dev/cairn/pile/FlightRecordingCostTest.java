package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.process.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pile used where no flight recording runs makes no JFR event (FlightRecording): JFR's first
 * event in a JVM costs about a quarter of a second, which a restart would pay before its first get.
 * A child JVM creates a pile at SYNC (forces), checkpoints, closes it, opens it again (a recovery)
 * and gets a value, with its class loading logged: {@code jdk.jfr.Event} must never load. {@code
 * ObservabilityTest} shows the events are made once a recording runs.
 */
class FlightRecordingCostTest {
  @TempDir Path dir;

  /** The child: a pile's whole life, open to reopen, with no recording. */
  public static final class PileLife {
    public static void main(String[] args) throws IOException {
      Path directory = Path.of(args[0]);
      PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
      long pointer;
      try (Pile pile = Pile.open(directory, options)) {
        pointer = pile.put("a value");
        pile.checkpoint();
      }
      try (Pile pile = Pile.open(directory, options)) {
        System.out.println("got " + pile.get(pointer));
      }
    }
  }

  @Test
  void aPileOpenedUsedAndReopened_withoutARecording_loadsNoJfrEvent() throws Exception {
    Process child =
        new ProcessBuilder(
                ChildJvm.command(
                    PileLife.class,
                    List.of(Pile.class),
                    List.of("-Xmx128m", "--enable-native-access=ALL-UNNAMED", "-Xlog:class+load"),
                    List.of(dir.resolve("pile").toString())))
            .redirectErrorStream(true)
            .start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(out).isZero();
    assertThat(out)
        .contains("got a value")
        .contains("dev.cairn.pile.PersistentStore", "dev.cairn.pile.Checkpointer") // logged
        .doesNotContain("jdk.jfr.Event ", "dev.cairn.pile.RecoveryEvent")
        .doesNotContain(
            "dev.cairn.pile.CheckpointEvent", "dev.cairn.durability.file.FileForceEvent");
  }
}
