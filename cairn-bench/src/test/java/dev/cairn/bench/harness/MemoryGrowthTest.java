package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link MemoryGrowth}: the RSS growth of a load ({@code bytesPerValue}) is reported
 * only when it can be told from the JVM's own movement and is not below the store's own account;
 * the live heap's ({@code heapBytesPerValue}) only when it did not shrink. Never a negative or
 * impossible size.
 */
class MemoryGrowthTest {
  private static final int N = 2_000_000;
  private static final long MIB = 1L << 20;

  /** A pile's result with its own account, as PileStore.reportAccounting leaves it. */
  private static StoreResult pile(double allocatedBytesPerValue) {
    return new StoreResult(StoreKind.PILE)
        .put(Metric.ALLOCATED_BYTES_PER_VALUE, allocatedBytesPerValue);
  }

  @Test
  void theRunsThatPromptedTheRule_areUnreliable_belowThePilesOwnAccount() {
    // 2M Persons, 63.4 bytes allocated a value (120.9 MiB), RSS read 10.2 and -6.2 bytes a value
    for (double readPerValue : new double[] {10.2, -6.2}) {
      StoreResult result = pile(63.4);

      MemoryGrowth.rss(result, (long) (readPerValue * N), N);

      assertThat(result.get(Metric.BYTES_PER_VALUE)).isEmpty();
      assertThat(result.unreliable()).containsOnlyKeys(Metric.BYTES_PER_VALUE);
      assertThat(result.unreliable().get(Metric.BYTES_PER_VALUE))
          .startsWith("RSS grew " + (readPerValue < 0 ? "-" : ""))
          .contains("less than the 120.9 MiB the store allocated by its own account");
    }
  }

  @Test
  void aGrowthBelowThePilesOwnAccount_isUnreliable_evenAboveTheFloor() {
    StoreResult result = pile(63.4);

    MemoryGrowth.rss(result, 100 * MIB, N);

    assertThat(result.get(Metric.BYTES_PER_VALUE)).isEmpty();
    assertThat(result.unreliable().get(Metric.BYTES_PER_VALUE))
        .contains("RSS grew 100.0 MiB", "less than the 120.9 MiB the store allocated");
  }

  @Test
  void aGrowthBelowTheNoiseFloor_orNegative_isUnreliable_whateverTheAccount() {
    for (long growth : new long[] {-18 * MIB, 0, 63 * MIB}) {
      StoreResult result = pile(40); // 5,000 values: 0.2 MiB allocated

      MemoryGrowth.rss(result, growth, 5_000);

      assertThat(result.get(Metric.BYTES_PER_VALUE)).as("growth %d", growth).isEmpty();
      assertThat(result.unreliable().get(Metric.BYTES_PER_VALUE))
          .contains("less than 64 MiB", "a larger --n");
    }
  }

  @Test
  void aGrowthAboveTheFloorAndTheAccount_isReported() {
    StoreResult result = pile(63.4);

    MemoryGrowth.rss(result, 140_000_000L, N);

    assertThat(result.get(Metric.BYTES_PER_VALUE)).hasValue(70.0);
    assertThat(result.unreliable()).isEmpty();
  }

  @Test
  void aStoreWithoutAnAccount_needsOnlyTheFloor() {
    StoreResult map = new StoreResult(StoreKind.MAP);
    MemoryGrowth.rss(map, 64 * MIB, 1 << 20);
    assertThat(map.get(Metric.BYTES_PER_VALUE)).hasValue(64.0);

    StoreResult small = new StoreResult(StoreKind.MAP);
    MemoryGrowth.rss(small, 64 * MIB - 1, 1 << 20);
    assertThat(small.get(Metric.BYTES_PER_VALUE)).isEmpty();
    assertThat(small.unreliable()).containsKey(Metric.BYTES_PER_VALUE);
  }

  @Test
  void aLiveHeapThatShrank_isUnreliable_andOneThatDidNot_isReported() {
    StoreResult shrank = pile(40);
    MemoryGrowth.liveHeap(shrank, -3 * MIB, N);
    assertThat(shrank.get(Metric.HEAP_BYTES_PER_VALUE)).isEmpty();
    assertThat(shrank.unreliable().get(Metric.HEAP_BYTES_PER_VALUE))
        .contains("the live heap shrank by 3.0 MiB");

    StoreResult none = pile(40);
    MemoryGrowth.liveHeap(none, 0, N);
    assertThat(none.get(Metric.HEAP_BYTES_PER_VALUE)).hasValue(0.0);
    assertThat(none.unreliable()).isEmpty();
  }

  @Test
  void theReports_showAnUnreliableFigureAsNullAndSayWhy_neverAsANumber() {
    BenchConfig config =
        new BenchConfig(
            N,
            1,
            BenchValueKind.STRING,
            32,
            List.of(StoreKind.PILE, StoreKind.MAP),
            GetOrder.RANDOM,
            0);
    StoreResult pile = pile(40).put(Metric.PUTS_PER_SEC, 10);
    MemoryGrowth.rss(pile, -12 * MIB, N);
    StoreResult map = new StoreResult(StoreKind.MAP).put(Metric.PUTS_PER_SEC, 5);
    MemoryGrowth.rss(map, 200_000_000L, N);
    BenchReport report = new BenchReport(config, List.of(pile, map));

    String json = JsonReport.render(report);
    assertThat(json)
        .contains("\"bytesPerValue\": null", "\"bytesPerValue\": 100", "\"unreliable\": {")
        .contains("\"bytesPerValue\": \"RSS grew -12.0 MiB over the load")
        .doesNotContain("\"bytesPerValue\": -");
    // once for each store, once among the ratios (null), once for the reason
    assertThat(json.split("\"bytesPerValue\": ", -1)).hasSize(5);
    assertThat(report.ratios()).containsEntry(Metric.BYTES_PER_VALUE, null);

    String table = TableReport.render(report);
    assertThat(table)
        .containsPattern("bytes/value \\(RSS growth\\) +unreliable +100\\.0 +-")
        .contains("pile bytes/value (RSS growth): unreliable, RSS grew -12.0 MiB");
  }
}
