package dev.cairn.ycsb;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheTable;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The one cache that every {@link CairnYcsbClient} of a JVM works on. YCSB makes one client object
 * per thread; the first {@link #acquire} opens the cache, each client's cleanup releases it, and
 * the last {@link #release} closes it (a persistent cache checkpoints as it closes).
 *
 * <p>Thread-safety: {@link #acquire} and {@link #release} may be called from any thread (they hold
 * one lock of the class); {@link #table} and {@link #cache} too.
 */
final class SharedCache {
  private static final Object LOCK = new Object();
  private static SharedCache current; // the open one, or null; guarded by LOCK
  private static int references; // guarded by LOCK

  private final CairnSettings settings;
  private final Cache cache;
  private final ConcurrentMap<String, CacheTable<String, byte[]>> tables =
      new ConcurrentHashMap<>();

  private SharedCache(CairnSettings settings, Cache cache) {
    this.settings = settings;
    this.cache = cache;
  }

  /**
   * The open cache, opened with {@code settings} if none is.
   *
   * @throws IOException if the persistent cache's directory cannot be read or written
   * @throws IllegalStateException if the cache is open with other settings
   */
  static SharedCache acquire(CairnSettings settings) throws IOException {
    synchronized (LOCK) {
      if (current == null) {
        current = new SharedCache(settings, settings.open());
      } else if (!current.settings.equals(settings)) {
        throw new IllegalStateException(
            "the cairn.* properties differ from those the open cache was opened with ("
                + current.settings
                + ", asked for "
                + settings
                + "): give every client of one JVM the same properties");
      }
      references++;
      return current;
    }
  }

  /**
   * Gives back one {@link #acquire}; the last closes the cache, after checking it with {@link
   * Cache#verify()} if {@link CairnSettings#verify()} asks for it.
   *
   * @return the entries the check found, or -1 if this release checked nothing
   * @throws dev.cairn.cache.CacheCorruptionException if the check finds a disagreement (the cache
   *     is closed all the same)
   */
  long release() {
    synchronized (LOCK) {
      if (current != this || references == 0) {
        throw new IllegalStateException("the cache was released more often than acquired");
      }
      if (--references > 0) {
        return -1;
      }
      current = null;
      try {
        return settings.verify() ? cache.verify() : -1;
      } finally {
        cache.close();
      }
    }
  }

  /**
   * The table {@code name} of the cache, created if it has none: keys are YCSB's keys, values the
   * records' bytes ({@link RecordCodec}).
   *
   * @throws IllegalArgumentException if the name is not a table's (1 to 255 characters)
   */
  CacheTable<String, byte[]> table(String name) {
    CacheTable<String, byte[]> table = tables.get(name);
    return table != null
        ? table
        : tables.computeIfAbsent(name, n -> cache.table(n, String.class, byte[].class));
  }

  /** The cache, for its statistics and checks. */
  Cache cache() {
    return cache;
  }

  /** The settings the cache was opened with. */
  CairnSettings settings() {
    return settings;
  }
}
