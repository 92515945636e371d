package dev.cairn.cache;

/**
 * A put needed room that eviction could not make: what is left in the budget is pinned. Nothing was
 * written; unpin or remove entries, or give the cache a larger budget.
 */
public final class CacheFullException extends CacheException {
  public CacheFullException(String message) {
    super(message);
  }
}
