package dev.cairn.cache.lincheck;

/**
 * One completed operation on one key of a history: what was asked, what it returned, and when it
 * was invoked and when it returned ({@link System#nanoTime}, taken by the calling thread just
 * before the call and just after it).
 *
 * <p>Values are {@code long}s, {@link #ABSENT} (0) standing for "no value" (a null result). Each
 * write writes a value no other write wrote, so that a read names the write it saw.
 *
 * @param thread the thread that ran it
 * @param kind what it was
 * @param value the value it writes (or loads), 0 if none
 * @param expected the value a compare-and-set compares with, 0 if none
 * @param result what it returned: a value or {@link #ABSENT}; 1 or 0 for true or false; for a put,
 *     1 for INSERTED and 0 for REPLACED
 * @param invokedNanos the time just before the call
 * @param respondedNanos the time just after it returned
 */
public record Operation(
    int thread,
    Kind kind,
    long value,
    long expected,
    long result,
    long invokedNanos,
    long respondedNanos) {

  /** No value: a get or a putIfAbsent that returned null. */
  public static final long ABSENT = 0;

  /** The operations of a key, as {@code CacheTable} names them. */
  public enum Kind {
    /** {@code put(k, value)}: result 1 if INSERTED, 0 if REPLACED. */
    PUT,
    /** {@code get(k)}: result the value or ABSENT. */
    GET,
    /** {@code containsKey(k)}: result 1 or 0. */
    CONTAINS,
    /** {@code remove(k)}: result 1 if it removed. */
    REMOVE,
    /** {@code remove(k, expected)}: result 1 if it removed. */
    REMOVE_IF_EQUALS,
    /** {@code putIfAbsent(k, value)}: result the value it found, or ABSENT if it put. */
    PUT_IF_ABSENT,
    /** {@code replace(k, value)}: result 1 if it replaced. */
    REPLACE,
    /** {@code replace(k, expected, value)}: result 1 if it replaced. */
    REPLACE_IF_EQUALS,
    /** {@code computeIfAbsent(k, k -> value)}: result the value it returned. */
    COMPUTE_IF_ABSENT
  }

  public Operation {
    if (respondedNanos < invokedNanos) {
      throw new IllegalArgumentException(
          "returned before invoked: " + invokedNanos + " > " + respondedNanos);
    }
  }

  /** This operation as a line of a history, times relative to {@code originNanos}. */
  public String describe(long originNanos) {
    String call =
        switch (kind) {
          case PUT -> "put(" + name(value) + ") -> " + (result == 1 ? "INSERTED" : "REPLACED");
          case GET -> "get() -> " + name(result);
          case CONTAINS -> "containsKey() -> " + (result == 1);
          case REMOVE -> "remove() -> " + (result == 1);
          case REMOVE_IF_EQUALS -> "remove(" + name(expected) + ") -> " + (result == 1);
          case PUT_IF_ABSENT -> "putIfAbsent(" + name(value) + ") -> " + name(result);
          case REPLACE -> "replace(" + name(value) + ") -> " + (result == 1);
          case REPLACE_IF_EQUALS ->
              "replace(" + name(expected) + ", " + name(value) + ") -> " + (result == 1);
          case COMPUTE_IF_ABSENT -> "computeIfAbsent(" + name(value) + ") -> " + name(result);
        };
    return String.format(
        "[%9d .. %9d ns] thread %d: %s",
        invokedNanos - originNanos, respondedNanos - originNanos, thread, call);
  }

  /** A value as a history shows it: its writer thread and its number there ({@code t2#17}). */
  public static String name(long value) {
    if (value == ABSENT) {
      return "null";
    }
    return "t" + (value >>> 32) + "#" + (value & 0xffff_ffffL);
  }
}
