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
 * The examples in the javadoc of this package, run on the real file system, and then together as
 * the persistent pile uses them: lock, superblock, log, checkpoint, recovery.
 *
 * <p>The javadoc shows the examples from here: each {@code @start region} below is what a {@code
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=...}} displays (javadoc
 * finds this file through {@code --snippet-path src/test/java}, set in cairn-core's pom). A region
 * holds whole statements, exactly as displayed; the test checks after it what the example's
 * comments promise. The placeholders of the examples ({@code replay}, {@code TYPE_PUT}, {@code
 * checkpointLsn}) are defined here.
 */
class DurabilityExamplesTest {
  private static final int TYPE_PUT = 16;

  @TempDir Path dir;

  private final List<String> replayed = new ArrayList<>();

  /** What the examples' replay callbacks do: remember the payload. */
  private void replay(int type, MemorySegment payload) {
    assertThat(type).isEqualTo(TYPE_PUT);
    replayed.add(new String(payload.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
  }

  /** Creates a log in {@code dir} with small files: the examples' default geometry is 256 MiB. */
  private void createSmallLog() throws IOException {
    try (WriteAheadLog log =
        WriteAheadLog.open(
            RealFileLayer.INSTANCE,
            dir,
            LogOptions.builder().fileBytes(1 << 20).fileCount(2).build(),
            0,
            (lsn, end, type, payload) -> {})) {
      log.syncTo(log.endLsn());
    }
  }

  @Test
  // the example names what each call returns, as a reader would write it
  @SuppressWarnings("UnusedVariable")
  void superblock_example() throws IOException {
    byte[] metadata = "segment table".getBytes(StandardCharsets.UTF_8);
    long checkpointLsn = 4096;
    // @start region="superblock"
    FileLayer fs = RealFileLayer.INSTANCE;
    Path file = dir.resolve("pile.superblock");
    try (Superblock sb = Superblock.create(fs, file, 0, false, new byte[0])) {
      Superblock.State s = sb.write(checkpointLsn, false, metadata); // forced when it returns
    }
    Superblock.State newest = Superblock.read(fs, file);
    // @end
    assertThat(newest.epoch()).isEqualTo(2);
    assertThat(newest.checkpointLsn()).isEqualTo(checkpointLsn);
    assertThat(newest.payload()).isEqualTo(metadata);
  }

  @Test
  @SuppressWarnings("try") // the example holds the lock for the length of its block
  void directoryLock_example() throws IOException {
    // @start region="directory-lock"
    try (DirectoryLock lock = DirectoryLock.acquire(dir)) {
      // sole owner of dir until close
    }
    // @end
    try (DirectoryLock again = DirectoryLock.acquire(dir)) {
      assertThat(again.isHeld()).as("released by close").isTrue();
    }
  }

  @Test
  void logOptions_example() {
    // @start region="log-options"
    LogOptions options =
        LogOptions.builder()
            .fileBytes(64L << 20) // 64 MiB per log file (the default)
            .fileCount(4) // 4 files: 256 MiB of log between checkpoints
            .mode(LogSync.ON_COMMIT) // commit() waits for the force (the default)
            .build();
    // @end
    assertThat(options).isEqualTo(LogOptions.defaults());
  }

  @Test
  void writeAheadLog_then_logReader_examples() throws IOException {
    createSmallLog();
    long checkpointLsn = 0;
    long c = 0;
    byte[] payload = "one".getBytes(StandardCharsets.UTF_8);
    // @start region="write-ahead-log"
    try (WriteAheadLog log =
        WriteAheadLog.open(
            RealFileLayer.INSTANCE,
            dir,
            LogOptions.defaults(),
            checkpointLsn,
            (lsn, end, type, record) -> replay(type, record))) {
      long end = log.append(TYPE_PUT, payload); // buffered; returns the record's end LSN
      log.commit(end); // SYNC mode: returns once the record is durable
      // ... after a checkpoint at LSN c is durable in the superblock:
      log.truncateBefore(c); // the files before c can be reused
    }
    // @end
    assertThat(replayed).as("a new log has nothing to replay").isEmpty();
    readLog(checkpointLsn);
    assertThat(replayed).as("the record committed above").containsExactly("one");
  }

  // the example names what each call returns, as a reader would write it
  @SuppressWarnings("UnusedVariable")
  private void readLog(long checkpointLsn) throws IOException {
    // @start region="log-reader"
    try (LogReader reader = LogReader.open(RealFileLayer.INSTANCE, dir)) {
      ScanResult result =
          reader.scan(checkpointLsn, (lsn, end, type, payload) -> replay(type, payload));
      // result.endLsn(): where the log continues; result.endReason(): what was there
    }
    // @end
  }

  @Test
  void lifecycle_lock_log_checkpoint_recover() throws IOException {
    FileLayer fs = RealFileLayer.INSTANCE;
    LogOptions options = LogOptions.builder().fileBytes(1 << 20).fileCount(2).build();
    long end;
    try (DirectoryLock lock = DirectoryLock.acquire(dir);
        Superblock sb =
            Superblock.create(fs, dir.resolve("pile.superblock"), 0, false, new byte[0]);
        WriteAheadLog log =
            WriteAheadLog.open(
                fs,
                dir.resolve("wal"),
                options,
                sb.current().checkpointLsn(),
                (lsn, e, type, payload) -> {})) {
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
      ScanResult result =
          reader.scan(
              checkpoint,
              (lsn, e, type, payload) ->
                  replayed.add(
                      new String(payload.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8)));
      assertThat(result.endLsn()).isEqualTo(end);
    }
    assertThat(replayed).containsExactly("two");
    try (WriteAheadLog log =
        WriteAheadLog.open(
            fs, dir.resolve("wal"), options, checkpoint, (lsn, e, type, payload) -> {})) {
      assertThat(log.recovery().records()).isEqualTo(1);
      assertThat(log.endLsn()).isEqualTo(end);
      MemorySegment direct = MemorySegment.ofArray(new byte[] {1, 2, 3});
      log.syncTo(log.append(TYPE_PUT, direct));
    }
  }
}
