package dev.cairn.cache;

import java.time.Duration;
import java.time.Instant;

/**
 * How one put keeps its entry, over the table's own options: an expiry of its own, or pinned.
 *
 * @param expireAfter the entry expires this long after the put; null for the table's rule
 * @param expireAt the entry expires at this instant; null for the table's rule
 * @param pinned whether the entry is never evicted (it still expires)
 */
public record EntryOptions(Duration expireAfter, Instant expireAt, boolean pinned) {

  public EntryOptions {
    if (expireAfter != null && expireAt != null) {
      throw new IllegalArgumentException(
          "give expireAfter or expireAt, not both: expireAfter="
              + expireAfter
              + " expireAt="
              + expireAt);
    }
    if (expireAfter != null && (expireAfter.isNegative() || expireAfter.isZero())) {
      throw new IllegalArgumentException("expireAfter must be positive: " + expireAfter);
    }
  }

  /** The entry expires {@code duration} after the put. */
  public static EntryOptions expireAfter(Duration duration) {
    return new EntryOptions(duration, null, false);
  }

  /** The entry expires at {@code instant}. */
  public static EntryOptions expireAt(Instant instant) {
    return new EntryOptions(null, instant, false);
  }

  /** The entry is never evicted. */
  public static EntryOptions pin() {
    return new EntryOptions(null, null, true);
  }

  /** These options, with the entry pinned. */
  public EntryOptions andPin() {
    return new EntryOptions(expireAfter, expireAt, true);
  }
}
