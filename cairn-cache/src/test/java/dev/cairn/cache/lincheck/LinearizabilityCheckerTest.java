package dev.cairn.cache.lincheck;

import static dev.cairn.cache.lincheck.Operation.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.lincheck.Operation.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker on hand-written histories: it accepts the linearizable ones, including those that
 * need a particular order of overlapping operations, and rejects the ones that are not (so that
 * {@link CacheLinearizabilityTest} can fail).
 */
class LinearizabilityCheckerTest {
  private static final long A = (1L << 32) | 1; // thread 1's first write
  private static final long B = (2L << 32) | 1; // thread 2's first write
  private static final long C = (3L << 32) | 1;

  private static final LinearizabilityChecker STRICT =
      new LinearizabilityChecker(new RegisterModel(false));
  private static final LinearizabilityChecker EVICTING =
      new LinearizabilityChecker(new RegisterModel(true));

  private static Operation op(int thread, Kind kind, long value, long result, long from, long to) {
    return new Operation(thread, kind, value, 0, result, from, to);
  }

  private static Operation cas(
      int thread, Kind kind, long expected, long value, long result, long from, long to) {
    return new Operation(thread, kind, value, expected, result, from, to);
  }

  private static boolean strict(Operation... ops) {
    return STRICT.check(List.of(ops)).linearizable();
  }

  private static boolean evicting(Operation... ops) {
    return EVICTING.check(List.of(ops)).linearizable();
  }

  @Test
  void aSequentialHistoryThatFollowsTheRegister_isLinearizable() {
    assertThat(
            strict(
                op(1, Kind.GET, 0, ABSENT, 0, 1),
                op(1, Kind.PUT, A, 1, 2, 3),
                op(2, Kind.GET, 0, A, 4, 5),
                op(2, Kind.PUT, B, 0, 6, 7),
                op(1, Kind.CONTAINS, 0, 1, 8, 9),
                cas(1, Kind.REPLACE_IF_EQUALS, B, C, 1, 10, 11),
                cas(2, Kind.REMOVE_IF_EQUALS, B, 0, 0, 12, 13),
                op(2, Kind.REMOVE, 0, 1, 14, 15),
                op(1, Kind.PUT_IF_ABSENT, A + 1, ABSENT, 16, 17),
                op(1, Kind.COMPUTE_IF_ABSENT, A + 2, A + 1, 18, 19),
                op(2, Kind.REPLACE, B + 1, 1, 20, 21),
                op(2, Kind.GET, 0, B + 1, 22, 23)))
        .isTrue();
  }

  @Test
  void aReadOfAValueBeforeItsWriteBegan_isNot() {
    assertThat(strict(op(2, Kind.GET, 0, A, 0, 1), op(1, Kind.PUT, A, 1, 2, 3))).isFalse();
    assertThat(evicting(op(2, Kind.GET, 0, A, 0, 1), op(1, Kind.PUT, A, 1, 2, 3))).isFalse();
  }

  @Test
  void aReadOfAValueDuringItsWrite_is() {
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 10), op(2, Kind.GET, 0, A, 2, 3))).isTrue();
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 10), op(2, Kind.GET, 0, ABSENT, 2, 3))).isTrue();
  }

  @Test
  void aStaleReadAfterANewerWriteCompleted_isNot_evenWithEviction() {
    Operation[] h = {
      op(1, Kind.PUT, A, 1, 0, 1), op(1, Kind.PUT, B, 0, 2, 3), op(2, Kind.GET, 0, A, 4, 5)
    };
    assertThat(strict(h)).isFalse();
    assertThat(evicting(h)).as("an eviction never brings an old value back").isFalse();
  }

  @Test
  void aMissAfterAWriteCompleted_isAnEviction() {
    Operation[] h = {op(1, Kind.PUT, A, 1, 0, 1), op(2, Kind.GET, 0, ABSENT, 2, 3)};
    assertThat(strict(h)).isFalse();
    assertThat(evicting(h)).isTrue();
    Operation[] reinserted = {
      op(1, Kind.PUT, A, 1, 0, 1), op(1, Kind.PUT, B, 1, 2, 3), op(2, Kind.GET, 0, B, 4, 5)
    };
    assertThat(strict(reinserted)).as("INSERTED over a live value").isFalse();
    assertThat(evicting(reinserted)).isTrue();
  }

  @Test
  void aValueNobodyWrote_isNeverRead() {
    assertThat(evicting(op(1, Kind.PUT, A, 1, 0, 1), op(2, Kind.GET, 0, C, 2, 3))).isFalse();
  }

  @Test
  void putResults_mustMatchThePresenceOfAValue() {
    assertThat(strict(op(1, Kind.PUT, A, 0, 0, 1))).as("REPLACED nothing").isFalse();
    assertThat(evicting(op(1, Kind.PUT, A, 0, 0, 1))).as("even with evictions").isFalse();
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 1), op(2, Kind.PUT, B, 1, 2, 3))).isFalse();
  }

  @Test
  void twoOverlappingPutIfAbsents_cannotBothInsert() {
    assertThat(
            strict(
                op(1, Kind.PUT_IF_ABSENT, A, ABSENT, 0, 10),
                op(2, Kind.PUT_IF_ABSENT, B, ABSENT, 1, 11)))
        .isFalse();
    assertThat(
            strict(
                op(1, Kind.PUT_IF_ABSENT, A, ABSENT, 0, 10),
                op(2, Kind.PUT_IF_ABSENT, B, A, 1, 11)))
        .isTrue();
  }

  @Test
  void compareAndSet_succeedsOnlyOnTheExpectedValue() {
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 1), cas(2, Kind.REPLACE_IF_EQUALS, C, B, 1, 2, 3)))
        .isFalse();
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 1), cas(2, Kind.REPLACE_IF_EQUALS, A, B, 0, 2, 3)))
        .as("failed although it held the expected value")
        .isFalse();
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 1), cas(2, Kind.REMOVE_IF_EQUALS, A, 0, 1, 2, 3)))
        .isTrue();
    assertThat(evicting(op(1, Kind.PUT, A, 1, 0, 1), cas(2, Kind.REPLACE_IF_EQUALS, A, B, 0, 2, 3)))
        .as("the value may have been evicted")
        .isTrue();
  }

  @Test
  void computeIfAbsent_returnsTheValueThereOrStoresItsOwn() {
    assertThat(strict(op(1, Kind.PUT, A, 1, 0, 1), op(2, Kind.COMPUTE_IF_ABSENT, B, B, 2, 3)))
        .as("loaded over a live value")
        .isFalse();
    assertThat(
            strict(
                op(1, Kind.PUT, A, 0, 0, 5), // REPLACED: the load came first
                op(2, Kind.COMPUTE_IF_ABSENT, B, B, 1, 3),
                op(3, Kind.GET, 0, A, 6, 7)))
        .as("the load linearizes before the overlapping put")
        .isTrue();
  }

  /**
   * Three writes overlap and three later reads pin their order: the search must find the one order
   * that explains it, and refuse when the reads contradict each other.
   */
  @Test
  void overlappingWrites_areOrderedByLaterReads() {
    List<Operation> h = new ArrayList<>();
    h.add(op(1, Kind.PUT, A, 1, 0, 100));
    h.add(op(2, Kind.PUT, B, 0, 10, 110));
    h.add(op(3, Kind.PUT, C, 0, 20, 120));
    h.add(op(1, Kind.GET, 0, B, 130, 140));
    assertThat(STRICT.check(h).linearizable()).as("B written last").isTrue();
    h.add(op(2, Kind.GET, 0, C, 150, 160));
    assertThat(STRICT.check(h).linearizable()).as("then C: no write between the reads").isFalse();
  }

  /**
   * Six threads of seven writes each, overlapping their neighbours', then reads: the memoized
   * search decides both ways (a refusal explores every order the times allow).
   */
  @Test
  void aLongConcurrentHistory_isDecided() {
    List<Operation> h = new ArrayList<>();
    for (int t = 1; t <= 6; t++) {
      for (int i = 0; i < 7; i++) {
        long v = ((long) t << 32) | (i + 1);
        long from = i * 100L + t * 10L; // each thread's writes one after another
        h.add(op(t, Kind.PUT, v, i == 0 && t == 1 ? 1 : 0, from, from + 90));
      }
    }
    h.add(op(1, Kind.GET, 0, (4L << 32) | 7, 2_000, 2_001));
    LinearizabilityChecker.Result yes = STRICT.check(h);
    assertThat(yes.linearizable()).isTrue();
    h.add(op(2, Kind.GET, 0, (5L << 32) | 7, 3_000, 3_001));
    LinearizabilityChecker.Result no = STRICT.check(h);
    assertThat(no.linearizable()).isFalse();
    assertThat(no.longestPrefix()).isEqualTo(h.size() - 1);
  }
}
