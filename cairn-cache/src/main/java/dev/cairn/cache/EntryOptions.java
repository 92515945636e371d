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

  /**
   * The table's own expiry and pinning: a put with these is a plain {@link CacheTable#put(Object,
   * Object)}. For a caller that chooses options per put.
   */
  public static final EntryOptions TABLE_RULES = new EntryOptions(null, null, false);

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

  /**
   * The entry expires {@code duration} after the put.
   *
   * @throws IllegalArgumentException if {@code duration} is zero or negative
   */
  public static EntryOptions expireAfter(Duration duration) {
    return new EntryOptions(duration, null, false);
  }

  /**
   * The entry expires at {@code instant}. With an instant already past, the put still replaces the
   * key's value (it reports {@link PutResult#REPLACED}), and no read returns either.
   */
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
