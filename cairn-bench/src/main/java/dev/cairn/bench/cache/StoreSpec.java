package dev.cairn.bench.cache;

import dev.cairn.pile.Durability;
import java.nio.file.Path;

/**
 * How one store is opened for a run.
 *
 * @param entries the keys the run uses, 0 to entries - 1: a hint only for the stores that need one
 *     (Chronicle Map sizes itself by it; the others get none)
 * @param valueBytes the length of every value
 * @param budgetBytes the store's bound in bytes, or 0 for none
 * @param directory where a persistent store keeps its files, or null for a volatile one
 * @param durability a persistent Cairn cache's durability
 * @param hugePages whether Cairn's cache asks for transparent huge pages
 * @param logFileBytes the size of each of a persistent Cairn cache's log files, or 0 for the pile's
 *     default
 */
record StoreSpec(
    long entries,
    int valueBytes,
    long budgetBytes,
    Path directory,
    Durability durability,
    boolean hugePages,
    long logFileBytes) {

  /** A store with the pile's default log. */
  StoreSpec(
      long entries,
      int valueBytes,
      long budgetBytes,
      Path directory,
      Durability durability,
      boolean hugePages) {
    this(entries, valueBytes, budgetBytes, directory, durability, hugePages, 0);
  }

  /** Bytes of data per entry, as the budget counts them: the 8-byte key and the value. */
  long dataBytesPerEntry() {
    return (long) Long.BYTES + valueBytes;
  }

  boolean bounded() {
    return budgetBytes > 0;
  }
}
