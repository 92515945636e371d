package dev.cairn.cache;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One step of {@link CacheModelPropertyTest}'s sequences: an operation on the table, a move of the
 * clock, or something done to the cache (checkpoint, reopen, power loss). Keys are numbers ({@code
 * 2} is the key {@code "k2"}, {@code 3} the 8-byte {@code "key00003"}); values are made when the
 * step runs, unique per write ({@link CacheModelRun}), so that a read names the write it saw.
 * Records, so that jqwik shrinks them and prints them.
 */
sealed interface CacheOp {

  /** {@code get(key)}. */
  record Get(int key) implements CacheOp {}

  /** {@code get(key, maxAge)}. */
  record GetMaxAge(int key, long maxAgeMillis) implements CacheOp {}

  /** {@code getAll(keys)}. */
  record GetAll(List<Integer> keys) implements CacheOp {}

  /** {@code put(key, value)}, or with {@link EntryOptions} unless {@code options} is NONE. */
  record Put(int key, int pad, Options options) implements CacheOp {}

  /** {@code putAll} of a value for each key. */
  record PutAll(List<Integer> keys, int pad) implements CacheOp {}

  /** {@code putIfAbsent(key, value)}. */
  record PutIfAbsent(int key, int pad) implements CacheOp {}

  /** {@code replace(key, value)}. */
  record Replace(int key, int pad) implements CacheOp {}

  /** {@code replace(key, expected, value)}. */
  record ReplaceIfEquals(int key, Expect expected, int pad) implements CacheOp {}

  /** {@code remove(key)}. */
  record Remove(int key) implements CacheOp {}

  /** {@code remove(key, expected)}. */
  record RemoveIfEquals(int key, Expect expected) implements CacheOp {}

  /** {@code computeIfAbsent(key, loader)}; the loader returns null if {@code loadsNull}. */
  record ComputeIfAbsent(int key, int pad, boolean loadsNull) implements CacheOp {}

  /**
   * {@code compute(key, f)}: f makes a new value for an absent key and another for a present one,
   * or removes a present one if {@code removes}.
   */
  record Compute(int key, int pad, boolean removes) implements CacheOp {}

  /** {@code containsKey(key)}. */
  record ContainsKey(int key) implements CacheOp {}

  /** {@code touch(key)}. */
  record Touch(int key) implements CacheOp {}

  /** {@code clear()}. */
  record Clear() implements CacheOp {}

  /** A put of a value larger than the whole budget: {@link EntryTooLargeException}. */
  record PutTooLarge(int key) implements CacheOp {}

  /** The clock moves on. */
  record Advance(long millis) implements CacheOp {}

  /** {@code pile().checkpoint()} (persistent caches). */
  record Checkpoint() implements CacheOp {}

  /** A clean close and a reopen of the same directory (persistent caches). */
  record Reopen() implements CacheOp {}

  /** The simulated disk loses power in the middle of its {@code afterOps}-th next operation. */
  record PowerCut(int afterOps, long seed) implements CacheOp {}

  /** The simulated disk loses power now, between two operations. */
  record PowerLossNow(long seed) implements CacheOp {}

  /** Which value a compare-and-set compares with, chosen from what was written when it runs. */
  enum Expect {
    /** The key's value as the model has it (or its last written value). */
    CURRENT,
    /** A value the key held before its current one. */
    PREVIOUS,
    /** Another key's current value. */
    OTHER_KEY,
    /** A value nobody wrote. */
    NEVER_WRITTEN
  }

  /**
   * The {@link EntryOptions} of a put: none, an expiry after {@code millis}, or at the clock plus
   * {@code millis} (negative: already past); pinned or not.
   */
  record Options(Kind kind, long millis, boolean pin) {
    enum Kind {
      NONE,
      EXPIRE_AFTER,
      EXPIRE_AT
    }

    static final Options NONE = new Options(Kind.NONE, 0, false);

    /** The options for a put at {@code nowMillis}, or null for a plain put. */
    EntryOptions at(long nowMillis) {
      EntryOptions o =
          switch (kind) {
            case NONE -> pin ? EntryOptions.pin() : null;
            case EXPIRE_AFTER -> EntryOptions.expireAfter(Duration.ofMillis(millis));
            case EXPIRE_AT -> EntryOptions.expireAt(Instant.ofEpochMilli(nowMillis + millis));
          };
      return pin && o != null && !o.pinned() ? o.andPin() : o;
    }
  }
}
