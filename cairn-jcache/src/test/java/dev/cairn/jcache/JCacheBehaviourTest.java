package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableCacheEntryListenerConfiguration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.event.CacheEntryCreatedListener;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.CacheEntryExpiredListener;
import javax.cache.event.CacheEntryListenerException;
import javax.cache.event.CacheEntryUpdatedListener;
import javax.cache.expiry.Duration;
import javax.cache.expiry.ExpiryPolicy;
import javax.cache.integration.CacheLoader;
import javax.cache.integration.CacheWriter;
import javax.cache.management.CacheStatisticsMXBean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What JSR-107 asks and its TCK does not check (shared/design/cache.md, "JCache pitfalls"): zero
 * and failing expiry, the statistics' rules, per-key event order, and calls back into the cache
 * from listeners and loaders.
 */
@Timeout(60)
class JCacheBehaviourTest {
  private CacheManager manager;

  @BeforeEach
  void open() {
    manager = Caching.getCachingProvider().getCacheManager();
  }

  @AfterEach
  void close() {
    for (String name : manager.getCacheNames()) {
      manager.destroyCache(name);
    }
  }

  // ---------------------------------------------------------------------------------- refusals

  /** A manager of its own at {@code uri}, whose caches share a budget of 1 MiB. */
  private static CacheManager managerOfOneMebibyte(String uri) {
    javax.cache.spi.CachingProvider provider = Caching.getCachingProvider();
    java.util.Properties small = new java.util.Properties();
    small.setProperty(CairnCacheManager.BUDGET_BYTES, String.valueOf(1L << 20));
    return provider.getCacheManager(
        java.net.URI.create(uri), provider.getDefaultClassLoader(), small);
  }

  /**
   * A write Cairn refuses (an entry larger than the whole budget) raises JCache's CacheException,
   * "a problem doing the put", with Cairn's refusal as its cause, on the blind path of a Long key
   * and on the general one; the entry keeps its value and the cache stays usable.
   */
  @Test
  void aWriteCairnRefuses_raisesJCachesCacheException_andChangesNothing() {
    try (CacheManager bounded = managerOfOneMebibyte("cairn:refusals")) {
      Cache<Long, byte[]> blind =
          bounded.createCache(
              "blind", new MutableConfiguration<Long, byte[]>().setTypes(Long.class, byte[].class));
      Cache<String, byte[]> general =
          bounded.createCache(
              "general",
              new MutableConfiguration<String, byte[]>().setTypes(String.class, byte[].class));
      blind.put(1L, new byte[] {1});
      general.put("k", new byte[] {2});

      assertThatThrownBy(() -> blind.put(1L, new byte[2 << 20]))
          .isExactlyInstanceOf(javax.cache.CacheException.class)
          .hasCauseInstanceOf(dev.cairn.cache.EntryTooLargeException.class)
          .hasMessageContaining("whole budget");
      assertThatThrownBy(() -> general.put("k", new byte[2 << 20]))
          .isExactlyInstanceOf(javax.cache.CacheException.class)
          .hasCauseInstanceOf(dev.cairn.cache.EntryTooLargeException.class);
      assertThatThrownBy(() -> general.getAndPut("k", new byte[2 << 20]))
          .isExactlyInstanceOf(javax.cache.CacheException.class);

      assertThat(blind.get(1L)).containsExactly(1);
      assertThat(general.get("k")).containsExactly(2);
      general.put("k", new byte[] {3});
      assertThat(general.get("k")).containsExactly(3);
    }
  }

  /**
   * A get whose access would move the entry's expiry, where storing the new expiry is refused (the
   * budget full of pinned entries), returns the value all the same and leaves the entry as it was:
   * a read does not fail for a write JCache makes on its own.
   */
  @Test
  void aGetWhoseNewExpiryCairnRefuses_returnsTheValue_andLeavesTheEntry() {
    try (CacheManager bounded = managerOfOneMebibyte("cairn:refused-access")) {
      CairnConfiguration<String, byte[]> c =
          new CairnConfiguration<String, byte[]>().setPinned(true);
      c.setTypes(String.class, byte[].class);
      c.setExpiryPolicyFactory(
          FactoryBuilder.factoryOf(Policy.of(null, null, new Duration(TimeUnit.MINUTES, 1))));
      Cache<String, byte[]> cache = bounded.createCache("pinned", c);
      int low = 1; // the largest value the budget keeps, by bisection: no room is left after it
      int high = 1 << 20;
      while (low < high) {
        int size = (low + high + 1) >>> 1;
        try {
          cache.put("k", new byte[size]); // eternal: stored as itself, with no expiry in front
          low = size;
        } catch (javax.cache.CacheException noRoom) {
          high = size - 1;
        }
      }
      int largest = low;
      cache.put("k", new byte[largest]);
      assertThatThrownBy(() -> cache.put("k", new byte[largest + 8]))
          .as("the budget holds no more")
          .isInstanceOf(javax.cache.CacheException.class);

      assertThat(cache.get("k")).as("its new expiry refused, the value read").hasSize(largest);
      assertThat(cache.get("k")).hasSize(largest);
      assertThat(cache.containsKey("k")).isTrue();
      cache.put("k", new byte[] {8});
      assertThat(cache.get("k")).containsExactly(8);
    }
  }

  /**
   * A {@code file:} URI whose path Cairn cannot open as a cache (a file, a plain pile's directory)
   * fails the manager's creation with JCache's CacheException, saying why; the pile is untouched.
   */
  @Test
  void aFileUriThatIsNoCache_failsWithCacheException_sayingWhy(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
    javax.cache.spi.CachingProvider provider = Caching.getCachingProvider();
    java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("a-file"), "x");
    assertThatThrownBy(
            () -> provider.getCacheManager(file.toUri(), provider.getDefaultClassLoader()))
        .isInstanceOf(javax.cache.CacheException.class)
        .hasMessageContaining("not a directory");
    java.nio.file.Path pileDir = dir.resolve("pile");
    try (dev.cairn.pile.Pile pile =
        dev.cairn.pile.Pile.open(pileDir, dev.cairn.pile.PileOptions.defaults())) {
      pile.put("mine");
    }
    assertThatThrownBy(
            () -> provider.getCacheManager(pileDir.toUri(), provider.getDefaultClassLoader()))
        .isInstanceOf(javax.cache.CacheException.class)
        .hasCauseInstanceOf(dev.cairn.pile.ForeignPileException.class)
        .hasMessageContaining("Pile.open");
    try (dev.cairn.pile.Pile pile =
        dev.cairn.pile.Pile.open(pileDir, dev.cairn.pile.PileOptions.defaults())) {
      assertThat(pile.stats().objectCount()).isOne();
    }
  }

  // ------------------------------------------------------------------------------------ expiry

  @Test
  void aZeroExpiryOnCreation_storesNothing_butWritesAndTellsExpired() {
    Recorder events = new Recorder();
    Writes writes = new Writes();
    MutableConfiguration<String, String> c =
        config(Policy.of(Duration.ZERO, null, null)).setWriteThrough(true);
    c.setCacheWriterFactory(FactoryBuilder.factoryOf(writes));
    c.setStatisticsEnabled(true);
    Cache<String, String> cache = manager.createCache("zero-create", listen(c, events, true));

    cache.put("k", "v");

    assertThat(cache.containsKey("k")).isFalse();
    assertThat(cache.get("k")).isNull();
    assertThat(writes.written).containsExactly("k=v");
    assertThat(events.seen).containsExactly("EXPIRED k=v");
    assertThat(statistics(cache).getCachePuts()).isZero();
  }

  @Test
  void aZeroExpiryOnUpdate_updatesThenExpires() {
    Recorder events = new Recorder();
    Cache<String, String> cache =
        manager.createCache(
            "zero-update", listen(config(Policy.of(null, Duration.ZERO, null)), events, true));

    cache.put("k", "v1");
    cache.put("k", "v2");

    assertThat(cache.containsKey("k")).isFalse();
    assertThat(events.seen).containsExactly("CREATED k=v1", "UPDATED k=v2", "EXPIRED k=v2");
  }

  @Test
  void aPolicyThatThrows_leavesTheExpiryAsItWas() throws InterruptedException {
    Cache<String, String> eternal =
        manager.createCache("throws-on-create", config(Policy.throwing(true, false, false)));
    eternal.put("k", "v");
    assertThat(eternal.get("k")).as("a failed creation duration is eternal").isEqualTo("v");

    Cache<String, String> cache =
        manager.createCache(
            "throws-on-update",
            config(
                Policy.of(new Duration(TimeUnit.MILLISECONDS, 300), null, null)
                    .throwingOnUpdate()));
    long created = System.currentTimeMillis();
    cache.put("k", "v1");
    cache.put("k", "v2"); // the update's duration throws: the entry keeps its creation expiry
    assertThat(cache.get("k")).isIn("v2", null);
    while (System.currentTimeMillis() < created + 600) {
      Thread.sleep(20);
    }
    assertThat(cache.get("k")).as("expired at its creation expiry").isNull();
  }

  // -------------------------------------------------------------------------------- statistics

  @Test
  void statistics_followTheSpecification() {
    MutableConfiguration<String, String> c = config(null);
    c.setStatisticsEnabled(true);
    c.setReadThrough(true);
    c.setCacheLoaderFactory(FactoryBuilder.factoryOf(new Loads()));
    Cache<String, String> cache = manager.createCache("statistics", c);
    CacheStatisticsMXBean s = statistics(cache);

    assertThat(cache.get("loaded")).isEqualTo("value of loaded");
    assertThat(s.getCacheMisses()).as("a read-through get that loads is a miss").isEqualTo(1);
    assertThat(cache.get("loaded")).isEqualTo("value of loaded");
    assertThat(s.getCacheHits()).isEqualTo(1);

    assertThat(cache.putIfAbsent("absent", "v")).isTrue();
    assertThat(s.getCacheMisses()).as("putIfAbsent of an absent key is a miss").isEqualTo(2);
    assertThat(cache.putIfAbsent("absent", "w")).isFalse();
    assertThat(s.getCacheHits()).as("putIfAbsent of a present key is a hit").isEqualTo(2);

    assertThat(s.getCacheGets()).isEqualTo(s.getCacheHits() + s.getCacheMisses());
    assertThat(s.getCachePuts()).isEqualTo(1);
  }

  // ------------------------------------------------------------------------------------ events

  @Test
  void eachListener_seesAKeysChangesInTheirOrder() throws Exception {
    Recorder sync = new Recorder();
    Recorder async = new Recorder();
    MutableConfiguration<String, Integer> c = new MutableConfiguration<>();
    c.setTypes(String.class, Integer.class);
    c.addCacheEntryListenerConfiguration(
        new MutableCacheEntryListenerConfiguration<>(
            FactoryBuilder.factoryOf(sync), null, false, true));
    c.addCacheEntryListenerConfiguration(
        new MutableCacheEntryListenerConfiguration<>(
            FactoryBuilder.factoryOf(async), null, false, false));
    Cache<String, Integer> cache = manager.createCache("order", c);
    int threads = 4; // more threads than the machine's cores
    int each = 500;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < each; i++) {
                  cache.invoke(
                      "counter",
                      (entry, args) -> {
                        Integer v = entry.getValue();
                        entry.setValue(v == null ? 1 : v + 1);
                        return null;
                      });
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (async.seen.size() < threads * each && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    List<String> expected = new ArrayList<>();
    expected.add("CREATED counter=1");
    for (int v = 2; v <= threads * each; v++) {
      expected.add("UPDATED counter=" + v);
    }
    assertThat(sync.seen).as("synchronous").containsExactlyElementsOf(expected);
    assertThat(async.seen).as("asynchronous").containsExactlyElementsOf(expected);
  }

  /**
   * A blind put, of a Long key or any other, takes no lock of the provider's, only the table's key
   * lock, which an entry processor holds through its read and its write (CairnJCache J1, J6): so no
   * put is lost between an invoke's read and its write. Each put stores a marker; the next invoke
   * after it returns must see that marker, else the invoke overwrote it with its increment of an
   * older value.
   */
  @Test
  void aBlindPut_isNeverLostInsideAnInvoke() throws Exception {
    assertNoBlindPutLost(
        manager.createCache(
            "blind", new MutableConfiguration<Long, Long>().setTypes(Long.class, Long.class)),
        42L);
    assertNoBlindPutLost(
        manager.createCache(
            "blind strings",
            new MutableConfiguration<String, Long>().setTypes(String.class, Long.class)),
        "forty-two");
  }

  private static <K> void assertNoBlindPutLost(Cache<K, Long> cache, K key) throws Exception {
    int puts = 2_000;
    List<Long> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger invokes = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(1);
    Thread incrementer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    while (done.getCount() > 0) {
                      seen.add(
                          cache.invoke(
                              key,
                              (entry, args) -> {
                                long v = entry.exists() ? entry.getValue() : 0;
                                entry.setValue(v + 1);
                                return v;
                              }));
                      invokes.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failure.set(e);
                  }
                });
    try {
      for (int r = 1; r <= puts; r++) {
        cache.put(key, -1_000_000L * r); // blind: eternal, no listener, no writer
        int after = invokes.get();
        while (invokes.get() < after + 2 && incrementer.isAlive()) { // a whole invoke after it
          Thread.onSpinWait();
        }
      }
    } finally {
      done.countDown();
      incrementer.join();
    }
    assertThat(failure.get()).as("the invoking thread's failure").isNull();
    Set<Long> copy;
    synchronized (seen) {
      copy = new HashSet<>(seen);
    }
    for (int r = 1; r <= puts; r++) {
      assertThat(copy).as("the put of round %d, seen by an invoke", r).contains(-1_000_000L * r);
    }
  }

  @Test
  void aListenerAndALoader_mayCallTheCacheAgain_onTheSameKey() {
    MutableConfiguration<String, String> c = config(null);
    c.setReadThrough(true);
    c.setCacheLoaderFactory(FactoryBuilder.factoryOf(new Loads()));
    Cache<String, String> cache = manager.createCache("reentrant", c);
    ReentrantListener listener = new ReentrantListener();
    ReentrantListener.cache = cache;
    cache.registerCacheEntryListener(
        new MutableCacheEntryListenerConfiguration<>(
            FactoryBuilder.factoryOf(listener), null, true, true));

    cache.put("k", "v"); // the listener reads k and writes k-seen
    assertThat(cache.get("k-seen")).isEqualTo("v");
    assertThat(cache.get("loaded")).isEqualTo("value of loaded"); // its CREATED: the same
    assertThat(cache.get("loaded-seen")).isEqualTo("value of loaded");
  }

  @Test
  void aSynchronousListenerThatThrows_reachesTheCaller_afterTheChange() {
    MutableConfiguration<String, String> c = config(null);
    Cache<String, String> cache = manager.createCache("broken-listener", c);
    cache.registerCacheEntryListener(
        new MutableCacheEntryListenerConfiguration<>(
            FactoryBuilder.factoryOf(new Throws()), null, false, true));

    assertThatThrownBy(() -> cache.put("k", "v")).isInstanceOf(CacheEntryListenerException.class);
    assertThat(cache.get("k")).isEqualTo("v");
  }

  @Test
  void valuesAreStoredByValue() {
    MutableConfiguration<String, byte[]> c = new MutableConfiguration<>();
    c.setTypes(String.class, byte[].class);
    Cache<String, byte[]> cache = manager.createCache("by-value", c);
    byte[] value = {1, 2, 3};
    cache.put("k", value);
    value[0] = 9;
    byte[] read = cache.get("k");
    assertThat(read).containsExactly(1, 2, 3);
    read[1] = 9;
    assertThat(cache.get("k")).containsExactly(1, 2, 3);
  }

  @Test
  void longKeys_andOtherKeysOfEightBytes_areDistinct_throughEveryPath() {
    Cache<Object, Object> cache = manager.createCache("mixed", new MutableConfiguration<>());
    // "abcdefg" and a 7-byte array encode to 8 bytes with their tag: padded, never a Long
    long asLong =
        java.nio.ByteBuffer.wrap(new byte[] {1, 'a', 'b', 'c', 'd', 'e', 'f', 'g'}).getLong();
    cache.put("abcdefg", "the string");
    cache.put(asLong, "the long"); // the fast path (J8)
    cache.put(new byte[] {1, 2, 3, 4, 5, 6, 7}, "the array");
    cache.put(7L, "seven");
    assertThat(cache.get("abcdefg")).isEqualTo("the string");
    assertThat(cache.get(asLong)).isEqualTo("the long");
    assertThat(cache.get(7L)).isEqualTo("seven");
    assertThat(cache.getAndPut(7L, "SEVEN")).as("the slow path, same entry").isEqualTo("seven");
    assertThat(cache.get(7L)).isEqualTo("SEVEN");
    assertThat(cache.remove(asLong)).isTrue();
    assertThat(cache.get(asLong)).isNull();
    java.util.Map<Object, Object> all = new java.util.HashMap<>();
    for (Cache.Entry<Object, Object> e : cache) {
      all.put(
          e.getKey() instanceof byte[] b ? java.util.Arrays.toString(b) : e.getKey(), e.getValue());
    }
    assertThat(all)
        .containsOnly(
            java.util.Map.entry("abcdefg", "the string"),
            java.util.Map.entry("[1, 2, 3, 4, 5, 6, 7]", "the array"),
            java.util.Map.entry(7L, "SEVEN"));
  }

  // ---------------------------------------------------------------------------------- helpers

  private static MutableConfiguration<String, String> config(Policy policy) {
    MutableConfiguration<String, String> c = new MutableConfiguration<>();
    c.setTypes(String.class, String.class);
    if (policy != null) {
      c.setExpiryPolicyFactory(FactoryBuilder.factoryOf(policy));
    }
    return c;
  }

  private static <K, V> MutableConfiguration<K, V> listen(
      MutableConfiguration<K, V> c, Recorder recorder, boolean synchronous) {
    c.addCacheEntryListenerConfiguration(
        new MutableCacheEntryListenerConfiguration<K, V>(
            FactoryBuilder.factoryOf(recorder), null, true, synchronous));
    return c;
  }

  private CacheStatisticsMXBean statistics(Cache<?, ?> cache) {
    return cache.unwrap(CairnJCache.class).statistics();
  }

  /** An expiry policy of fixed durations (null: unchanged), or one that throws. */
  record Policy(Duration creation, Duration update, Duration access, boolean[] throwing)
      implements ExpiryPolicy, Serializable {
    static Policy of(Duration creation, Duration update, Duration access) {
      return new Policy(creation, update, access, new boolean[3]);
    }

    static Policy throwing(boolean creation, boolean update, boolean access) {
      return new Policy(null, null, null, new boolean[] {creation, update, access});
    }

    Policy throwingOnUpdate() {
      return new Policy(creation, update, access, new boolean[] {false, true, false});
    }

    @Override
    public Duration getExpiryForCreation() {
      if (throwing[0]) {
        throw new IllegalStateException("a broken policy");
      }
      return creation == null ? Duration.ETERNAL : creation;
    }

    @Override
    public Duration getExpiryForAccess() {
      if (throwing[2]) {
        throw new IllegalStateException("a broken policy");
      }
      return access;
    }

    @Override
    public Duration getExpiryForUpdate() {
      if (throwing[1]) {
        throw new IllegalStateException("a broken policy");
      }
      return update;
    }
  }

  /** Records "TYPE key=value" of every event it is told of. */
  static final class Recorder
      implements CacheEntryCreatedListener<Object, Object>,
          CacheEntryUpdatedListener<Object, Object>,
          CacheEntryExpiredListener<Object, Object>,
          javax.cache.event.CacheEntryRemovedListener<Object, Object>,
          Serializable {
    final List<String> seen = new CopyOnWriteArrayList<>();

    private void record(Iterable<CacheEntryEvent<?, ?>> events) {
      for (CacheEntryEvent<?, ?> e : events) {
        seen.add(e.getEventType() + " " + e.getKey() + "=" + e.getValue());
      }
    }

    @Override
    public void onCreated(Iterable<CacheEntryEvent<?, ?>> events) {
      record(events);
    }

    @Override
    public void onUpdated(Iterable<CacheEntryEvent<?, ?>> events) {
      record(events);
    }

    @Override
    public void onExpired(Iterable<CacheEntryEvent<?, ?>> events) {
      record(events);
    }

    @Override
    public void onRemoved(Iterable<CacheEntryEvent<?, ?>> events) {
      record(events);
    }
  }

  /** On each creation, reads the key back and stores its value under "KEY-seen". */
  static final class ReentrantListener
      implements CacheEntryCreatedListener<String, String>, Serializable {
    static volatile Cache<String, String> cache;

    @Override
    public void onCreated(Iterable<CacheEntryEvent<? extends String, ? extends String>> events) {
      for (CacheEntryEvent<? extends String, ? extends String> e : events) {
        if (!e.getKey().endsWith("-seen")) {
          assertThat(cache.get(e.getKey())).isEqualTo(e.getValue());
          cache.put(e.getKey() + "-seen", e.getValue());
        }
      }
    }
  }

  /** A listener that fails. */
  static final class Throws implements CacheEntryCreatedListener<String, String>, Serializable {
    @Override
    public void onCreated(Iterable<CacheEntryEvent<? extends String, ? extends String>> events) {
      throw new IllegalStateException("a broken listener");
    }
  }

  /** Loads "value of KEY". */
  static final class Loads implements CacheLoader<String, String>, Serializable {
    @Override
    public String load(String key) {
      return "value of " + key;
    }

    @Override
    public Map<String, String> loadAll(Iterable<? extends String> keys) {
      Map<String, String> m = new java.util.HashMap<>();
      for (String k : keys) {
        m.put(k, load(k));
      }
      return m;
    }
  }

  /** Records what it writes as "key=value". */
  static final class Writes implements CacheWriter<String, String>, Serializable {
    final List<String> written = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger deletes = new AtomicInteger();

    @Override
    public void write(Cache.Entry<? extends String, ? extends String> entry) {
      written.add(entry.getKey() + "=" + entry.getValue());
    }

    @Override
    public void writeAll(java.util.Collection<Cache.Entry<? extends String, ? extends String>> es) {
      for (var it = es.iterator(); it.hasNext(); ) {
        write(it.next());
        it.remove();
      }
    }

    @Override
    public void delete(Object key) {
      deletes.incrementAndGet();
    }

    @Override
    public void deleteAll(java.util.Collection<?> keys) {
      for (var it = keys.iterator(); it.hasNext(); ) {
        delete(it.next());
        it.remove();
      }
    }
  }
}
