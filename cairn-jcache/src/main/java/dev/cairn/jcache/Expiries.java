package dev.cairn.jcache;

import dev.cairn.cache.EntryOptions;
import java.time.Instant;
import javax.cache.expiry.Duration;
import javax.cache.expiry.EternalExpiryPolicy;
import javax.cache.expiry.ExpiryPolicy;

/**
 * A cache's {@link ExpiryPolicy}, as {@link CairnJCache} asks it, and the instants its durations
 * give: an entry's expiry is stored as epoch milliseconds beside its value ({@link Marshaller}),
 * {@link Marshaller#ETERNAL} for none.
 *
 * <p>A policy that throws, or returns null, leaves the expiry as it was (CairnJCache J5): each
 * duration here is then null.
 *
 * <p>Thread-safety: as the policy's; the cache calls it from any thread.
 */
final class Expiries {
  private final ExpiryPolicy policy;
  private final boolean eternal;

  Expiries(ExpiryPolicy policy) {
    this.policy = policy;
    this.eternal = policy.getClass() == EternalExpiryPolicy.class;
  }

  /** Whether the policy is {@link EternalExpiryPolicy}: no entry ever expires (J6, J7). */
  boolean eternal() {
    return eternal;
  }

  /** The policy's duration for a new entry, or null if it throws or gives none. */
  Duration creation() {
    try {
      return policy.getExpiryForCreation();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The policy's duration for an updated entry, or null (unchanged) if it throws or gives none. */
  Duration update() {
    try {
      return policy.getExpiryForUpdate();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The policy's duration for an entry just read, or null (unchanged) if it throws or gives none.
   */
  Duration access() {
    try {
      return policy.getExpiryForAccess();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The policy itself, for the cache to close it if it is closeable. */
  ExpiryPolicy policy() {
    return policy;
  }

  /** When an entry given duration {@code d} now expires; the clock is read only if it ever does. */
  static long expireAt(Duration d) {
    if (d.isEternal()) {
      return Marshaller.ETERNAL;
    }
    return expireAt(d, System.currentTimeMillis());
  }

  /** When an entry given duration {@code d} at {@code now} expires. */
  static long expireAt(Duration d, long now) {
    if (d.isEternal()) {
      return Marshaller.ETERNAL;
    }
    if (d.isZero()) {
      return now;
    }
    long millis = d.getTimeUnit().toMillis(d.getDurationAmount());
    return millis >= Marshaller.ETERNAL - now ? Marshaller.ETERNAL - 1 : now + Math.max(1, millis);
  }

  /**
   * The table's own expiry for an entry that expires at {@code expireAt}, so that Cairn reclaims it
   * by itself; the table's rules (none) for an eternal one.
   */
  static EntryOptions options(long expireAt) {
    return expireAt == Marshaller.ETERNAL
        ? EntryOptions.TABLE_RULES
        : EntryOptions.expireAt(Instant.ofEpochMilli(expireAt));
  }
}
