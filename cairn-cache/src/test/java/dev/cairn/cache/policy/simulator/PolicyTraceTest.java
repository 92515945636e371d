package dev.cairn.cache.policy.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.cache.policy.TinyLfuClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every trace of {@code src/test/resources/traces} at its four sizes through the policy
 * (over {@link SlotTable}, entries of size 1, a budget of SIZE), LRU and FIFO, prints the table of
 * docs/CACHE-POLICY.md, and checks the policy against Caffeine's reference figures from the traces'
 * README.
 *
 * <p>Tolerance: {@value #TOLERANCE_POINTS} points below Caffeine at every point (measured: at most
 * 1.81 below, lirs-multi2 at 284; at or above Caffeine at 23 of the 44). Without the probation
 * grace (TinyLfuClock.GRACE_MIN_SKETCH_BYTES_PER_ENTRY), four points were 2.8 to 4.1 below: see
 * ProbationGraceReport. Caffeine's own runs move by up to 1.5 points from one run to the next on
 * the small LIRS traces (its admission is randomly seeded). The replay is deterministic (fixed
 * hashes and seed), so a failure is a real change.
 *
 * <p>The whole trace is replayed, cache2k-orm-night's 5 million references included: the simulator
 * does about 20 million references a second, so all 44 runs of three policies take a few seconds.
 */
class PolicyTraceTest {
  static final double TOLERANCE_POINTS = 2.0;

  /** Loop- and scan-heavy traces, where a frequency-aware policy must beat recency. */
  static final Set<String> SCAN_AND_LOOP =
      Set.of("lirs-loop", "lirs-gli", "cache2k-orm-night", "cache2k-web12");

  static Stream<Arguments> traces() {
    return ReferenceFigures.all().stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void hitRatio_atEachSize_isNearCaffeinesAndScanResistant(ReferenceFigures row) {
    Trace trace = Trace.load(row.trace());
    assertThat(trace.length()).as("references").isEqualTo(row.references());
    assertThat(trace.distinct()).as("distinct keys").isEqualTo(row.distinct());
    List<String> failures = new ArrayList<>();
    double oursTotal = 0;
    double lruTotal = 0;
    double fifoTotal = 0;
    for (int i = 0; i < 4; i++) {
      long size = row.sizes()[i];
      double caffeine = row.caffeinePercent()[i];
      ClockSimulation sim =
          new ClockSimulation("ours", size, size, trace.distinct(), TinyLfuClock.Options.DEFAULT);
      double ours = Simulator.hitPercent(trace, sim);
      sim.validate();
      double oneByte = Simulator.hitPercent(trace, oneBytePerEntry(size, trace));
      double lru = Simulator.hitPercent(trace, LinkedPolicy.lru(size, trace.distinct()));
      double fifo = Simulator.hitPercent(trace, LinkedPolicy.fifo(size, trace.distinct()));
      oursTotal += ours;
      lruTotal += lru;
      fifoTotal += fifo;
      System.out.printf(
          Locale.ROOT,
          "| %s | %,d | %.2f | %.2f | %+.2f | %.2f | %.2f | %.2f |%n",
          row.trace(),
          size,
          ours,
          caffeine,
          ours - caffeine,
          oneByte,
          lru,
          fifo);
      if (ours < caffeine - TOLERANCE_POINTS) {
        failures.add(
            String.format(
                Locale.ROOT,
                "size %d: %.2f%% is more than %.1f points below Caffeine's %.2f%%",
                size,
                ours,
                TOLERANCE_POINTS,
                caffeine));
      }
      // where Caffeine beats recency, so must we
      if (SCAN_AND_LOOP.contains(row.trace()) && caffeine > Math.max(lru, fifo) + 1) {
        if (ours <= Math.max(lru, fifo)) {
          failures.add(
              String.format(
                  Locale.ROOT,
                  "size %d: %.2f%% does not beat LRU %.2f%% and FIFO %.2f%%",
                  size,
                  ours,
                  lru,
                  fifo));
        }
      }
    }
    if (SCAN_AND_LOOP.contains(row.trace())) {
      assertThat(oursTotal / 4)
          .as("%s: mean hit ratio over the four sizes vs LRU's and FIFO's", row.trace())
          .isGreaterThan(lruTotal / 4)
          .isGreaterThan(fifoTotal / 4);
    }
    assertThat(failures).as(row.trace()).isEmpty();
  }

  /**
   * Over all 44 points, the policy's mean hit ratio is at least Caffeine's (measured: 0.31 points
   * above). With 1 byte of sketch per entry at every size, as a cache of more than 16,384 entries
   * has, it is 0.93 points below: the floor of the sketch is what lifts the small sizes of the
   * traces (FrequencySketch, Size), and this test holds it there.
   */
  @Test
  void meanHitRatio_overEveryTraceAndSize_isAtLeastCaffeines() {
    double difference = 0;
    int points = 0;
    for (ReferenceFigures row : ReferenceFigures.all()) {
      Trace trace = Trace.load(row.trace());
      for (int i = 0; i < 4; i++) {
        long size = row.sizes()[i];
        double ours =
            Simulator.hitPercent(
                trace,
                new ClockSimulation(
                    "ours", size, size, trace.distinct(), TinyLfuClock.Options.DEFAULT));
        difference += ours - row.caffeinePercent()[i];
        points++;
      }
    }
    System.out.printf(
        Locale.ROOT,
        "mean over %d points: %+.3f points against Caffeine%n",
        points,
        difference / points);
    assertThat(points).isEqualTo(44);
    assertThat(difference / points).isGreaterThanOrEqualTo(0.0);
  }

  /** The policy with 1 byte of sketch per entry at every size (no 16 KiB floor). */
  static ClockSimulation oneBytePerEntry(long size, Trace trace) {
    return new ClockSimulation(
        "one byte", size, size, trace.distinct(), TinyLfuClock.Options.DEFAULT, ONE_BYTE_FLOOR);
  }

  /** A sketch floor of 8 blocks: 1 byte per entry from 512 entries up. */
  static final long ONE_BYTE_FLOOR = 512;

  /**
   * Byte-weighted entries (log-uniform 16 B to 4 KiB): the budget holds after every insert's
   * evictions (ClockSimulation checks it, I3), exceeds it before them by at most the entry just
   * stored (a pinned-free cache never stays over), and the totals match the slots at the end (I1).
   * Weights must not break the policy: its hit ratio stays within 5 points of its own with unit
   * sizes at the same number of entries.
   */
  @Test
  void byteWeighted_budgetHolds_andTotalsMatchTheSlots() {
    long seed = 0x5EED_B17E5L;
    System.out.println("byteWeighted seed=" + seed);
    for (String name : List.of("cache2k-web12", "lirs-multi2", "lirs-sprite", "lirs-loop")) {
      Trace trace = Trace.load(name);
      long[] sizes = Simulator.randomSizes(trace.distinct(), 16, 4096, seed);
      long meanBytes = 0;
      for (long size : sizes) {
        meanBytes += size;
      }
      meanBytes /= sizes.length;
      long entries = ReferenceFigures.of(name).sizes()[2];
      long budget = entries * meanBytes;
      ClockSimulation sim =
          new ClockSimulation(
              "ours", budget, entries, trace.distinct(), TinyLfuClock.Options.DEFAULT);
      Simulator.Result ours = Simulator.replay(trace, sim, sizes);
      sim.validate();
      Simulator.Result lru =
          Simulator.replay(trace, LinkedPolicy.lru(budget, trace.distinct()), sizes);
      double unit =
          Simulator.hitPercent(
              trace,
              new ClockSimulation(
                  "unit", entries, entries, trace.distinct(), TinyLfuClock.Options.DEFAULT));
      System.out.printf(
          Locale.ROOT,
          "byte-weighted %s budget=%d B (%d entries of the mean %d B): hits %.2f%% (LRU %.2f%%,"
              + " unit sizes %.2f%%), byte hits %.2f%% (LRU %.2f%%), most over budget before"
              + " eviction %d B%n",
          name,
          budget,
          entries,
          meanBytes,
          ours.hitPercent(),
          lru.hitPercent(),
          unit,
          ours.byteHitPercent(),
          lru.byteHitPercent(),
          sim.maxOverBudgetBytes());
      assertThat(sim.usedBytes()).isLessThanOrEqualTo(budget);
      assertThat(sim.maxOverBudgetBytes()).isLessThanOrEqualTo(4096);
      assertThat(ours.hitPercent()).as(name).isCloseTo(unit, within(5.0));
    }
  }
}
