package dev.cairn.cache;

import dev.cairn.cache.index.SlotLayout;
import java.time.Duration;
import java.util.Objects;

/**
 * A table's expiry arithmetic: when an entry written now expires (its own options, else the table's
 * time-to-live), the expiry hint its slot keeps, in whole seconds from the table's epoch, and
 * whether a hint has passed. Holds no entries and touches no memory; the table applies what it
 * answers (OffHeapTable's reads, writes and reaping).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Times are epoch milliseconds of the cache's clock; 0 or Long.MAX_VALUE as an expire-at time
 * means never. Sums saturate at Long.MAX_VALUE, so that a duration too long for a long is
 * "never", not a time in the past.
 *
 * A slot's hint (SlotLayout expiry): 0 for never, else ceil((expireAt - epoch) / 1000) seconds,
 * at least 1, and EXPIRY_FAR for a time past the hint's reach (never checked against the clock:
 * the entry's own expire-at time decides). Rounding up: a hint never says expired before the
 * entry is.
 *
 * Time-to-idle: the hint is the earlier of the entry's own expire-at time and now plus the
 * table's time-to-idle; a hit moves it (OffHeapTable.refreshIdle) only when it changes by a
 * second or more.
 *
 * Thread safety: the durations are volatile and replaced together by use() when the table's
 * options change; a call may see the old ones or the new ones.
 * }</pre>
 */
final class ExpiryRules {
  private final long epochMillis;
  private volatile long afterWriteMillis;
  private volatile long afterAccessMillis;

  ExpiryRules(long epochMillis, TableOptions options) {
    this.epochMillis = epochMillis;
    use(options);
  }

  /** Takes the table's time-to-live and time-to-idle from {@code options}. */
  void use(TableOptions options) {
    this.afterWriteMillis =
        options.expireAfterWrite() == null ? 0 : options.expireAfterWrite().toMillis();
    this.afterAccessMillis =
        options.expireAfterAccess() == null ? 0 : options.expireAfterAccess().toMillis();
  }

  /** Whether a hit moves the entry's expiry (the table has a time-to-idle). */
  boolean expiresAfterAccess() {
    return afterAccessMillis != 0;
  }

  /**
   * A get's maximum age in milliseconds, checked.
   *
   * @throws NullPointerException if {@code maxAge} is null
   * @throws IllegalArgumentException if it is negative
   */
  static long maxAgeMillis(Duration maxAge) {
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.isNegative()) {
      throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
    }
    return saturatedMillis(maxAge);
  }

  /**
   * When an entry written at {@code now} with {@code options} (null: none) expires by write time:
   * its own instant or duration, else the table's time-to-live; 0 for never.
   */
  long expireAt(EntryOptions options, long now) {
    if (options != null && options.expireAt() != null) {
      return Math.max(1, options.expireAt().toEpochMilli());
    }
    if (options != null && options.expireAfter() != null) {
      return saturatedAdd(now, saturatedMillis(options.expireAfter()));
    }
    return afterWriteMillis != 0 ? saturatedAdd(now, afterWriteMillis) : 0;
  }

  /**
   * Whether a write with {@code options} (null: none) reckons an expiry from the time it is
   * written: its own duration, or the table's time-to-live or time-to-idle. Such a write reads the
   * cache's clock; any other takes its write time from the coarse clock (CacheCore.writeMillis).
   */
  boolean timed(EntryOptions options) {
    return afterWriteMillis != 0
        || afterAccessMillis != 0
        || (options != null && (options.expireAt() != null || options.expireAfter() != null));
  }

  /**
   * The slot hint of an entry that expires at {@code expireAt} (0: never), written or read at
   * {@code now}: with a time-to-idle, the earlier of the two.
   */
  int hintSeconds(long expireAt, long now) {
    if (afterAccessMillis != 0) {
      long idle = saturatedAdd(now, afterAccessMillis);
      expireAt = expireAt == 0 ? idle : Math.min(expireAt, idle);
    }
    if (expireAt == 0 || expireAt == Long.MAX_VALUE) {
      return 0;
    }
    long seconds = Math.ceilDiv(expireAt - epochMillis, 1000L);
    if (seconds <= 0) {
      return 1;
    }
    return seconds >= SlotLayout.EXPIRY_FAR ? SlotLayout.EXPIRY_FAR : (int) seconds;
  }

  /** Whether a slot's meta word holds a hint the clock decides (not never, not far). */
  static boolean hasHint(long meta) {
    int expiry = SlotLayout.expiryOfMeta(meta);
    return expiry != 0 && expiry != SlotLayout.EXPIRY_FAR;
  }

  /** When a slot's hint says its entry expires: Long.MAX_VALUE for never, or past its reach. */
  long hintMillis(long meta) {
    return hasHint(meta) ? epochMillis + SlotLayout.expiryOfMeta(meta) * 1000L : Long.MAX_VALUE;
  }

  /** Whether a slot's hint says its entry expired by {@code now}. */
  boolean hintPassed(long meta, long now) {
    return hasHint(meta) && now >= epochMillis + SlotLayout.expiryOfMeta(meta) * 1000L;
  }

  private static long saturatedMillis(Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
