package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.DurabilityStats;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.spi.CachingProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manager's {@code cairn.*} properties: each reaches the cache, and a wrong one is refused. */
class ManagerSettingsTest {
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final CachingProvider provider = Caching.getCachingProvider();

  private CacheManager manager(URI uri, Properties properties) {
    return provider.getCacheManager(uri, provider.getDefaultClassLoader(), properties);
  }

  private static Properties properties(String... nameValues) {
    Properties p = new Properties();
    for (int i = 0; i < nameValues.length; i += 2) {
      p.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return p;
  }

  @Test
  void theLogProperties_shapeAPersistentManagersLog_andItsCheckpoints() throws Exception {
    Path cacheDir = dir.resolve("cache");
    Properties p =
        properties(
            CairnCacheManager.DURABILITY, "sync",
            CairnCacheManager.LOG_FILE_BYTES, String.valueOf(MIB),
            CairnCacheManager.LOG_FILE_COUNT, "3",
            CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS, "100",
            CairnCacheManager.SYNC_INTERVAL_MILLIS, "5",
            CairnCacheManager.HUGE_PAGES, "false");
    try (CacheManager manager = manager(cacheDir.toUri(), p)) {
      Cache<String, String> cache =
          manager.createCache(
              "c", new MutableConfiguration<String, String>().setTypes(String.class, String.class));
      dev.cairn.cache.Cache store = manager.unwrap(dev.cairn.cache.Cache.class);
      long before = store.pile().durabilityStats().checkpoints();
      cache.put("k", "v");
      // the default interval is five minutes, and a quarter of this 3 MiB log is far off: only the
      // property's 100 ms brings a checkpoint within the wait
      long deadline = System.nanoTime() + 20_000_000_000L;
      DurabilityStats stats = store.pile().durabilityStats();
      while (stats.checkpoints() == before && System.nanoTime() < deadline) {
        Thread.sleep(20);
        stats = store.pile().durabilityStats();
      }
      assertThat(stats.checkpoints()).as("checkpoints after a put").isGreaterThan(before);
    }
    List<Path> logFiles;
    try (Stream<Path> files = Files.list(cacheDir.resolve("wal"))) {
      logFiles = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
    }
    assertThat(logFiles).hasSize(3);
    for (Path f : logFiles) {
      assertThat(Files.size(f)).as("%s", f).isEqualTo(MIB);
    }
  }

  @Test
  void aConfigurationFile_carriesTheLogProperties_andGivenOnesWin() throws Exception {
    Files.writeString(
        dir.resolve("cache.properties"),
        "cairn.directory=data\ncairn.logFileBytes=" + MIB + "\ncairn.logFileCount=5\n");
    URI uri = dir.resolve("cache.properties").toUri();
    try (CacheManager manager = manager(uri, properties(CairnCacheManager.LOG_FILE_COUNT, "2"))) {
      manager.createCache("c", new MutableConfiguration<String, String>()).put("k", "v");
    }
    try (Stream<Path> files = Files.list(dir.resolve("data").resolve("wal"))) {
      assertThat(files.filter(f -> f.getFileName().toString().endsWith(".log")))
          .hasSize(2)
          .allSatisfy(f -> assertThat(Files.size(f)).isEqualTo(MIB));
    }
  }

  @Test
  void aMisspeltCairnProperty_isRefused_namingItAndTheKnownOnes() {
    assertThatThrownBy(() -> manager(dir.resolve("a").toUri(), properties("cairn.budget", "64")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown Cairn property cairn.budget: a cache manager reads ")
        .hasMessageContaining(CairnCacheManager.BUDGET_BYTES)
        .hasMessageContaining(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS);
    assertThatThrownBy(() -> manager(URI.create("cairn:x"), properties("cairn.durabilty", "SYNC")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown Cairn property cairn.durabilty");
    assertThat(dir.resolve("a")).doesNotExist();
  }

  @Test
  void otherProperties_areLeftToWhoeverSetThem() {
    try (CacheManager manager =
        manager(
            dir.resolve("b").toUri(),
            properties("hibernate.cache.use_second_level_cache", "true", "cairnish", "x"))) {
      assertThat(manager.getProperties().getProperty("cairnish")).isEqualTo("x");
    }
  }

  @Test
  void aMalformedOrRefusedValue_isRefused_namingTheProperty() {
    URI uri = dir.resolve("c").toUri();
    assertThatThrownBy(
            () -> manager(uri, properties(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS, "5m")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cairn.checkpointIntervalMillis must be a whole number: 5m");
    assertThatThrownBy(
            () -> manager(uri, properties(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS, "-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cairn refuses")
        .hasMessageContaining("checkpointIntervalMillis must be 0 (none) or positive");
    assertThatThrownBy(() -> manager(uri, properties(CairnCacheManager.LOG_FILE_BYTES, "1000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("logFileBytes must be a multiple of 4096 and at least 1 MiB");
    assertThatThrownBy(() -> manager(uri, properties(CairnCacheManager.HUGE_PAGES, "yes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cairn.hugePages must be true or false: yes");
    assertThatThrownBy(() -> manager(uri, properties(CairnCacheManager.BUDGET_BYTES, "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cairn.budgetBytes must be a whole number: lots");
    assertThat(dir.resolve("c")).doesNotExist();
  }

  @Test
  void aDirectoryGivenWithoutAConfigurationFile_isRefused_notIgnored() {
    assertThatThrownBy(
            () ->
                manager(
                    URI.create("cairn:given-a-directory"),
                    properties(CairnCacheManager.DIRECTORY, dir.resolve("d").toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "cairn.directory is read with a configuration file, a file: URI ending in"
                + " .properties; this manager's URI is cairn:given-a-directory");
  }

  @Test
  void aVolatileManager_ignoresThePersistenceProperties() {
    try (CacheManager manager =
        manager(
            URI.create("cairn:volatile-settings"),
            properties(
                CairnCacheManager.DURABILITY, "SYNC", CairnCacheManager.LOG_FILE_COUNT, "3"))) {
      Cache<String, String> cache =
          manager.createCache(
              "c", new MutableConfiguration<String, String>().setTypes(String.class, String.class));
      cache.put("k", "v");
      assertThat(cache.get("k")).isEqualTo("v");
      assertThat(manager.unwrap(dev.cairn.cache.Cache.class).pile().durabilityStats().persistent())
          .isFalse();
    }
  }
}
