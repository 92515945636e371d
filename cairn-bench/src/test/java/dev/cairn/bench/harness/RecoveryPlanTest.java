package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecoveryPlanTest {

  @Test
  void logGeometry_putsTheCheckpointTriggerJustBeyondTheTarget() {
    for (double gib : new double[] {0.001, 0.0078125, 0.1, 1, 2, 16}) {
      RecoveryPlan plan = RecoveryPlan.ofGibibytes(gib);
      long fileBytes = plan.logFileBytes();
      // a ring file's header is not log capacity: count it out, generously
      long capacity = (long) plan.logFileCount() * (fileBytes - 4096);
      assertThat(fileBytes % 4096).as("gib %s", gib).isZero();
      assertThat(fileBytes).as("gib %s", gib).isBetween(1L << 20, 256L << 20);
      assertThat(capacity / 4)
          .as("gib %s: trigger beyond the target", gib)
          .isGreaterThan(plan.logBytes());
      assertThat(capacity / 4)
          .as("gib %s: not wastefully beyond", gib)
          .isLessThan(plan.logBytes() + fileBytes);
    }
  }

  @Test
  void ofGibibytes_refusesSizesOutOfRange() {
    assertThatThrownBy(() -> RecoveryPlan.ofGibibytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log-gb must be positive");
    assertThatThrownBy(() -> RecoveryPlan.ofGibibytes(0.0001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log-gb must be in");
    assertThatThrownBy(() -> RecoveryPlan.ofGibibytes(17))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log-gb must be in");
  }

  @Test
  void filledLine_roundTrips_andOtherLinesAreNotIt() {
    RecoveryFiller.Filled filled = new RecoveryFiller.Filled(8_400_000, 1_977, 1_976, 42L << 40);

    assertThat(RecoveryFiller.Filled.parse(filled.line())).isEqualTo(filled);
    assertThat(RecoveryFiller.Filled.parse("WARNING: something")).isNull();
    assertThat(RecoveryFiller.Filled.parse("FILLED 1 2 x 4")).isNull();
  }
}
