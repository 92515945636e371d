package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.CacheTable;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.expiry.Duration;
import javax.cache.expiry.ExpiryPolicy;
import javax.cache.spi.CachingProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How values sit in Cairn's table ({@link Marshaller}'s implementation note): an eternal {@code
 * byte[]}, {@code String}, {@code Long} or {@code Integer} as itself, anything else and anything
 * that expires as a {@link StoredValue}; an entry moves between the forms as its expiry changes,
 * conditional writes compare values across forms, and all of them come back after a restart.
 */
class StoredFormsTest {
  @TempDir Path dir;

  record Point(int x, int y) implements Serializable {}

  /** Creation and access durations; null access: unchanged. */
  record Policy(Duration creation, Duration access) implements ExpiryPolicy, Serializable {
    @Override
    public Duration getExpiryForCreation() {
      return creation;
    }

    @Override
    public Duration getExpiryForAccess() {
      return access;
    }

    @Override
    public Duration getExpiryForUpdate() {
      return null;
    }
  }

  private static final Duration MINUTE = new Duration(TimeUnit.MINUTES, 1);

  @Test
  void eternalValuesOfNativeTypes_areStoredAsThemselves() {
    try (CacheManager manager = Caching.getCachingProvider().getCacheManager()) {
      Cache<String, Object> cache = manager.createCache("forms", new MutableConfiguration<>());
      cache.put("bytes", new byte[] {1, 2});
      cache.put("string", "s");
      cache.put("long", 7L);
      cache.put("int", 8);
      cache.put("record", new Point(1, 2));

      assertThat(forms(cache))
          .containsExactlyInAnyOrder(
              byte[].class, String.class, Long.class, Integer.class, StoredValue.class);
      assertThat((byte[]) cache.get("bytes")).containsExactly(1, 2);
      assertThat(cache.get("long")).isEqualTo(7L);
      assertThat(cache.get("int")).isEqualTo(8);
      assertThat(cache.get("record")).isEqualTo(new Point(1, 2));
    }
  }

  @Test
  void anAccessThatSetsAnExpiry_movesTheEntryToTheTimedForm_andConditionalWritesStillMatch() {
    try (CacheManager manager = Caching.getCachingProvider().getCacheManager()) {
      Cache<String, byte[]> cache = manager.createCache("access", policy(Duration.ETERNAL, MINUTE));
      cache.put("k", new byte[] {1});
      assertThat(forms(cache)).containsExactly(byte[].class);

      assertThat(cache.get("k")).containsExactly(1); // the access sets an expiry
      assertThat(forms(cache)).containsExactly(StoredValue.class);

      assertThat(cache.replace("k", new byte[] {1}, new byte[] {2})).isTrue();
      assertThat(cache.replace("k", new byte[] {1}, new byte[] {3})).isFalse();
      assertThat(cache.get("k")).containsExactly(2);
      assertThat(cache.remove("k", new byte[] {2})).isTrue();
      assertThat(cache.containsKey("k")).isFalse();
    }
  }

  @Test
  void anAccessThatMakesAnEntryEternal_movesItBackToItsOwnForm() {
    try (CacheManager manager = Caching.getCachingProvider().getCacheManager()) {
      Cache<String, String> cache =
          manager.createCache("eternal", policy(MINUTE, Duration.ETERNAL));
      cache.put("k", "v");
      assertThat(forms(cache)).containsExactly(StoredValue.class);

      assertThat(cache.get("k")).isEqualTo("v");
      assertThat(forms(cache)).containsExactly(String.class);
      assertThat(cache.getAndReplace("k", "w")).isEqualTo("v");
      assertThat(cache.get("k")).isEqualTo("w");
    }
  }

  @Test
  void everyForm_comesBackAfterARestart() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.toUri();
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<String, Object> eternal = manager.createCache("eternal", new MutableConfiguration<>());
      eternal.put("bytes", new byte[] {1, 2});
      eternal.put("string", "s");
      eternal.put("long", 7L);
      eternal.put("int", 8);
      eternal.put("record", new Point(1, 2));
      Cache<String, Object> timed = manager.createCache("timed", policy(MINUTE, null));
      timed.put("bytes", new byte[] {3});
      timed.put("record", new Point(3, 4));
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<String, Object> eternal = manager.getCache("eternal");
      assertThat((byte[]) eternal.get("bytes")).containsExactly(1, 2);
      assertThat(eternal.get("string")).isEqualTo("s");
      assertThat(eternal.get("long")).isEqualTo(7L);
      assertThat(eternal.get("int")).isEqualTo(8);
      assertThat(eternal.get("record")).isEqualTo(new Point(1, 2));
      Cache<String, Object> timed = manager.getCache("timed");
      assertThat((byte[]) timed.get("bytes")).containsExactly(3);
      assertThat(timed.get("record")).isEqualTo(new Point(3, 4));
      assertThat(forms(timed)).containsOnly(StoredValue.class);
    }
  }

  /**
   * Strings that are not valid Unicode (an unpaired surrogate) are keys of their own and values
   * kept as they were, in every form and after a restart, as in any Java map: not turned into the
   * '?' that {@code getBytes(UTF_8)} writes for the surrogate.
   */
  @Test
  void stringsWithUnpairedSurrogates_comeBackAsTheyWere_asKeysAndValues() {
    CachingProvider provider = Caching.getCachingProvider();
    URI uri = dir.resolve("surrogates").toUri();
    Map<String, String> entries =
        Map.of("a\uD800", "high \uD83D", "a\uDC00", "low \uDE00", "a?", "a question mark");
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<String, String> eternal =
          manager.createCache(
              "eternal",
              new MutableConfiguration<String, String>().setTypes(String.class, String.class));
      Cache<String, Object> timed = manager.createCache("timed", policy(MINUTE, null));
      entries.forEach(eternal::put);
      entries.forEach(timed::put);
    }
    try (CacheManager manager = provider.getCacheManager(uri, provider.getDefaultClassLoader())) {
      Cache<String, String> eternal = manager.getCache("eternal", String.class, String.class);
      Cache<String, Object> timed = manager.getCache("timed");
      entries.forEach(
          (k, v) -> {
            assertThat(eternal.get(k)).as("eternal %s", k).isEqualTo(v);
            assertThat(timed.get(k)).as("timed %s", k).isEqualTo(v);
          });
      List<String> keys = new ArrayList<>();
      eternal.forEach(e -> keys.add(e.getKey()));
      assertThat(keys).containsExactlyInAnyOrderElementsOf(entries.keySet());
    }
  }

  @Test
  void aByteArrayReturned_isTheCallersOwn_everyTime() {
    try (CacheManager manager = Caching.getCachingProvider().getCacheManager()) {
      Cache<Long, byte[]> cache =
          manager.createCache(
              "own", new MutableConfiguration<Long, byte[]>().setTypes(Long.class, byte[].class));
      cache.put(1L, new byte[] {5});
      byte[] first = cache.get(1L);
      byte[] second = cache.get(1L);
      assertThat(first).isNotSameAs(second);
      first[0] = 9;
      assertThat(cache.get(1L)).containsExactly(5);
      assertThat(cache.getAll(java.util.Set.of(1L)).get(1L)).containsExactly(5);
    }
  }

  private static <V> MutableConfiguration<String, V> policy(Duration creation, Duration access) {
    MutableConfiguration<String, V> c = new MutableConfiguration<>();
    c.setExpiryPolicyFactory(FactoryBuilder.factoryOf(new Policy(creation, access)));
    return c;
  }

  /** The classes of the stored forms in the cache's table, one per entry. */
  @SuppressWarnings("unchecked")
  private static List<Class<?>> forms(Cache<?, ?> cache) {
    List<Class<?>> forms = new ArrayList<>();
    for (Map.Entry<byte[], Object> e :
        (CacheTable<byte[], Object>) cache.unwrap(CacheTable.class)) {
      forms.add(e.getValue().getClass());
    }
    return forms;
  }
}
