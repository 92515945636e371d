package dev.cairn.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class FrequencySketchTest {
  private static long hash(long key) {
    long z = key * 0x9E37_79B9_7F4A_7C15L;
    return z ^ (z >>> 31);
  }

  @Test
  void frequency_countsIncrements_upToFifteen() {
    FrequencySketch sketch = new FrequencySketch(1_000);
    for (int i = 1; i <= 20; i++) {
      sketch.increment(hash(1));
      assertThat(sketch.frequency(hash(1))).isEqualTo(Math.min(i, FrequencySketch.MAX_COUNT));
    }
  }

  @Test
  void frequency_ofAKeyNeverSeen_isZeroInAFreshSketch() {
    FrequencySketch sketch = new FrequencySketch(1_000);
    assertThat(sketch.frequency(hash(42))).isZero();
  }

  @Test
  void frequency_neverUnderestimates_beforeAgeing() {
    // fewer increments than one ageing step: no counter was halved yet
    FrequencySketch sketch = new FrequencySketch(1_000);
    SplittableRandom random = new SplittableRandom(7);
    int[] counts = new int[200];
    for (int i = 0; i < sketch.incrementsPerAgeing() - 1; i++) {
      int key = random.nextInt(counts.length);
      counts[key]++;
      sketch.increment(hash(key));
    }
    for (int key = 0; key < counts.length; key++) {
      assertThat(sketch.frequency(hash(key)))
          .as("key %d", key)
          .isGreaterThanOrEqualTo(Math.min(counts[key], FrequencySketch.MAX_COUNT));
    }
  }

  @Test
  void frequency_isMostlyExact_atOneBytePerEntry() {
    // conservative update keeps collisions' inflation small: most keys read their true count
    FrequencySketch sketch = new FrequencySketch(10_000);
    for (int key = 0; key < 10_000; key++) {
      for (int i = 0; i < key % 4; i++) {
        sketch.increment(hash(key));
      }
    }
    int exact = 0;
    for (int key = 0; key < 10_000; key++) {
      if (sketch.frequency(hash(key)) == key % 4) {
        exact++;
      }
    }
    assertThat(exact).isGreaterThan(8_000);
  }

  @Test
  void ageing_halvesEveryCounter_onceAPeriod() {
    FrequencySketch sketch = new FrequencySketch(100, 512); // 8 blocks: 1,000 / 8 steps exactly
    for (int i = 0; i < 12; i++) {
      sketch.increment(hash(1));
    }
    // the period is SAMPLE_FACTOR * entries increments; its ageing steps cover every block once
    long period = sketch.incrementsPerAgeing() * sketch.blocks();
    assertThat(period).isEqualTo(FrequencySketch.SAMPLE_FACTOR * 100L);
    for (long i = 0; i < period; i++) {
      sketch.increment(hash(1_000_000 + i)); // other keys, each once
    }
    int aged = sketch.frequency(hash(1));
    assertThat(aged)
        .isBetween(
            3, 7); // 12 halved once, plus what collisions added, minus a second halving at most
  }

  @Test
  void ageing_countsTheIncrementsOfEveryThread_I5() throws Exception {
    FrequencySketch sketch = new FrequencySketch(100, 512);
    for (int i = 0; i < 12; i++) {
      sketch.increment(hash(1));
    }
    long period = sketch.incrementsPerAgeing() * sketch.blocks();
    // two threads, one after the other, each half a period: one period of increments in all
    for (int t = 0; t < 2; t++) {
      long first = 1_000_000 + t * period;
      Thread thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (long i = 0; i < period / 2; i++) {
                      sketch.increment(hash(first + i));
                    }
                  });
      thread.join();
    }
    assertThat(sketch.frequency(hash(1))).isBetween(3, 7); // halved once, as by one thread
  }

  @Test
  void incrementAll_countsAsIncrementingEachInTurn() {
    FrequencySketch batched = new FrequencySketch(1_000);
    FrequencySketch single = new FrequencySketch(1_000);
    SplittableRandom random = new SplittableRandom(11);
    long[] hashes = new long[32];
    for (int round = 0; round < 2_000; round++) { // past several ageing steps
      int count = 1 + random.nextInt(hashes.length);
      for (int i = 0; i < count; i++) {
        hashes[i] = hash(random.nextInt(3_000));
        single.increment(hashes[i]);
      }
      batched.incrementAll(hashes, 0, count);
    }
    for (int key = 0; key < 3_000; key++) {
      assertThat(batched.frequency(hash(key)))
          .as("key %d", key)
          .isEqualTo(single.frequency(hash(key)));
    }
  }

  @Test
  void incrementAll_countsOnlyTheRangeGiven() {
    FrequencySketch sketch = new FrequencySketch(1_000);
    long[] hashes = {hash(1), hash(2), hash(3), hash(4)};
    sketch.incrementAll(hashes, 1, 2);
    assertThat(sketch.frequency(hash(1))).isZero();
    assertThat(sketch.frequency(hash(2))).isEqualTo(1);
    assertThat(sketch.frequency(hash(3))).isEqualTo(1);
    assertThat(sketch.frequency(hash(4))).isZero();
  }

  @Test
  void ageing_stepTouchesOneBlock_notTheTable() {
    FrequencySketch sketch = new FrequencySketch(1 << 20);
    assertThat(sketch.blocks()).isEqualTo((1 << 20) / 64);
    assertThat(sketch.sizeBytes()).isEqualTo(1 << 20); // 1 byte per expected entry
    assertThat(sketch.incrementsPerAgeing()).isEqualTo(FrequencySketch.SAMPLE_FACTOR * 64L);
  }

  @Test
  void aSmallSketch_hasTheFloor_andALargeOne_oneBytePerEntry() {
    assertThat(new FrequencySketch(0).sizeBytes()).isEqualTo(FrequencySketch.MIN_BYTES);
    assertThat(new FrequencySketch(300).sizeBytes()).isEqualTo(FrequencySketch.MIN_BYTES);
    assertThat(new FrequencySketch(16_384).sizeBytes()).isEqualTo(FrequencySketch.MIN_BYTES);
    assertThat(new FrequencySketch(16_385).sizeBytes()).isEqualTo(2 * FrequencySketch.MIN_BYTES);
    // without the floor (the simulator's comparison): 1 byte per entry, in whole blocks
    assertThat(new FrequencySketch(300, 512).sizeBytes()).isEqualTo(512);
    assertThat(new FrequencySketch(3_000, 512).sizeBytes()).isEqualTo(4_096);
    assertThat(new FrequencySketch(0, 0).sizeBytes()).isEqualTo(64);
  }

  @Test
  void aGrownSmallSketch_keepsItsFloor() {
    FrequencySketch sketch = new FrequencySketch(10);
    sketch.ensureCapacity(20);
    assertThat(sketch.sizeBytes()).isEqualTo(FrequencySketch.MIN_BYTES);
    sketch.ensureCapacity(40_000);
    assertThat(sketch.sizeBytes()).isEqualTo(65_536);
  }

  @Test
  void ensureCapacity_keepsEveryEstimate_I2() {
    FrequencySketch sketch = new FrequencySketch(100);
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 500; i++) {
      sketch.increment(hash(random.nextInt(300)));
    }
    int[] before = new int[300];
    for (int key = 0; key < before.length; key++) {
      before[key] = sketch.frequency(hash(key));
    }
    sketch.ensureCapacity(100_000);
    assertThat(sketch.sizeBytes()).isGreaterThanOrEqualTo(100_000);
    for (int key = 0; key < before.length; key++) {
      assertThat(sketch.frequency(hash(key))).as("key %d", key).isEqualTo(before[key]);
    }
  }

  @Test
  void increments_onOtherThreads_whileTheSketchGrows_stayWithinItsTable_I4() throws Exception {
    FrequencySketch sketch = new FrequencySketch(0);
    AtomicBoolean growing = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    Thread[] readers = new Thread[3];
    for (int t = 0; t < readers.length; t++) {
      long seed = t;
      readers[t] =
          Thread.ofPlatform()
              .start(
                  () -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    try {
                      while (growing.get()) {
                        long h = hash(random.nextInt(1 << 20));
                        sketch.increment(h);
                        assertThat(sketch.frequency(h)).isBetween(0, FrequencySketch.MAX_COUNT);
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  });
    }
    for (long entries = 1; entries <= 1 << 20; entries *= 2) {
      sketch.ensureCapacity(entries); // the cache grows it under its eviction lock, readers run
    }
    growing.set(false);
    for (Thread t : readers) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(sketch.sizeBytes()).isGreaterThanOrEqualTo(1 << 20);
  }

  @Test
  void constructor_rejectsANegativeFloor() {
    assertThatThrownBy(() -> new FrequencySketch(10, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minBytes=-1");
  }

  @Test
  void constructor_rejectsANegativeSize() {
    assertThatThrownBy(() -> new FrequencySketch(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedEntries=-1");
  }
}
