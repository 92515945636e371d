package dev.cairn.durability.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.file.DirectoryLock;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.Superblock;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples in the javadoc of this package, run on the real file system, together as the
 * persistent pile will use them: lock, superblock, log, checkpoint, recovery.
 */
class DurabilityExamplesTest {
  private static final int TYPE_PUT = 16;

  @TempDir Path dir;

  @Test
  void superblock_example() throws IOException {
    FileLayer fs = RealFileLayer.INSTANCE;
    byte[] metadata = "segment table".getBytes(StandardCharsets.UTF_8);
    long checkpointLsn = 4096;
    try (Superblock sb = Superblock.create(fs, dir.resolve("pile.superblock"), 0, false, new byte[0])) {
      Superblock.State s = sb.write(checkpointLsn, false, metadata); // forced when it returns
      assertThat(s.epoch()).isEqualTo(2);
    }
    Superblock.State newest = Superblock.read(fs, dir.resolve("pile.superblock"));
    assertThat(newest.checkpointLsn()).isEqualTo(checkpointLsn);
    assertThat(newest.payload()).isEqualTo(metadata);
  }

  @Test
  void lifecycle_lock_log_checkpoint_recover() throws IOException {
    FileLayer fs = RealFileLayer.INSTANCE;
    LogOptions options = LogOptions.builder().fileBytes(1 << 20).fileCount(2).build();
    long end;
    try (DirectoryLock lock = DirectoryLock.acquire(dir);
        Superblock sb = Superblock.create(fs, dir.resolve("pile.superblock"), 0, false, new byte[0]);
        WriteAheadLog log = WriteAheadLog.open(fs, dir.resolve("wal"), options,
            sb.current().checkpointLsn(), (lsn, e, type, payload) -> {})) {
      assertThat(lock.isHeld()).isTrue();
      long first = log.append(TYPE_PUT, "one".getBytes(StandardCharsets.UTF_8));
      log.commit(first); // SYNC: durable when it returns
      // checkpoint: the pile forces its segments, then records where replay starts
      sb.write(log.durableLsn(), false, new byte[0]);
      log.truncateBefore(log.durableLsn());
      end = log.append(TYPE_PUT, "two".getBytes(StandardCharsets.UTF_8));
      log.commit(end);
    }
    // recovery replays from the checkpoint: only "two"
    List<String> replayed = new ArrayList<>();
    long checkpoint = Superblock.read(fs, dir.resolve("pile.superblock")).checkpointLsn();
    try (LogReader reader = LogReader.open(fs, dir.resolve("wal"))) {
      ScanResult result = reader.scan(checkpoint, (lsn, e, type, payload) ->
          replayed.add(new String(payload.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8)));
      assertThat(result.endLsn()).isEqualTo(end);
    }
    assertThat(replayed).containsExactly("two");
    try (WriteAheadLog log = WriteAheadLog.open(fs, dir.resolve("wal"), options, checkpoint,
        (lsn, e, type, payload) -> {})) {
      assertThat(log.recovery().records()).isEqualTo(1);
      assertThat(log.endLsn()).isEqualTo(end);
      MemorySegment direct = MemorySegment.ofArray(new byte[] {1, 2, 3});
      log.syncTo(log.append(TYPE_PUT, direct));
    }
  }
}
