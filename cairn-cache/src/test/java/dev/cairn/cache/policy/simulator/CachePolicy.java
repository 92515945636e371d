package dev.cairn.cache.policy.simulator;

/** A cache policy as the simulator drives it: one call per reference of a trace. */
public interface CachePolicy {
  /**
   * Looks key {@code id} up, and on a miss stores it with {@code sizeBytes} (the policy may then
   * evict, or refuse it); returns whether it was a hit.
   */
  boolean access(int id, long sizeBytes);

  /** The bytes held now. */
  long usedBytes();

  /** A short name for reports. */
  String name();
}
