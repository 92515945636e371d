package dev.cairn.bench.harness;

import java.time.Duration;

/**
 * How long {@code cairn bench --commits} commits: for a fixed time, or a fixed number of commits.
 *
 * @param duration how long every thread commits, when {@code count} is 0
 * @param count commits in all, split evenly among the threads; 0 to commit for {@code duration}
 */
public record CommitPlan(Duration duration, long count) {

  public static final Duration MAX_DURATION = Duration.ofHours(1);

  /**
   * @throws IllegalArgumentException naming the rule a setting breaks, and its value
   */
  public CommitPlan {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: count=" + count);
    }
    if (count == 0
        && (duration == null
            || duration.isNegative()
            || duration.isZero()
            || duration.compareTo(MAX_DURATION) > 0)) {
      throw new IllegalArgumentException(
          "seconds must be in [1, "
              + MAX_DURATION.toSeconds()
              + "]: seconds="
              + (duration == null ? null : duration.toSeconds()));
    }
  }

  /** Commits for {@code seconds}. */
  public static CommitPlan forSeconds(int seconds) {
    return new CommitPlan(Duration.ofSeconds(seconds), 0);
  }

  /** Commits {@code count} times in all. */
  public static CommitPlan forCount(long count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be positive: count=" + count);
    }
    return new CommitPlan(Duration.ZERO, count);
  }

  /** Whether the run ends after {@link #count()} commits rather than after {@link #duration()}. */
  public boolean byCount() {
    return count > 0;
  }
}
