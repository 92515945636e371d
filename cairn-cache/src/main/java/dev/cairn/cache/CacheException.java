package dev.cairn.cache;

import dev.cairn.CairnException;

/**
 * Base type of the exceptions the cache raises for its own reasons: a budget that only pinned
 * entries fill, a value larger than the whole budget, a table opened with other key or value types
 * than it was created with. The pile's own exceptions ({@code PileClosedException}, a damaged file)
 * pass through unchanged.
 */
public class CacheException extends CairnException {
  public CacheException(String message) {
    super(message);
  }

  public CacheException(String message, Throwable cause) {
    super(message, cause);
  }
}
