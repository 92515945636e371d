package dev.cairn.cli.bench;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileStats;

/**
 * The pile, with default options, as a caller would open it. Pointers go into a {@code long[n]}
 * made before the measured load, as the caller's own index: it is 8 bytes a value of heap that
 * is not counted against the pile, and a single array that adds nothing for the GC to trace.
 */
final class PileStore implements BenchStore {
  private final Pile pile = Pile.offHeap(PileOptions.defaults());
  private final long[] pointers;

  PileStore(int n) {
    pointers = new long[n];
  }

  @Override
  public void put(int index, Object value) {
    pointers[index] = pile.put(value);
  }

  @Override
  public long get(int index, byte[] buffer) {
    // the allocation-free read: copy into the thread's reused buffer
    int length = pile.getBytes(pointers[index], buffer, 0);
    return ValueSource.checksumOf(buffer, length);
  }

  @Override
  public void delete(int index) {
    pile.delete(pointers[index]);
  }

  @Override
  public void reportAccounting(StoreResult result, int n) {
    PileStats stats = pile.stats();
    result.put(Metric.CAPACITY_BYTES_PER_VALUE, (double) stats.capacityBytes() / n);
    result.put(Metric.ALLOCATED_BYTES_PER_VALUE, (double) stats.allocatedBytes() / n);
  }

  @Override
  public void close() {
    pile.close();
  }
}
