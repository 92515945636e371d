package dev.cairn.cache;

/**
 * An entry the cache could never keep, refused before anything was written: larger than the cache's
 * whole byte budget, than one block of its pile ({@link
 * dev.cairn.pile.PileOptions.Builder#segmentBytes(long)}), or, in a persistent cache that logs its
 * writes, than one log record. The message says which, with the sizes and what to change; the
 * cause, for the last two, is the pile's {@link dev.cairn.pile.ValueTooLargeException}.
 */
public final class EntryTooLargeException extends CacheException {
  public EntryTooLargeException(String message) {
    super(message);
  }

  public EntryTooLargeException(String message, Throwable cause) {
    super(message, cause);
  }
}
