package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ParallelLoopTest {
  private final ValueSource values = new ValueSource(BenchValueKind.BYTES, 4, 1);

  @Test
  void run_visitsEveryIndexExactlyOnce_inBothOrders() throws InterruptedException {
    for (GetOrder order : GetOrder.values()) {
      for (int threads : new int[] {1, 2, 3}) {
        int n = 10_007;
        AtomicIntegerArray visits = new AtomicIntegerArray(n);
        ParallelLoop.Outcome outcome =
            new ParallelLoop(threads, values)
                .run("test", n, order, (i, buffer) -> visits.incrementAndGet(i), Progress.NONE);
        for (int i = 0; i < n; i++) {
          assertThat(visits.get(i)).as("%s threads=%d index=%d", order, threads, i).isEqualTo(1);
        }
        assertThat(outcome.checksum()).isEqualTo(n);
        assertThat(outcome.elapsedNanos()).isPositive();
      }
    }
  }

  @Test
  void coprimeStride_isCoprimeToTheLength() {
    for (int length = 1; length < 2_000; length++) {
      int step = ParallelLoop.coprimeStride(length);
      assertThat(BigInteger.valueOf(step).gcd(BigInteger.valueOf(length)))
          .as("length=%d step=%d", length, step)
          .isEqualTo(BigInteger.ONE);
    }
  }

  @Test
  void run_rethrowsAWorkersFailure() {
    ParallelLoop loop = new ParallelLoop(2, values);
    assertThatThrownBy(
            () ->
                loop.run(
                    "test",
                    1_000,
                    GetOrder.SEQUENTIAL,
                    (i, buffer) -> {
                      if (i == 700) {
                        throw new IllegalStateException("boom at " + i);
                      }
                      return 0;
                    },
                    Progress.NONE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom at 700");
  }
}
