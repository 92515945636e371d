package dev.cairn.cache;

/**
 * The cache's own data in a pile is damaged or of another format: its checkpointed state or a
 * record of its log. The message says what was found.
 */
public final class CacheCorruptionException extends CacheException {
  public CacheCorruptionException(String message) {
    super(message);
  }
}
