package dev.cairn.bench.harness;

/**
 * One store under measurement, addressed by value index. Implementations are thread-safe for puts
 * and gets of distinct indices, which is all the bench does.
 */
interface BenchStore extends AutoCloseable {

  /** Stores value {@code index}; the value is shared with other indices, so the store copies it. */
  void put(int index, Object value);

  /**
   * Reads value {@code index}, using {@code buffer} if the store copies, and returns its {@link
   * ValueSource#checksumOf checksum}.
   */
  long get(int index, byte[] buffer);

  /** Removes value {@code index}, which is present. */
  void delete(int index);

  /** Adds the store's own account of its memory (if it keeps one) to {@code result}. */
  void reportAccounting(StoreResult result, int n);

  /** Releases the store's memory. */
  @Override
  void close();
}
