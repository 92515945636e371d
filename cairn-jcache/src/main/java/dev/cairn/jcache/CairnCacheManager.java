package dev.cairn.jcache;

import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.RemovalCause;
import dev.cairn.cache.TableOptions;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.CompleteConfiguration;
import javax.cache.configuration.Configuration;
import javax.cache.spi.CachingProvider;

/**
 * A JSR-107 cache manager over one Cairn cache: off the heap, and persistent when its URI is a
 * {@code file:} URI naming a directory. Each JCache cache is one of its tables, sharing its byte
 * budget.
 *
 * <p>Properties (given to {@link CachingProvider#getCacheManager(URI, ClassLoader, Properties)}, or
 * in a configuration file that a {@code file:} URI ending in {@code .properties} names, where
 * {@value #DIRECTORY} names the directory; given properties win over the file's):
 *
 * <ul>
 *   <li>{@value #BUDGET_BYTES}: the byte budget of all the manager's caches (default: none);
 *   <li>{@value #HASHED_KEYS}: how the manager's new caches place 8-byte keys (default {@code
 *       false});
 *   <li>{@value #HUGE_PAGES}: whether memory is asked for in transparent huge pages (default {@code
 *       true}, {@link PileOptions#hugePages});
 *   <li>for a persistent manager (ignored by a volatile one): {@value #DURABILITY}, {@code NONE},
 *       {@code PERIODIC} (the default) or {@code SYNC} ({@link Durability}); {@value
 *       #SYNC_INTERVAL_MILLIS}, {@value #CHECKPOINT_INTERVAL_MILLIS}, {@value #LOG_FILE_BYTES} and
 *       {@value #LOG_FILE_COUNT}, the {@link PileOptions} of the same names (the log's size and
 *       count apply when the directory's cache is created).
 * </ul>
 *
 * <p>Any other property whose name starts with {@code cairn.} is refused ({@link
 * IllegalArgumentException} naming it and the known ones), so that a misspelt one is not ignored;
 * so is a value that is malformed or that Cairn refuses, naming the property.
 *
 * <p>After a restart, a persistent manager finds the caches of its directory again ({@link
 * #getCacheNames}, {@link #getCache(String)}), with their entries and the configuration they were
 * made with ({@link StoredConfigurations}): key and value types (so a typed {@link
 * #getCache(String, Class, Class)} finds them), store by value, statistics and management as
 * created, read- and write-through and the factories of the expiry policy, loader and writer, and
 * Cairn's settings (pinned, shares). Listeners are not kept. A destroyed cache is gone, entries,
 * name and configuration.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class CairnCacheManager implements CacheManager {
  /** Property: the byte budget of all the manager's caches. */
  public static final String BUDGET_BYTES = "cairn.budgetBytes";

  /**
   * Property, {@code true} or {@code false} (the default): whether the caches the manager creates
   * place 8-byte keys ({@code Long} ones) by a seeded hash rather than by runs of neighbouring keys
   * ({@link CacheOptions#hashedKeys}): for keys an adversary picks.
   */
  public static final String HASHED_KEYS = "cairn.hashedKeys";

  /** Property: the durability of a persistent manager's writes. */
  public static final String DURABILITY = "cairn.durability";

  /**
   * Property, in a configuration file named by the URI: the directory of a persistent manager,
   * relative to the file's folder.
   */
  public static final String DIRECTORY = "cairn.directory";

  /**
   * Property, {@code true} (the default) or {@code false}: whether the manager's memory is asked
   * for in transparent huge pages ({@link PileOptions#hugePages}).
   */
  public static final String HUGE_PAGES = "cairn.hugePages";

  /**
   * Property: how often a persistent {@code PERIODIC} manager forces its log, in milliseconds
   * ({@link PileOptions#syncIntervalMillis}, default 10).
   */
  public static final String SYNC_INTERVAL_MILLIS = "cairn.syncIntervalMillis";

  /**
   * Property: the longest time between a persistent manager's checkpoints while it is written to,
   * in milliseconds; 0 for none ({@link PileOptions#checkpointIntervalMillis}, default five
   * minutes). It bounds the log a restart after a crash replays.
   */
  public static final String CHECKPOINT_INTERVAL_MILLIS = "cairn.checkpointIntervalMillis";

  /**
   * Property: the size of each of a persistent manager's log files, when its cache is created
   * ({@link PileOptions#logFileBytes}, a multiple of 4096, at least 1 MiB).
   */
  public static final String LOG_FILE_BYTES = "cairn.logFileBytes";

  /**
   * Property: how many log files a persistent manager's log has, when its cache is created ({@link
   * PileOptions#logFileCount}).
   */
  public static final String LOG_FILE_COUNT = "cairn.logFileCount";

  private final CairnCachingProvider provider;
  private final URI uri;
  private final ClassLoader classLoader;
  private final Properties properties;
  private final dev.cairn.cache.Cache store;
  private final Marshaller marshaller;
  private final StoredConfigurations configurations;
  private final ConcurrentMap<String, CairnJCache<?, ?>> caches = new ConcurrentHashMap<>();
  private final Set<String> recovered = ConcurrentHashMap.newKeySet();
  private final ExecutorService loads;
  private volatile boolean closed;

  CairnCacheManager(
      CairnCachingProvider provider, URI uri, ClassLoader classLoader, Properties properties) {
    this.provider = provider;
    this.uri = uri;
    this.classLoader = classLoader;
    this.properties = properties;
    Opened opened = openStore(uri, properties);
    this.store = opened.store();
    this.marshaller =
        new Marshaller(
            classLoader,
            new ClassDescriptors(
                store.table(
                    ClassDescriptors.TABLE,
                    Long.class,
                    byte[].class,
                    TableOptions.builder().pinned(true).build()), // never evicted: D1
                classLoader));
    this.configurations = opened.persistent() ? new StoredConfigurations(store) : null;
    this.recovered.addAll(store.tableNames());
    this.recovered.remove(ClassDescriptors.TABLE); // not JCache caches
    this.recovered.remove(StoredConfigurations.TABLE);
    this.store.removalListener(
        (String table, Object key, RemovalCause cause) -> {
          CairnJCache<?, ?> cache = caches.get(table);
          if (cache != null && cause == RemovalCause.EVICTED) {
            cache.statistics().eviction();
          }
        });
    this.loads =
        Executors.newCachedThreadPool(
            task -> {
              Thread t = new Thread(task, "cairn-jcache-loadAll");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The directory a {@code file:} URI names and the properties that apply: a URI naming a {@code
   * .properties} file is a configuration file, whose {@value #DIRECTORY} (relative to the file's
   * folder; none: volatile) and other properties apply where {@code given} has none; any other
   * {@code file:} URI names the directory itself.
   */
  private static Path directoryOf(URI uri, Properties given, Properties effective) {
    effective.putAll(given);
    Path path = "file".equals(uri.getScheme()) ? Path.of(uri) : null;
    if (path == null || !path.getFileName().toString().endsWith(".properties")) {
      if (given.getProperty(DIRECTORY) != null) {
        throw new IllegalArgumentException(
            DIRECTORY
                + " is read with a configuration file, a file: URI ending in .properties; this"
                + " manager's URI is "
                + uri
                + ": for a persistent manager, pass the file: URI of its directory");
      }
      return path;
    }
    Properties file = new Properties();
    try (java.io.Reader in = java.nio.file.Files.newBufferedReader(path)) {
      file.load(in);
    } catch (IOException e) {
      throw new CacheException(
          "cannot read the cache manager's configuration file " + path + ": " + e, e);
    }
    for (String name : file.stringPropertyNames()) {
      effective.putIfAbsent(name, file.getProperty(name));
    }
    String directory = effective.getProperty(DIRECTORY);
    if (directory == null) {
      return null;
    }
    Path parent = path.toAbsolutePath().getParent();
    return parent == null ? Path.of(directory) : parent.resolve(directory);
  }

  /** The manager's Cairn cache, and whether it is persistent. */
  private record Opened(dev.cairn.cache.Cache store, boolean persistent) {}

  private static Opened openStore(URI uri, Properties given) {
    Properties properties = new Properties();
    Path directory = directoryOf(uri, given, properties);
    // values that are not stored as themselves are StoredValues, read and written by its codec
    CodecRegistry codecs =
        CodecRegistry.builder().register(StoredValue.TYPE_ID, StoredValue.CODEC).build();
    CacheOptions options = ManagerSettings.options(properties, directory != null, codecs);
    if (directory == null) {
      return new Opened(dev.cairn.cache.Cache.offHeap(options), false);
    }
    try {
      return new Opened(dev.cairn.cache.Cache.open(directory, options), true);
    } catch (IOException | dev.cairn.CairnException e) {
      // the cause says why (a file where a directory should be, a plain pile's directory, a lock
      // another process holds, damage): JCache's callers catch CacheException
      throw new CacheException(
          "cannot open the Cairn cache in " + directory + ": " + e.getMessage(), e);
    }
  }

  @Override
  public CachingProvider getCachingProvider() {
    return provider;
  }

  @Override
  public URI getURI() {
    return uri;
  }

  @Override
  public ClassLoader getClassLoader() {
    return classLoader;
  }

  @Override
  public Properties getProperties() {
    return properties;
  }

  @Override
  public <K, V, C extends Configuration<K, V>> Cache<K, V> createCache(
      String cacheName, C configuration) {
    checkOpen();
    Objects.requireNonNull(cacheName, "cacheName");
    Objects.requireNonNull(configuration, "configuration");
    synchronized (caches) {
      if (cacheName.equals(ClassDescriptors.TABLE)
          || cacheName.equals(StoredConfigurations.TABLE)) {
        throw new CacheException(
            "cache name "
                + cacheName
                + " is reserved: the manager keeps class descriptors and configurations there");
      }
      if (caches.containsKey(cacheName) || recovered.contains(cacheName)) {
        throw new CacheException("cache " + cacheName + " exists already in " + uri);
      }
      CairnConfiguration<K, V> c = copy(configuration);
      // the record first (it refuses a factory that cannot be kept), then the table, then the
      // record stored: see StoredConfigurations
      byte[] record = configurations != null ? StoredConfigurations.encode(c) : null;
      CairnJCache<K, V> cache = newCache(cacheName, c, true);
      if (record != null) {
        configurations.save(cacheName, record);
      }
      caches.put(cacheName, cache);
      return cache;
    }
  }

  private static <K, V> CairnConfiguration<K, V> copy(Configuration<K, V> configuration) {
    if (configuration instanceof CompleteConfiguration<K, V> complete) {
      return new CairnConfiguration<>(complete);
    }
    CairnConfiguration<K, V> c = new CairnConfiguration<>();
    c.setTypes(configuration.getKeyType(), configuration.getValueType());
    c.setStoreByValue(configuration.isStoreByValue());
    return c;
  }

  /**
   * A cache over table {@code name}, made or found; {@code setOptions}: the table takes the
   * configuration's settings, else it keeps its own (a cache found with no kept configuration).
   */
  private <K, V> CairnJCache<K, V> newCache(
      String name, CairnConfiguration<K, V> configuration, boolean setOptions) {
    TableOptions options =
        TableOptions.builder()
            .pinned(configuration.isPinned())
            .minShare(configuration.getMinShare())
            .maxShare(configuration.getMaxShare())
            .build();
    CacheTable<byte[], Object> table =
        setOptions
            ? store.table(name, byte[].class, Object.class, options)
            : store.table(name, byte[].class, Object.class);
    CairnJCache<K, V> cache =
        new CairnJCache<>(
            this, name, configuration, table, store.longKeys(table), marshaller, loads);
    if (configuration.isManagementEnabled()) {
      MBeans.register(cache.configurationBean(), mbeanName(MBeans.CONFIGURATION, name));
    }
    if (configuration.isStatisticsEnabled()) {
      MBeans.register(cache.statistics(), mbeanName(MBeans.STATISTICS, name));
    }
    return cache;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, V> Cache<K, V> getCache(String cacheName, Class<K> keyType, Class<V> valueType) {
    checkOpen();
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(valueType, "valueType");
    Cache<K, V> cache = getCache(cacheName);
    if (cache == null) {
      return null;
    }
    CompleteConfiguration<?, ?> c = ((CairnJCache<?, ?>) cache).configuration();
    if (c.getKeyType() != keyType || c.getValueType() != valueType) {
      throw new ClassCastException(
          "cache "
              + cacheName
              + " holds "
              + c.getKeyType().getName()
              + " keys and "
              + c.getValueType().getName()
              + " values, not "
              + keyType.getName()
              + " and "
              + valueType.getName());
    }
    return cache;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, V> Cache<K, V> getCache(String cacheName) {
    checkOpen();
    Objects.requireNonNull(cacheName, "cacheName");
    CairnJCache<?, ?> cache = caches.get(cacheName);
    if (cache == null && recovered.contains(cacheName)) {
      synchronized (caches) {
        cache = caches.get(cacheName);
        if (cache == null && recovered.contains(cacheName)) {
          CairnConfiguration<Object, Object> kept =
              configurations != null ? configurations.restore(cacheName, classLoader) : null;
          cache =
              kept != null
                  ? newCache(cacheName, kept, true)
                  : newCache(cacheName, new CairnConfiguration<>(), false); // an earlier build's
          recovered.remove(cacheName);
          caches.put(cacheName, cache);
        }
      }
    }
    return (Cache<K, V>) cache;
  }

  @Override
  public Iterable<String> getCacheNames() {
    checkOpen();
    Set<String> names = new TreeSet<>(caches.keySet());
    names.addAll(recovered);
    return Collections.unmodifiableSet(names);
  }

  @Override
  public void destroyCache(String cacheName) {
    checkOpen();
    Objects.requireNonNull(cacheName, "cacheName");
    synchronized (caches) { // as getCache: a recovered cache is destroyed without restoring it
      CairnJCache<?, ?> c = caches.get(cacheName);
      if (c == null && !recovered.contains(cacheName)) {
        return;
      }
      if (c != null) {
        c.closeQuietly();
      }
      store.dropTable(cacheName); // entries, index and table: gone after a restart too
      if (configurations != null) {
        configurations.remove(cacheName);
      }
      unregisterBeans(cacheName);
      if (c != null) {
        caches.remove(cacheName, c);
      }
      recovered.remove(cacheName);
    }
  }

  @Override
  public void enableManagement(String cacheName, boolean enabled) {
    checkOpen();
    CairnJCache<?, ?> cache = (CairnJCache<?, ?>) getCache(cacheName);
    if (cache == null) {
      return;
    }
    cache.managementEnabled(enabled);
    if (enabled) {
      MBeans.register(cache.configurationBean(), mbeanName(MBeans.CONFIGURATION, cacheName));
    } else {
      MBeans.unregister(mbeanName(MBeans.CONFIGURATION, cacheName));
    }
  }

  @Override
  public void enableStatistics(String cacheName, boolean enabled) {
    checkOpen();
    CairnJCache<?, ?> cache = (CairnJCache<?, ?>) getCache(cacheName);
    if (cache == null) {
      return;
    }
    cache.statisticsEnabled(enabled);
    if (enabled) {
      MBeans.register(cache.statistics(), mbeanName(MBeans.STATISTICS, cacheName));
    } else {
      MBeans.unregister(mbeanName(MBeans.STATISTICS, cacheName));
    }
  }

  private javax.management.ObjectName mbeanName(String type, String cacheName) {
    return MBeans.name(type, uri.toString(), cacheName);
  }

  private void unregisterBeans(String cacheName) {
    MBeans.unregister(mbeanName(MBeans.CONFIGURATION, cacheName));
    MBeans.unregister(mbeanName(MBeans.STATISTICS, cacheName));
  }

  /** A cache closed by its user: the manager no longer hands it out. */
  void released(CairnJCache<?, ?> cache) {
    unregisterBeans(cache.getName());
    caches.remove(cache.getName(), cache);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    synchronized (caches) {
      if (closed) {
        return;
      }
      closed = true;
      for (CairnJCache<?, ?> cache : caches.values()) {
        cache.closeQuietly();
        unregisterBeans(cache.getName());
      }
      caches.clear();
    }
    loads.shutdown();
    store.close();
    provider.released(this);
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("cache manager " + uri + " is closed");
    }
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    if (type.isInstance(store)) {
      return type.cast(store);
    }
    throw new IllegalArgumentException("cache manager unwraps to no " + type.getName());
  }
}
