package dev.cairn.cache;

/** Why an entry left its table. */
public enum RemovalCause {
  /** Removed by a call: remove, clear. */
  EXPLICIT,
  /** Its value was replaced by a put. */
  REPLACED,
  /** Its expiry passed. */
  EXPIRED,
  /** Evicted to keep the cache within its byte budget. */
  EVICTED
}
