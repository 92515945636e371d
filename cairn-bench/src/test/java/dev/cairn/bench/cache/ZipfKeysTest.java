package dev.cairn.bench.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Zipfian keys: in range, and as skewed as the distribution says. */
class ZipfKeysTest {

  @Test
  void ranks_followTheDistribution_andKeysStayInRange() {
    long n = 100_000;
    ZipfKeys zipf = new ZipfKeys(n, 0.99);
    SplittableRandom random = new SplittableRandom(42);
    int draws = 1_000_000;
    int rankZero = 0;
    int topHundred = 0;
    for (int i = 0; i < draws; i++) {
      long rank = zipf.rank(random);
      assertThat(rank).isBetween(0L, n - 1);
      rankZero += rank == 0 ? 1 : 0;
      topHundred += rank < 100 ? 1 : 0;
      assertThat(zipf.next(random)).isBetween(0L, n - 1);
    }
    double zeta = 0;
    double zetaHundred = 0;
    for (int i = 1; i <= n; i++) {
      zeta += 1 / Math.pow(i, 0.99);
      zetaHundred += i <= 100 ? 1 / Math.pow(i, 0.99) : 0;
    }
    // P(rank 0) = 1 / zeta(n); the top 100 ranks take zeta(100) / zeta(n) of the draws, within
    // what Gray et al.'s method approximates (it is exact for ranks 0 and 1 only)
    assertThat(rankZero / (double) draws)
        .isCloseTo(1 / zeta, org.assertj.core.data.Offset.offset(0.005));
    assertThat(topHundred / (double) draws)
        .isCloseTo(zetaHundred / zeta, org.assertj.core.data.Offset.offset(0.03));
  }

  @Test
  void badParameters_areRefused() {
    assertThatThrownBy(() -> new ZipfKeys(1, 0.99)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ZipfKeys(10, 1.0)).isInstanceOf(IllegalArgumentException.class);
  }
}
