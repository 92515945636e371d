/**
 * Cairn cache: named tables of key to value over a {@link dev.cairn.pile.Pile}, with one byte
 * budget, eviction and expiry, and an index that shares a persistent pile's log and checkpoints.
 *
 * <p>Exports only the API ({@code dev.cairn.cache}); the index and the eviction policy are
 * internal.
 */
module dev.cairn.cache {
  requires transitive dev.cairn.core;
  // JFR events (eviction passes): part of the JDK, no dependency
  requires jdk.jfr;

  exports dev.cairn.cache;
}
