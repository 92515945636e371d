package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.Properties;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.expiry.CreatedExpiryPolicy;
import javax.cache.expiry.Duration;
import javax.cache.spi.CachingProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of the javadoc, and what they promise. */
class JCacheExamplesTest {
  @TempDir Path dir;

  @Test
  void theProvider_isFoundAndServesACache() {
    // @start region=provider
    CachingProvider provider = Caching.getCachingProvider(); // Cairn's, by ServiceLoader
    try (CacheManager manager = provider.getCacheManager()) { // off the heap, volatile
      Cache<String, String> greetings =
          manager.createCache(
              "greetings",
              new MutableConfiguration<String, String>().setTypes(String.class, String.class));
      greetings.put("en", "hello");
      assertThat(greetings.get("en")).isEqualTo("hello");
    }
    // @end
    assertThat(provider).isInstanceOf(CairnCachingProvider.class);
  }

  @Test
  void aPersistentManager_findsItsCachesAgain() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.toUri();
    // @start region=configuration
    Properties properties = new Properties();
    properties.setProperty(CairnCacheManager.BUDGET_BYTES, String.valueOf(64L << 20));
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), properties)) {
      CairnConfiguration<Long, String> orders =
          new CairnConfiguration<Long, String>().setMinShare(0.25);
      orders.setTypes(Long.class, String.class);
      orders.setExpiryPolicyFactory(CreatedExpiryPolicy.factoryOf(Duration.ONE_DAY));
      Cache<Long, String> cache = manager.createCache("orders", orders);
      cache.put(42L, "an order");
    }
    // @end
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), properties)) {
      assertThat(manager.getCacheNames()).containsExactly("orders");
      Cache<Object, Object> cache = manager.getCache("orders");
      assertThat(cache.get(42L)).isEqualTo("an order");
    }
  }

  @Test
  void aDestroyedCache_isGoneAfterARestart_andItsNameMakesANewOne() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("destroy").toUri();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<Long, String> doomed =
          manager.createCache(
              "doomed",
              new MutableConfiguration<Long, String>().setTypes(Long.class, String.class));
      Cache<Long, String> kept =
          manager.createCache(
              "kept", new MutableConfiguration<Long, String>().setTypes(Long.class, String.class));
      for (long i = 0; i < 100; i++) {
        doomed.put(i, "d" + i);
        kept.put(i, "k" + i);
      }
      manager.destroyCache("doomed");
      assertThat(doomed.isClosed()).isTrue();
      assertThat(manager.getCacheNames()).containsExactly("kept");
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      assertThat(manager.getCacheNames()).as("after a restart").containsExactly("kept");
      assertThat(manager.getCache("doomed")).isNull();
      Cache<String, Integer> again =
          manager.createCache(
              "doomed",
              new MutableConfiguration<String, Integer>().setTypes(String.class, Integer.class));
      assertThat(again.iterator().hasNext()).as("a new, empty cache of other types").isFalse();
      again.put("one", 1);
      assertThat(again.get("one")).isEqualTo(1);
      assertThat(manager.getCache("kept").get(7L)).isEqualTo("k7");
    }
  }

  @Test
  void aRestartedManager_findsEachCacheWithTheConfigurationItWasMadeWith() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("kept").toUri();
    Properties small = new Properties();
    small.setProperty(CairnCacheManager.BUDGET_BYTES, String.valueOf(1L << 20));
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), small)) {
      CairnConfiguration<Long, String> pinned =
          new CairnConfiguration<Long, String>().setPinned(true).setMaxShare(0.5);
      pinned.setTypes(Long.class, String.class).setStatisticsEnabled(true);
      pinned.setExpiryPolicyFactory(CreatedExpiryPolicy.factoryOf(Duration.ONE_DAY));
      Cache<Long, String> cache = manager.createCache("pinned", pinned);
      for (long i = 0; i < 100; i++) {
        cache.put(i, "pinned " + i);
      }
    }
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), small)) {
      Cache<Long, String> cache = manager.getCache("pinned", Long.class, String.class);
      assertThat(cache).as("a typed getCache after a restart").isNotNull();
      @SuppressWarnings("unchecked")
      CairnConfiguration<Long, String> c = cache.getConfiguration(CairnConfiguration.class);
      assertThat(c.isPinned()).isTrue();
      assertThat(c.getMaxShare()).isEqualTo(0.5);
      assertThat(c.isStatisticsEnabled()).isTrue();
      assertThat(c.isStoreByValue()).isTrue();
      assertThat(c.getExpiryPolicyFactory().create().getExpiryForCreation())
          .isEqualTo(Duration.ONE_DAY);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> manager.getCache("pinned", String.class, String.class))
          .isInstanceOf(ClassCastException.class)
          .hasMessageContaining("java.lang.Long keys");
      // the table is still pinned: a full budget evicts the other cache's entries, never these
      Cache<Integer, Order> bulk =
          manager.createCache(
              "bulk",
              new MutableConfiguration<Integer, Order>().setTypes(Integer.class, Order.class));
      for (int i = 0; i < 20_000; i++) {
        bulk.put(i, new Order("item" + i, i, java.util.List.of()));
      }
      assertThat(manager.unwrap(dev.cairn.cache.Cache.class).stats().evictions()).isPositive();
      for (long i = 0; i < 100; i++) {
        assertThat(cache.get(i)).isEqualTo("pinned " + i);
      }
    }
  }

  @Test
  void aCacheFoundAfterARestart_canBeDestroyedUnopened() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("unopened").toUri();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      manager
          .createCache(
              "old", new MutableConfiguration<Long, String>().setTypes(Long.class, String.class))
          .put(1L, "one");
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      manager.destroyCache("old");
      assertThat(manager.getCacheNames()).isEmpty();
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      assertThat(manager.getCacheNames()).isEmpty();
      Cache<String, String> again =
          manager.createCache(
              "old",
              new MutableConfiguration<String, String>().setTypes(String.class, String.class));
      assertThat(again.get("1")).isNull();
    }
  }

  @Test
  void hashedKeys_placesTheManagersNewCachesByTheSeededHash() throws Exception {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("hashed").toUri();
    Properties hashed = new Properties();
    hashed.setProperty(CairnCacheManager.HASHED_KEYS, "true");
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), hashed)) {
      Cache<Long, String> cache =
          manager.createCache(
              "ids", new MutableConfiguration<Long, String>().setTypes(Long.class, String.class));
      for (long i = 0; i < 50; i++) {
        cache.put(i, "id " + i);
      }
    }
    assertThat(dev.cairn.cache.CacheDirectory.verify(dir.resolve("hashed")).tables())
        .filteredOn(t -> t.name().contains("ids"))
        .extracting(dev.cairn.cache.CacheDirectory.Table::keyPlacement)
        .containsExactly("hashed");

    Properties wrong = new Properties();
    wrong.setProperty(CairnCacheManager.HASHED_KEYS, "yes");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                provider.getCacheManager(
                    dir.resolve("wrong").toUri(), provider.getDefaultClassLoader(), wrong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cairn.hashedKeys must be true or false: yes");
  }

  @Test
  void aPersistentCache_refusesAFactoryItCannotKeep_andMakesNothing() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("refused").toUri();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      MutableConfiguration<Long, String> c =
          new MutableConfiguration<Long, String>().setTypes(Long.class, String.class);
      c.setExpiryPolicyFactory(new StoredConfigurationsTest.HoldsALock());
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> manager.createCache("c", c))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Serializable");
      assertThat(manager.getCacheNames()).isEmpty();
    }
    try (CacheManager manager = provider.getCacheManager()) { // volatile: nothing to keep
      MutableConfiguration<Long, String> c =
          new MutableConfiguration<Long, String>().setTypes(Long.class, String.class);
      c.setExpiryPolicyFactory(new StoredConfigurationsTest.HoldsALock());
      manager.createCache("volatile", c).put(1L, "one");
      manager.destroyCache("volatile");
    }
  }

  /** The TCK and these tests run as later JDKs will by default: without sun.misc.Unsafe. */
  @Test
  void theTestsRunWithUnsafeDenied() {
    assertThat(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments())
        .contains("--sun-misc-unsafe-memory-access=deny");
  }

  @Test
  void aUriNamingAPropertiesFile_configuresTheManager() throws Exception {
    java.nio.file.Files.writeString(
        dir.resolve("cache.properties"),
        "cairn.directory=data\ncairn.budgetBytes=" + (32L << 20) + "\n");
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("cache.properties").toUri();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      manager.createCache("c", new MutableConfiguration<String, String>()).put("k", "v");
      dev.cairn.cache.Cache store = manager.unwrap(dev.cairn.cache.Cache.class);
      assertThat(store.stats().budgetBytes()).isEqualTo(32L << 20);
    }
    assertThat(dir.resolve("data")).isDirectory();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      assertThat(manager.getCache("c").get("k")).isEqualTo("v");
    }
  }

  /** A value type of the application's, stored with Java serialization. */
  record Order(String item, int quantity, java.util.List<String> notes)
      implements java.io.Serializable {}

  @Test
  void serializedValues_readBackAfterARestart_throughTheirStoredClassDescriptors() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("orders").toUri();
    Order order = new Order("teapot", 2, java.util.List.of("fragile"));
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<String, Order> cache =
          manager.createCache(
              "orders",
              new MutableConfiguration<String, Order>().setTypes(String.class, Order.class));
      cache.put("o1", order);
      cache.put("o2", new Order("kettle", 1, java.util.List.of()));
      assertThat(manager.getCacheNames()).containsExactly("orders"); // not the descriptors' table
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<Object, Object> cache = manager.getCache("orders");
      assertThat(cache.get("o1")).isEqualTo(order);
      assertThat(cache.get("o2")).isEqualTo(new Order("kettle", 1, java.util.List.of()));
      assertThat(manager.getCacheNames()).containsExactly("orders");
    }
  }

  @Test
  void underAFullBudget_evictionTakesValues_neverTheirClassDescriptors() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("bounded").toUri();
    Properties small = new Properties();
    small.setProperty(CairnCacheManager.BUDGET_BYTES, String.valueOf(1L << 20));
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), small)) {
      Cache<Integer, Order> cache =
          manager.createCache(
              "orders",
              new MutableConfiguration<Integer, Order>().setTypes(Integer.class, Order.class));
      for (int i = 0; i < 20_000; i++) {
        cache.put(i, new Order("item" + i, i, java.util.List.of()));
      }
      dev.cairn.cache.Cache store = manager.unwrap(dev.cairn.cache.Cache.class);
      assertThat(store.stats().evictions()).isPositive();
    }
    try (CacheManager manager =
        provider.getCacheManager(uri, provider.getDefaultClassLoader(), small)) {
      Cache<Object, Object> cache = manager.getCache("orders");
      assertThat(cache.get(19_999)).isEqualTo(new Order("item19999", 19_999, java.util.List.of()));
    }
  }
}
