package dev.cairn.durability.log;

import static dev.cairn.durability.log.DurabilityTestSupport.DIR;
import static dev.cairn.durability.log.DurabilityTestSupport.collect;
import static dev.cairn.durability.log.DurabilityTestSupport.payload;
import static dev.cairn.durability.log.DurabilityTestSupport.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.LogClosedException;
import dev.cairn.durability.LogFullException;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.log.DurabilityTestSupport.Rec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The log's behaviour without crashes: append, read back, reopen, recycle, fill, close. */
class WriteAheadLogTest {

  private static LogOptions small(LogSync mode) {
    return LogOptions.builder()
        .fileBytes(16 << 10)
        .fileCount(3)
        .bufferBytes(8 << 10)
        .mode(mode)
        .period(1, TimeUnit.MILLISECONDS)
        .build();
  }

  @Test
  void appendThenReopen_readsEveryRecordInOrder() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    List<Rec> appended = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      assertThat(log.recovery().endLsn()).isZero();
      for (int i = 0; i < 100; i++) {
        byte[] p = payload(1, i, i * 7 % 300);
        long start = log.endLsn();
        long end = log.append(16 + i % 200, p);
        appended.add(new Rec(start, end, 16 + i % 200, p));
      }
      log.syncTo(log.endLsn());
      assertThat(log.durableLsn()).isEqualTo(log.endLsn());
    }
    assertThat(scanAll(disk, DIR, 0)).containsExactlyElementsOf(appended);
    List<Rec> replayed = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(replayed))) {
      assertThat(replayed).containsExactlyElementsOf(appended);
      assertThat(log.endLsn()).isEqualTo(appended.getLast().end());
      assertThat(log.epoch()).isEqualTo(3); // created (1), first open (2), second open (3)
    }
  }

  /**
   * The first append allocates the ring, not the open: an open that only reads leaves the log as it
   * was, and threads that race to the first append all land.
   */
  @Test
  void theFirstAppendAllocatesTheRing_andAppendersRacingToItAllLand() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.PERIODIC), 0, collect(new ArrayList<>()))) {
      assertThat(log.ringAllocated()).isFalse();
    }
    int threads = 4;
    int each = 100; // 28,800 bytes of records: within the three 16 KiB files, over the 8 KiB ring
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.PERIODIC), 0, collect(new ArrayList<>()))) {
      assertThat(log.ringAllocated()).as("after a reopen with nothing appended").isFalse();
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
      List<Thread> appenders = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        int thread = t;
        appenders.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (int i = 0; i < each; i++) {
                          log.append(16 + thread, payload(thread, i, 40));
                        }
                      } catch (Exception | Error e) {
                        failures.add(e);
                      }
                    }));
      }
      for (Thread appender : appenders) {
        appender.join();
      }
      assertThat(failures).isEmpty();
      assertThat(log.ringAllocated()).isTrue();
      log.syncTo(log.endLsn());
    }
    List<Rec> records = scanAll(disk, DIR, 0);
    assertThat(records).hasSize(threads * each);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      List<byte[]> mine =
          records.stream().filter(r -> r.type() == 16 + thread).map(Rec::payload).toList();
      for (int i = 0; i < each; i++) {
        assertThat(mine.get(i)).as("thread %d record %d", t, i).isEqualTo(payload(thread, i, 40));
      }
    }
  }

  @Test
  void emptyPayload_andRecordsSpanningFilesAndTheRingEnd_roundTrip() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    List<Rec> appended = new ArrayList<>();
    LogOptions options =
        LogOptions.builder().fileBytes(8 << 10).fileCount(4).bufferBytes(4 << 10).build();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, options, 0, collect(new ArrayList<>()))) {
      for (int i = 0; i < 40; i++) {
        byte[] p = i % 5 == 0 ? new byte[0] : payload(2, i, 1000 + i * 37);
        long start = log.endLsn();
        long end = log.append(200, p);
        appended.add(new Rec(start, end, 200, p));
        log.syncTo(end);
        if (i % 3 == 2) {
          log.truncateBefore(start);
          assertThat(scanAll(disk, DIR, start)).containsExactly(appended.getLast());
        }
      }
    }
  }

  /**
   * Committers in SYNC mode may write and force their own records (syncInline). On the real file
   * layer an interrupt closes the FileChannel its thread is using; that must cost the committer
   * nothing but the shortcut, never the log. Threads commit while another interrupts them at
   * random; every commit must return, and every record must be there after reopening.
   */
  @Test
  void syncCommits_interruptedAtRandom_neverFailTheLog(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    LogOptions options =
        LogOptions.builder()
            .fileBytes(1 << 20)
            .fileCount(4)
            .bufferBytes(64 << 10)
            .mode(LogSync.ON_COMMIT)
            .build();
    int threads = 3;
    int commitsPerThread = 300;
    List<List<Rec>> appended = new ArrayList<>();
    java.util.concurrent.atomic.AtomicInteger interruptsSeen =
        new java.util.concurrent.atomic.AtomicInteger();
    try (WriteAheadLog log =
        WriteAheadLog.open(RealFileLayer.INSTANCE, dir, options, 0, collect(new ArrayList<>()))) {
      List<Thread> committers = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        List<Rec> mine = new ArrayList<>();
        appended.add(mine);
        int writer = t;
        committers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        for (int i = 0; i < commitsPerThread; i++) {
                          byte[] p = payload(writer, i, 40);
                          long end = log.append(16, p);
                          mine.add(new Rec(end - LogLayout.frameBytes(p.length), end, 16, p));
                          log.commit(end);
                          if (Thread.interrupted()) {
                            interruptsSeen.incrementAndGet();
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      java.util.SplittableRandom random = new java.util.SplittableRandom(7);
      while (committers.stream().anyMatch(Thread::isAlive)) {
        committers.get(random.nextInt(threads)).interrupt();
        Thread.sleep(0, 200_000);
      }
      for (Thread committer : committers) {
        committer.join();
      }
      assertThat(failures).isEmpty();
      assertThat(interruptsSeen.get())
          .as("the interrupts must have reached the committers")
          .isPositive();
      assertThat(log.durableLsn()).isEqualTo(log.endLsn());
    }
    List<Rec> all = new ArrayList<>();
    appended.forEach(all::addAll);
    assertThat(scanAll(RealFileLayer.INSTANCE, dir, 0)).containsExactlyInAnyOrderElementsOf(all);
  }

  @Test
  void badArguments_areRefusedWithTheRuleAndTheValues() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    LogOptions options = small(LogSync.ON_COMMIT);
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, options, 0, collect(new ArrayList<>()))) {
      assertThatThrownBy(() -> log.append(15, new byte[1]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("type must be in [16, 255]: type=15");
      assertThatThrownBy(() -> log.append(256, new byte[1]))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> log.append(16, new byte[options.maxPayloadBytes() + 1]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("maxPayloadBytes=" + options.maxPayloadBytes());
      long end = log.append(16, new byte[options.maxPayloadBytes()]);
      assertThatThrownBy(() -> log.syncTo(end + 8))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("past the end");
      assertThatThrownBy(() -> log.truncateBefore(end + 8))
          .isInstanceOf(IllegalArgumentException.class);
      log.syncTo(end);
    }
    assertThatThrownBy(() -> WriteAheadLog.open(disk, DIR, options, 3, collect(new ArrayList<>())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fullLog_throwsLogFullException_andWorksAgainAfterTruncation() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      assertThat(log.capacityBytes()).isEqualTo(3 * (16 << 10) - 3 * 4096);
      long end = 0;
      LogFullException full = null;
      while (full == null) {
        try {
          end = log.append(20, new byte[500]);
        } catch (LogFullException e) {
          full = e;
        }
      }
      assertThat(full).hasMessageContaining("truncateBefore");
      assertThat(log.remainingBytes()).isLessThan(LogLayout.frameBytes(500));
      log.syncTo(end);
      log.truncateBefore(end);
      long after = log.append(20, new byte[500]);
      log.syncTo(after);
      List<Rec> tail = scanAll(disk, DIR, end);
      assertThat(tail).hasSize(1);
      assertThat(tail.getFirst().end()).isEqualTo(after);
    }
  }

  @Test
  void concurrentAppenders_eachRecordOnceInLsnOrder_perWriterOrderKept() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    int writers = 6;
    int perWriter = 1500;
    LogOptions options =
        LogOptions.builder()
            .fileBytes(1 << 20)
            .fileCount(4)
            .bufferBytes(16 << 10)
            .mode(LogSync.ON_COMMIT)
            .build();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, options, 0, collect(new ArrayList<>()))) {
      Thread[] threads = new Thread[writers];
      for (int w = 0; w < writers; w++) {
        int writer = w;
        threads[w] =
            Thread.ofPlatform()
                .start(
                    () -> {
                      for (int i = 0; i < perWriter; i++) {
                        long end = log.append(16 + writer, payload(writer, i, i % 97));
                        if (i % 50 == 0) {
                          log.syncTo(end);
                          assertThat(log.durableLsn()).isGreaterThanOrEqualTo(end);
                        }
                      }
                    });
      }
      for (Thread t : threads) {
        t.join();
      }
    }
    List<Rec> records = scanAll(disk, DIR, 0);
    assertThat(records).hasSize(writers * perWriter);
    long[] next = new long[writers];
    long lsn = 0;
    for (Rec r : records) {
      assertThat(r.lsn()).isEqualTo(lsn);
      lsn = r.end();
      int writer = r.type() - 16;
      java.nio.ByteBuffer b =
          java.nio.ByteBuffer.wrap(r.payload()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      assertThat(b.getInt(0)).isEqualTo(writer);
      assertThat(b.getLong(4)).isEqualTo(next[writer]);
      assertThat(r.payload()).isEqualTo(payload(writer, next[writer], (int) (next[writer] % 97)));
      next[writer]++;
    }
  }

  @Test
  void awaitDurable_completesOffTheFlusher_andCommitFollowsTheMode() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      long end = log.append(16, new byte[10]);
      String thread =
          log.awaitDurable(end)
              .thenApply(l -> Thread.currentThread().getName())
              .get(10, TimeUnit.SECONDS);
      assertThat(thread).doesNotContain("flusher");
      assertThat(log.durableLsn()).isGreaterThanOrEqualTo(end);
      long second = log.append(16, new byte[10]);
      log.commit(second);
      assertThat(log.durableLsn()).isGreaterThanOrEqualTo(second);
      assertThat(log.awaitDurable(second)).isCompletedWithValue(second);
    }
  }

  @Test
  void noneMode_neverForcesOnItsOwn_butCloseDoes() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    long end;
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.NO_FORCE), 0, collect(new ArrayList<>()))) {
      end = log.append(16, new byte[10]);
      log.commit(end); // returns at once
      assertThat(log.commitAsync(end)).isCompletedWithValue(end);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (log.writtenLsn() < end && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(log.writtenLsn()).as("written within the write delay").isEqualTo(end);
      Thread.sleep(20);
      assertThat(log.durableLsn()).isZero();
      byte[] durableData =
          java.util.Arrays.copyOfRange(
              disk.durableContent(DIR.resolve(LogLayout.fileName(0))), 4096, 16 << 10);
      assertThat(java.util.Arrays.equals(durableData, new byte[durableData.length]))
          .as("no record forced yet")
          .isTrue();
    }
    assertThat(scanAll(disk, DIR, 0)).hasSize(1);
    disk.powerLoss(1);
    disk.reboot();
    assertThat(scanAll(disk, DIR, 0)).as("close forced it").hasSize(1);
  }

  @Test
  void periodicMode_forcesWithinAboutAPeriod() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.PERIODIC), 0, collect(new ArrayList<>()))) {
      long end = log.append(16, new byte[10]);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (log.durableLsn() < end && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(log.durableLsn()).isEqualTo(end);
    }
  }

  @Test
  void afterClose_appendThrowsLogClosed_andDurableWaitsReturn() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.NO_FORCE), 0, collect(new ArrayList<>()));
    long end = log.append(16, new byte[3]);
    log.close();
    log.close(); // idempotent
    assertThat(log.durableLsn()).isEqualTo(end);
    log.syncTo(end);
    assertThatThrownBy(() -> log.append(16, new byte[3])).isInstanceOf(LogClosedException.class);
    assertThat(log.toString()).contains("closed");
  }

  @Test
  void fsyncFailure_stopsAcknowledgements_forGood_withTheOriginalCause() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()));
    long first = log.append(16, new byte[3]);
    log.syncTo(first);
    disk.failNextForce(null, 5);
    long second = log.append(16, new byte[3]);
    var future = log.awaitDurable(second);
    assertThatThrownBy(() -> log.syncTo(second))
        .isInstanceOf(DurabilityFailedException.class)
        .hasRootCauseInstanceOf(IOException.class)
        .hasRootCauseMessage(
            "Input/output error (simulated fsync failure of "
                + DIR.resolve(LogLayout.fileName(0))
                + ")");
    assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(DurabilityFailedException.class);
    assertThat(log.durableLsn()).as("I11: nothing more acknowledged").isEqualTo(first);
    assertThatThrownBy(() -> log.append(16, new byte[3]))
        .isInstanceOf(DurabilityFailedException.class)
        .hasRootCauseInstanceOf(IOException.class);
    assertThatThrownBy(() -> log.syncTo(second)).isInstanceOf(DurabilityFailedException.class);
    assertThat(log.awaitDurable(second)).isCompletedExceptionally();
    log.close(); // already reported: close does not throw again
    assertThat(log.durableLsn()).isEqualTo(first);
  }

  @Test
  void writesFailingWithNoSpace_failTheLog_withAClearException() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      disk.failWritesWithNoSpace(true);
      long end = log.append(16, new byte[3]);
      assertThatThrownBy(() -> log.syncTo(end))
          .isInstanceOf(DurabilityFailedException.class)
          .hasRootCauseMessage("No space left on device");
    }
  }

  @Test
  void creatingALogOnAFullDisk_namesTheFileAndTheBytes_andRemovesWhatItMade() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    disk.setCapacityBytes(40 << 10);
    LogOptions options = small(LogSync.ON_COMMIT);
    assertThatThrownBy(() -> WriteAheadLog.open(disk, DIR, options, 0, collect(new ArrayList<>())))
        .isInstanceOf(java.nio.file.FileSystemException.class)
        .hasMessageContaining(DIR.resolve(LogLayout.fileName(2)).toString()) // the one that failed
        .hasMessageContaining(Long.toString(options.fileBytes() * options.fileCount()))
        .hasMessageContaining("No space left on device");
    assertThat(disk.exists(DIR)).as("the log's directory, made by the failed create").isFalse();
    assertThat(disk.usedBytes()).isZero();
    // with room, the interrupted creation is simply redone
    disk.setCapacityBytes(Long.MAX_VALUE);
    WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>())).close();
  }

  @Test
  void reopen_keepsTheCreatedGeometry_andEachOpenTakesANewEpoch() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>())).close();
    LogOptions other = LogOptions.builder().fileBytes(64 << 10).fileCount(7).build();
    try (WriteAheadLog log = WriteAheadLog.open(disk, DIR, other, 0, collect(new ArrayList<>()))) {
      assertThat(log.capacityBytes()).isEqualTo(3 * ((16 << 10) - 4096));
      assertThat(log.epoch()).isEqualTo(3);
    }
    try (LogReader reader = LogReader.open(disk, DIR)) {
      assertThat(reader.fileCount()).isEqualTo(3);
      assertThat(reader.epoch()).isEqualTo(3);
    }
  }

  @Test
  void missingMetaFile_withRecordsInTheLog_isRefused() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      log.syncTo(log.append(16, new byte[3]));
    }
    disk.delete(DIR.resolve(LogLayout.META_FILE_NAME));
    assertThatThrownBy(
            () ->
                WriteAheadLog.open(
                    disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>())))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("refusing to create a new log");
  }

  @Test
  void missingLogFile_isCorruptFileException_namingIt() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>())).close();
    disk.delete(DIR.resolve(LogLayout.fileName(2)));
    assertThatThrownBy(() -> LogReader.open(disk, DIR))
        .isInstanceOfSatisfying(
            CorruptFileException.class,
            e -> assertThat(e.file()).isEqualTo(DIR.resolve(LogLayout.fileName(2))))
        .hasMessageContaining("missing");
  }

  @Test
  void appendOfAnUnreadablePayload_throws_leavesAVoidRecord_andTheLogGoesOn() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    java.lang.foreign.MemorySegment closed;
    try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
      closed = arena.allocate(100);
    }
    long after;
    try (WriteAheadLog log =
        WriteAheadLog.open(disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      long before = log.append(16, new byte[] {1});
      assertThatThrownBy(() -> log.append(17, closed)).isInstanceOf(IllegalStateException.class);
      after = log.append(18, new byte[] {2});
      log.syncTo(after); // the void record did not stall the flusher
      assertThat(after - before).isEqualTo(LogLayout.frameBytes(100) + LogLayout.frameBytes(1));
    }
    List<Rec> read = scanAll(disk, DIR, 0);
    assertThat(read).extracting(Rec::type).containsExactly(16, 18);
    assertThat(read.getLast().end()).isEqualTo(after);
  }

  @Test
  void everyPayloadKind_roundTrips_andByteBufferPositionsStay() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    byte[] bytes = payload(3, 1, 50);
    java.nio.ByteBuffer heap = java.nio.ByteBuffer.wrap(bytes.clone()).position(5);
    java.nio.ByteBuffer direct =
        java.nio.ByteBuffer.allocateDirect(50).put(bytes).flip().position(7);
    try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
        WriteAheadLog log =
            WriteAheadLog.open(
                disk, DIR, small(LogSync.ON_COMMIT), 0, collect(new ArrayList<>()))) {
      java.lang.foreign.MemorySegment segment = arena.allocate(50);
      segment.copyFrom(java.lang.foreign.MemorySegment.ofArray(bytes));
      log.append(16, bytes);
      log.append(17, bytes, 10, 20);
      log.append(18, heap);
      log.append(19, direct);
      log.append(20, segment.asSlice(3, 40));
      log.append(21, segment, 12);
      log.syncTo(log.endLsn());
      assertThat(heap.position()).isEqualTo(5);
      assertThat(direct.position()).isEqualTo(7);
      assertThatThrownBy(() -> log.append(16, bytes, 45, 10))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> log.append(16, segment, 51))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> log.append(16, segment, -1))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }
    List<Rec> read = scanAll(disk, DIR, 0);
    assertThat(read)
        .extracting(Rec::payload)
        .containsExactly(
            bytes,
            java.util.Arrays.copyOfRange(bytes, 10, 30),
            java.util.Arrays.copyOfRange(bytes, 5, 50),
            java.util.Arrays.copyOfRange(bytes, 7, 50),
            java.util.Arrays.copyOfRange(bytes, 3, 43),
            java.util.Arrays.copyOfRange(bytes, 0, 12));
  }
}
