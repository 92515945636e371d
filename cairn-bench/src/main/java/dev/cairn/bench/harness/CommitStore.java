package dev.cairn.bench.harness;

/**
 * A store under the {@code --commits} workload: each call stores one value as one durable commit,
 * and returns only once the value would survive a power loss. Thread-safe: every bench thread
 * commits concurrently, which lets a store share one fsync among them (group commit).
 */
interface CommitStore extends AutoCloseable {

  /**
   * Commits {@code value} (which the caller may reuse at once) as the entry of {@code thread}'s
   * {@code sequence}-th commit.
   */
  void commit(int thread, long sequence, byte[] value);

  /** Values the store holds, to check the run against; -1 if the store cannot count cheaply. */
  long valueCount();

  @Override
  void close();
}
