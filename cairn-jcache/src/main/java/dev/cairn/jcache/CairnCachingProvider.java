package dev.cairn.jcache;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;
import javax.cache.CacheManager;
import javax.cache.configuration.OptionalFeature;
import javax.cache.spi.CachingProvider;

/**
 * Cairn's JSR-107 caching provider, found by {@code Caching.getCachingProvider()} through {@code
 * META-INF/services}. Its default URI, {@value #DEFAULT_URI}, names a cache manager off the heap
 * that lives as long as the process; a {@code file:} URI names a directory, whose caches persist
 * and reopen warm (see {@link CairnCacheManager} for the properties).
 *
 * {@snippet class=dev.cairn.jcache.JCacheExamplesTest region=provider}
 *
 * <p>Thread-safety: safe from any thread; one cache manager per class loader and URI.
 */
public final class CairnCachingProvider implements CachingProvider {
  /** The default URI: an off-heap, volatile cache manager. */
  public static final String DEFAULT_URI = "cairn:default";

  private final Map<ClassLoader, Map<URI, CairnCacheManager>> managers = new WeakHashMap<>();

  @Override
  public synchronized CacheManager getCacheManager(
      URI uri, ClassLoader classLoader, Properties properties) {
    URI u = uri == null ? getDefaultURI() : uri;
    ClassLoader loader = classLoader == null ? getDefaultClassLoader() : classLoader;
    Map<URI, CairnCacheManager> byUri = managers.computeIfAbsent(loader, l -> new HashMap<>());
    CairnCacheManager manager = byUri.get(u);
    if (manager == null || manager.isClosed()) {
      Properties p = new Properties();
      if (properties != null) {
        p.putAll(properties);
      }
      manager = new CairnCacheManager(this, u, loader, p);
      byUri.put(u, manager);
    }
    return manager;
  }

  @Override
  public CacheManager getCacheManager(URI uri, ClassLoader classLoader) {
    return getCacheManager(uri, classLoader, getDefaultProperties());
  }

  @Override
  public CacheManager getCacheManager() {
    return getCacheManager(getDefaultURI(), getDefaultClassLoader(), getDefaultProperties());
  }

  @Override
  public ClassLoader getDefaultClassLoader() {
    return getClass().getClassLoader();
  }

  @Override
  public URI getDefaultURI() {
    return URI.create(DEFAULT_URI);
  }

  @Override
  public Properties getDefaultProperties() {
    return new Properties();
  }

  @Override
  public void close() {
    for (CairnCacheManager m : snapshot(null)) {
      m.close();
    }
  }

  @Override
  public void close(ClassLoader classLoader) {
    ClassLoader loader = classLoader == null ? getDefaultClassLoader() : classLoader;
    for (CairnCacheManager m : snapshot(loader)) {
      m.close();
    }
  }

  @Override
  public void close(URI uri, ClassLoader classLoader) {
    ClassLoader loader = classLoader == null ? getDefaultClassLoader() : classLoader;
    URI u = uri == null ? getDefaultURI() : uri;
    CairnCacheManager m;
    synchronized (this) {
      Map<URI, CairnCacheManager> byUri = managers.get(loader);
      m = byUri == null ? null : byUri.get(u);
    }
    if (m != null) {
      m.close();
    }
  }

  private synchronized java.util.List<CairnCacheManager> snapshot(ClassLoader loader) {
    java.util.List<CairnCacheManager> list = new java.util.ArrayList<>();
    for (Map.Entry<ClassLoader, Map<URI, CairnCacheManager>> e : managers.entrySet()) {
      if (loader == null || e.getKey() == loader) {
        list.addAll(e.getValue().values());
      }
    }
    return list;
  }

  /** A closed manager: a later getCacheManager for its URI makes a new one. */
  synchronized void released(CairnCacheManager manager) {
    Map<URI, CairnCacheManager> byUri = managers.get(manager.getClassLoader());
    if (byUri != null) {
      byUri.remove(manager.getURI(), manager);
    }
  }

  @Override
  public boolean isSupported(OptionalFeature feature) {
    return false; // STORE_BY_REFERENCE: Cairn stores bytes, by value
  }
}
