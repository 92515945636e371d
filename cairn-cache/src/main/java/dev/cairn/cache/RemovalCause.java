package dev.cairn.cache;

/** Why an entry left its table. */
public enum RemovalCause {
  /** Removed by {@link CacheTable#clear} (a remove of one key tells no listener). */
  EXPLICIT,
  /** Its value was replaced by a put: not told to a {@link RemovalListener}, as a remove is not. */
  REPLACED,
  /** Its expiry passed. */
  EXPIRED,
  /** Evicted to keep the cache within its byte budget. */
  EVICTED
}
