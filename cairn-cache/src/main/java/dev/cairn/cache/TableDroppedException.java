package dev.cairn.cache;

/**
 * Thrown by an operation on a table that {@link Cache#dropTable} dropped: the handle is dead. Get
 * the table of that name again from the cache ({@link Cache#table}), which makes a new, empty one.
 */
public class TableDroppedException extends CacheException {
  public TableDroppedException(String message) {
    super(message);
  }
}
