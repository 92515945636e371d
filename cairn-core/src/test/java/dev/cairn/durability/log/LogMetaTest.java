package dev.cairn.durability.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.file.SuperblockLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The epoch starts kept in wal.meta: lookup and upkeep. */
class LogMetaTest {
  private static final Path FILE = Path.of("/pile/wal.meta");

  private static LogMeta meta(long epoch, byte[] payload) {
    return LogMeta.of(FILE, new Superblock.State(epoch, 0, false, payload));
  }

  /** The next open, as WriteAheadLog.open does it: recovered from {@code from} to {@code end}. */
  private static LogMeta open(LogMeta m, long from, long end) {
    return meta(m.epoch() + 1, m.next(from, end));
  }

  private static LogMeta created() {
    return meta(1, LogMeta.payload(16384, 3));
  }

  @Test
  void aNewLog_hasNoStarts_andTheFirstOpenStartsAtItsEnd() {
    assertThat(created().minEpochAt(1_000_000)).isZero();
    LogMeta first = open(created(), 0, 0);
    assertThat(first.epochs()).containsExactly(2);
    assertThat(first.starts()).containsExactly(0);
    assertThat(first.minEpochAt(0)).isEqualTo(2);
  }

  @Test
  void minEpochAt_isTheEpochOfTheLastStartAtOrBefore() {
    LogMeta m = open(open(open(created(), 0, 0), 0, 800), 0, 2000); // 2 at 0, 3 at 800, 4 at 2000
    assertThat(m.minEpochAt(0)).isEqualTo(2);
    assertThat(m.minEpochAt(799)).isEqualTo(2);
    assertThat(m.minEpochAt(800)).isEqualTo(3);
    assertThat(m.minEpochAt(1999)).isEqualTo(3);
    assertThat(m.minEpochAt(5000)).isEqualTo(4);
    assertThat(m.startOfMinEpochAt(5000)).isEqualTo(2000);
  }

  @Test
  void upkeep_dropsStartsAfterTheEnd_keepsOneBeforeTheCheckpoint_collapsesEqualStarts() {
    LogMeta m = open(open(open(created(), 0, 0), 0, 800), 0, 2000);
    // recovered from checkpoint 1000 to 1504, less than epoch 4's start (data was lost)
    LogMeta after = open(m, 1000, 1504);
    assertThat(after.epochs()).containsExactly(3, 5);
    assertThat(after.starts()).containsExactly(800, 1504);
    // recoveries that make no progress replace each other
    LogMeta again = open(after, 1000, 1504);
    assertThat(again.epochs()).containsExactly(3, 6);
    assertThat(again.starts()).containsExactly(800, 1504);
  }

  @Test
  void upkeep_boundsTheStarts_keepingTheBaseAndTheNewest() {
    LogMeta m = created();
    for (int i = 0; i < LogMeta.MAX_STARTS + 50; i++) {
      m = open(m, 0, 8L * (i + 1));
    }
    assertThat(m.starts()).hasSize(LogMeta.MAX_STARTS);
    assertThat(m.starts()[0]).isEqualTo(8);
    assertThat(m.minEpochAt(8L * (LogMeta.MAX_STARTS + 50))).isEqualTo(m.epoch());
    assertThat(LogMeta.HEADER_BYTES + LogMeta.START_BYTES * LogMeta.MAX_STARTS)
        .isLessThanOrEqualTo(SuperblockLayout.MAX_PAYLOAD_BYTES);
  }

  @Test
  void damagedPayload_isCorruptFileException() {
    byte[] payload = open(open(created(), 0, 64), 0, 128).next(0, 256);
    LogMeta fine = meta(4, payload);
    assertThat(fine.starts()).containsExactly(64, 128, 256);
    assertThatThrownBy(() -> meta(4, java.util.Arrays.copyOf(payload, payload.length - 1)))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("epoch starts");
    assertThatThrownBy(() -> meta(3, payload)) // a start with an epoch newer than the log's
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("out of order or range");
    byte[] disordered = payload.clone();
    ByteBuffer.wrap(disordered)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(LogMeta.HEADER_BYTES + LogMeta.START_BYTES + 4, 8);
    assertThatThrownBy(() -> meta(4, disordered))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("out of order or range");
  }
}
