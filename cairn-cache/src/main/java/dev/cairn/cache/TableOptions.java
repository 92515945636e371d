package dev.cairn.cache;

import java.time.Duration;

/**
 * How one table keeps its entries: expiry, pinning and its share of the cache's byte budget.
 *
 * @param expireAfterWrite an entry expires this long after it was last written; null for never
 * @param expireAfterAccess an entry expires this long after it was last read or written (checked to
 *     the second); null for never
 * @param pinned whether the table's entries are never evicted (they still expire)
 * @param minShare the share of the budget (0 to 1) below which the table is not evicted from while
 *     other tables hold more than theirs
 * @param maxShare the share of the budget (0 to 1) above which the table is evicted from first
 *     (shares count the table's entries, not its index, and are checked each time the cache starts
 *     evicting: one eviction may take a table an entry or two past its share; within the tables the
 *     shares allow, the cache's one policy chooses the victims)
 * @param writeTimes whether each entry keeps the time it was written, which {@link
 *     CacheTable#get(Object, java.time.Duration)} needs (a table without refuses that call). Off by
 *     default: an entry with no expiry that is not pinned is then stored without its header, 6 to 8
 *     bytes less (docs/CACHE.md, "Entries"). May be changed at a later {@link Cache#table} call; an
 *     entry written while it was off has no write time, and a get with a maximum age never returns
 *     it.
 */
public record TableOptions(
    Duration expireAfterWrite,
    Duration expireAfterAccess,
    boolean pinned,
    double minShare,
    double maxShare,
    boolean writeTimes) {

  public TableOptions {
    checkPositive("expireAfterWrite", expireAfterWrite);
    checkPositive("expireAfterAccess", expireAfterAccess);
    if (!(minShare >= 0 && minShare <= 1)
        || !(maxShare >= 0 && maxShare <= 1)
        || minShare > maxShare) {
      throw new IllegalArgumentException(
          "shares must satisfy 0 <= minShare <= maxShare <= 1:"
              + " minShare="
              + minShare
              + " maxShare="
              + maxShare);
    }
  }

  private static void checkPositive(String name, Duration d) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }

  /** No expiry, not pinned, any share, no write times. */
  public static TableOptions defaults() {
    return new TableOptions(null, null, false, 0, 1, false);
  }

  /** A builder with the defaults ({@link #defaults}). */
  public static Builder builder() {
    return new Builder();
  }

  /** Builder of {@link TableOptions}. */
  public static final class Builder {
    private Duration expireAfterWrite;
    private Duration expireAfterAccess;
    private boolean pinned;
    private double minShare;
    private double maxShare = 1;
    private boolean writeTimes;

    private Builder() {}

    /** See {@link TableOptions#expireAfterWrite}; null for never. */
    public Builder expireAfterWrite(Duration duration) {
      this.expireAfterWrite = duration;
      return this;
    }

    /** See {@link TableOptions#expireAfterAccess}; null for never. */
    public Builder expireAfterAccess(Duration duration) {
      this.expireAfterAccess = duration;
      return this;
    }

    /** See {@link TableOptions#pinned}. */
    public Builder pinned(boolean pinned) {
      this.pinned = pinned;
      return this;
    }

    /** See {@link TableOptions#minShare}. */
    public Builder minShare(double share) {
      this.minShare = share;
      return this;
    }

    /** See {@link TableOptions#maxShare}. */
    public Builder maxShare(double share) {
      this.maxShare = share;
      return this;
    }

    /** See {@link TableOptions#writeTimes}. */
    public Builder writeTimes(boolean writeTimes) {
      this.writeTimes = writeTimes;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException if an expiry is zero or negative, or the shares are not
     *     {@code 0 <= minShare <= maxShare <= 1}
     */
    public TableOptions build() {
      return new TableOptions(
          expireAfterWrite, expireAfterAccess, pinned, minShare, maxShare, writeTimes);
    }
  }
}
