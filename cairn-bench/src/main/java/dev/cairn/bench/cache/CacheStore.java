package dev.cairn.bench.cache;

/**
 * One store under the cache workload: long keys, byte[] values. Each adapter uses its library as a
 * user would for this data, and holds what it must: an on-heap map keeps its own copy of each value
 * (the caller reuses its buffer), an off-heap store copies the bytes in.
 *
 * <p>Thread-safety: every method may be called by several threads at once.
 */
interface CacheStore extends AutoCloseable {

  /** Stores {@code value} under {@code key}; the caller may reuse {@code value} once it returns. */
  void put(long key, byte[] value);

  /**
   * Copies the value of {@code key} into {@code into} (as a user reading it would get it whole).
   *
   * @return the value's length, or -1 if the store does not have the key
   */
  int get(long key, byte[] into);

  /** What {@link #get} returns for {@code value}, copied into {@code into}: its length, or -1. */
  static int copyOut(byte[] value, byte[] into) {
    if (value == null) {
      return -1;
    }
    System.arraycopy(value, 0, into, 0, value.length);
    return value.length;
  }

  /** How many entries the store holds now (approximate where the library is). */
  long size();

  @Override
  void close();
}
