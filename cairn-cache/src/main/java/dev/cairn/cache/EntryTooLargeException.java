package dev.cairn.cache;

/** An entry larger than the cache's whole byte budget: it could never be kept. */
public final class EntryTooLargeException extends CacheException {
  public EntryTooLargeException(String message) {
    super(message);
  }
}
