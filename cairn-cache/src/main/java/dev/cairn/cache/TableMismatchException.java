package dev.cairn.cache;

/** A table was asked for with other key or value types than it holds. */
public final class TableMismatchException extends CacheException {
  public TableMismatchException(String message) {
    super(message);
  }
}
