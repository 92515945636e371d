package dev.cairn.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StripedCountsTest {
  @Test
  void sum_addsEveryThreadsCounts() throws Exception {
    StripedCounts counts = new StripedCounts();
    for (int t = 1; t <= 4; t++) {
      long n = t * 1_000L;
      Thread thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (long i = 0; i < n; i++) {
                      counts.add(StripedCounts.stripe(), 1);
                    }
                  });
      thread.join(); // one at a time: exact even where two share a stripe
    }
    assertThat(counts.sum()).isEqualTo(10_000);
  }

  @Test
  void aStripe_keepsItsOwnCount() {
    StripedCounts counts = new StripedCounts();
    assertThat(counts.add(3, 5)).isEqualTo(5);
    assertThat(counts.add(3, -2)).isEqualTo(3);
    counts.set(7, 40);
    assertThat(counts.get(3)).isEqualTo(3);
    assertThat(counts.get(7)).isEqualTo(40);
    assertThat(counts.get(0)).isZero();
    assertThat(counts.sum()).isEqualTo(43);
  }

  @Test
  void reset_zeroesEveryStripe() {
    StripedCounts counts = new StripedCounts();
    for (int stripe = 0; stripe < StripedCounts.STRIPES; stripe++) {
      counts.add(stripe, stripe + 1);
    }
    counts.reset();
    assertThat(counts.sum()).isZero();
  }

  @Test
  void stripe_isWithinRange_andTheSameForOneThread() {
    int stripe = StripedCounts.stripe();
    assertThat(stripe).isBetween(0, StripedCounts.STRIPES - 1).isEqualTo(StripedCounts.stripe());
  }
}
