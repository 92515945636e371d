package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.policy.FrequencySketch;
import dev.cairn.cache.policy.TinyLfuClock;
import dev.cairn.cache.policy.simulator.SlotTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** Hits reach the policy a batch at a time, and a flush tells the rest. */
class ReadBufferTest {
  private final FrequencySketch sketch = new FrequencySketch(100_000);
  private final TinyLfuClock policy = new TinyLfuClock(new SlotTable(64, 1_000), sketch, 1_000);
  private final ReadBuffer reads = new ReadBuffer();

  private static long hash(long key) {
    long z = (key + 1_000) * 0x9E37_79B9_7F4A_7C15L; // not 0: the first increment ages block 0
    return z ^ (z >>> 31);
  }

  @Test
  void hits_reachTheSketch_whenABatchIsFull() {
    for (int key = 0; key < ReadBuffer.BATCH - 1; key++) {
      reads.add(hash(key), policy);
    }
    for (int key = 0; key < ReadBuffer.BATCH - 1; key++) {
      assertThat(sketch.frequency(hash(key))).as("key %d, batch not full", key).isZero();
    }
    reads.add(hash(ReadBuffer.BATCH - 1), policy);
    for (int key = 0; key < ReadBuffer.BATCH; key++) {
      assertThat(sketch.frequency(hash(key))).as("key %d, batch told", key).isEqualTo(1);
    }
  }

  @Test
  void flush_tellsThePartBatch_once() {
    for (int key = 0; key < 5; key++) {
      reads.add(hash(key), policy);
    }
    reads.flush(policy);
    reads.flush(policy); // nothing left: tells nothing twice
    for (int key = 0; key < 5; key++) {
      assertThat(sketch.frequency(hash(key))).as("key %d", key).isEqualTo(1);
    }
    // the next batch starts empty
    for (int i = 0; i < ReadBuffer.BATCH; i++) {
      reads.add(hash(100), policy);
    }
    assertThat(sketch.frequency(hash(100))).isEqualTo(FrequencySketch.MAX_COUNT);
    assertThat(sketch.frequency(hash(0))).isEqualTo(1);
  }

  @Test
  void batches_areEachThreadsOwn() throws Exception {
    reads.add(hash(1), policy); // this thread's batch: 1 hit
    Thread other =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (int i = 0; i < ReadBuffer.BATCH; i++) {
                    reads.add(hash(2), policy);
                  }
                });
    other.join();
    // the other thread's full batch was told; this thread's one hit waits (unless the two
    // threads' ids share a stripe, when the other thread's adds restart or fill this batch)
    assertThat(sketch.frequency(hash(2))).isBetween(1, FrequencySketch.MAX_COUNT);
    reads.flush(policy);
    assertThat(sketch.frequency(hash(1))).isLessThanOrEqualTo(1);
  }

  @Test
  void threadsSharingStripes_neverFail_andHitsStillArrive() throws Exception {
    // more threads than stripes and than cores: several threads per stripe, racing
    int threads = 40;
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long key = t;
      started.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int i = 0; i < 20_000; i++) {
                        reads.add(hash(key), policy);
                        if (i % 1_000 == 999) {
                          reads.flush(policy);
                        }
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  }));
    }
    for (Thread thread : started) {
      thread.join();
    }
    assertThat(failures).isEmpty();
    long told = 0;
    for (int t = 0; t < threads; t++) {
      told += sketch.frequency(hash(t));
    }
    assertThat(told).isGreaterThan(threads); // most keys saturated; races only lose some hits
  }
}
