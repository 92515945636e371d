package dev.cairn.jcache;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.cache.Cache;
import javax.cache.configuration.CompleteConfiguration;
import javax.cache.integration.CacheLoader;
import javax.cache.integration.CacheLoaderException;
import javax.cache.integration.CacheWriter;
import javax.cache.integration.CacheWriterException;

/**
 * A cache's loader and writer (read-through and write-through), as {@link CairnJCache} calls them
 * (J3): each call's failure reaches the caller as a {@link CacheLoaderException} or a {@link
 * CacheWriterException}, one the loader or writer threw itself as it was, any other wrapped with
 * the cache's name.
 *
 * <p>Read-through and write-through are read from the cache's configuration at each call, as the
 * configuration says them.
 *
 * <p>Thread-safety: as the loader's and the writer's.
 */
final class Integration<K, V> {
  private final String name;
  private final CompleteConfiguration<K, V> configuration;
  private final CacheLoader<K, V> loader; // null if none
  private final CacheWriter<K, V> writer; // null if none

  Integration(
      String name,
      CompleteConfiguration<K, V> configuration,
      CacheLoader<K, V> loader,
      CacheWriter<K, V> writer) {
    this.name = name;
    this.configuration = configuration;
    this.loader = loader;
    this.writer = writer;
  }

  /** Whether a miss is loaded (read-through with a loader). */
  boolean readsThrough() {
    return configuration.isReadThrough() && loader != null;
  }

  /** Whether changes go to the writer (write-through with a writer). */
  boolean writesThrough() {
    return configuration.isWriteThrough() && writer != null;
  }

  /** Whether the cache has a loader at all ({@code loadAll} uses it whatever read-through says). */
  boolean hasLoader() {
    return loader != null;
  }

  /** Loads one key; the caller checked that there is a loader. */
  V load(K key) {
    try {
      return loader.load(key);
    } catch (CacheLoaderException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CacheLoaderException("the loader of cache " + name + " failed on a key", e);
    }
  }

  /** Loads several keys; the caller checked that there is a loader. */
  Map<K, V> loadAll(Iterable<? extends K> keys) {
    try {
      return loader.loadAll(keys);
    } catch (CacheLoaderException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CacheLoaderException("the loader of cache " + name + " failed", e);
    }
  }

  /** Write-through of one entry, if the cache writes through. */
  void write(K key, V value) {
    if (!writesThrough()) {
      return;
    }
    try {
      writer.write(new CairnJCache.CairnEntry<>(key, value));
    } catch (CacheWriterException e) {
      throw e;
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** Write-through of one removal, if the cache writes through. */
  void delete(K key) {
    if (!writesThrough()) {
      return;
    }
    try {
      writer.delete(key);
    } catch (CacheWriterException e) {
      throw e;
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /**
   * Write-through of several entries; the caller checked {@link #writesThrough}. On a failure the
   * writer leaves in {@code batch} the entries it did not write, and this returns the failure (null
   * if none).
   */
  RuntimeException writeAll(Collection<Cache.Entry<? extends K, ? extends V>> batch) {
    try {
      writer.writeAll(batch);
      return null;
    } catch (RuntimeException e) {
      return e instanceof CacheWriterException w ? w : failed(e);
    }
  }

  /**
   * Write-through of several removals; the caller checked {@link #writesThrough}. On a failure the
   * writer leaves in {@code batch} the keys it did not delete, and this returns the failure (null
   * if none).
   */
  RuntimeException deleteAll(List<Object> batch) {
    try {
      writer.deleteAll(batch);
      return null;
    } catch (RuntimeException e) {
      return e instanceof CacheWriterException w ? w : failed(e);
    }
  }

  /** The loader and the writer, for the cache to close those that are closeable. */
  List<Object> parts() {
    return Arrays.asList(loader, writer);
  }

  private CacheWriterException failed(RuntimeException e) {
    return new CacheWriterException("the writer of cache " + name + " failed", e);
  }
}
