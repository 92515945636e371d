package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableCacheEntryListenerConfiguration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.event.CacheEntryCreatedListener;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.CacheEntryRemovedListener;
import javax.cache.event.CacheEntryUpdatedListener;
import javax.cache.management.CacheStatisticsMXBean;
import javax.cache.processor.EntryProcessor;
import javax.cache.processor.MutableEntry;
import javax.cache.spi.CachingProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of JCache operations on a persistent Cairn cache against a {@link HashMap}: each
 * operation's result, the events a synchronous listener sees (with old values), the contents by
 * iteration, and, across restarts of the manager, the entries. Statistics keep gets = hits +
 * misses. And {@code invoke} is atomic per key under more threads than cores. Seeds are printed;
 * {@code -Dcairn.seed=S} replays one.
 */
@Timeout(120)
class JCacheModelTest {
  private static final int SEQUENCES = 60;
  private static final int STEPS = 80;
  private static final int KEYS = 6;

  @TempDir Path dir;

  @Test
  void randomOperations_matchAMap_inResultsEventsAndContents_acrossRestarts() {
    long seed = seed("randomOperations");
    for (int s = 0; s < SEQUENCES; s++) {
      new Run(new SplittableRandom(seed + s), dir.resolve("run" + s).toUri(), seed + s, false)
          .run();
    }
  }

  /**
   * The same with read-through and write-through to a map standing for a database: a get of a key
   * the cache lacks loads the database's value, every write reaches the database first, and every
   * entry the cache holds equals the database's after each step, across restarts (the loader and
   * writer come back with the cache). Events are not compared here (loads make some).
   */
  @Test
  void withReadAndWriteThrough_theCacheAgreesWithItsDatabase_acrossRestarts() {
    long seed = seed("withReadAndWriteThrough");
    for (int s = 0; s < SEQUENCES; s++) {
      new Run(new SplittableRandom(seed + s), dir.resolve("through" + s).toUri(), seed + s, true)
          .run();
    }
  }

  /** {@code -Dcairn.seed=S}, or a new seed; printed, so that a failure can be replayed. */
  private static long seed(String test) {
    String fixed = System.getProperty("cairn.seed");
    long seed = fixed != null && !fixed.isBlank() ? Long.parseLong(fixed) : System.nanoTime();
    System.out.println("[seed] JCacheModelTest." + test + " seed=" + seed + " (-Dcairn.seed=S)");
    return seed;
  }

  /** One sequence over one directory: the cache, the map it must equal, what the steps did. */
  private static final class Run {
    private final SplittableRandom random;
    private final URI uri;
    private final long seed;
    private final Map<String, String> model = new HashMap<>();
    private final List<String> steps = new ArrayList<>();
    private final Events events = new Events();
    private final boolean through;
    private final String dbName;
    private final Map<String, String> db = new HashMap<>(); // the database, as the model has it
    private final Map<String, String> database; // the one the loader and writer reach
    private CacheManager manager;
    private Cache<String, String> cache;
    private int written;

    Run(SplittableRandom random, URI uri, long seed, boolean through) {
      this.random = random;
      this.uri = uri;
      this.seed = seed;
      this.through = through;
      this.dbName = uri.toString();
      this.database = Database.named(dbName);
    }

    void run() {
      open(true);
      try {
        for (int i = 0; i < STEPS; i++) {
          List<String> expected = new ArrayList<>();
          String step = step(expected);
          steps.add(i + ": " + step);
          List<String> seen = events.take();
          if (through) {
            assertThat(database).as(context("the database after " + step)).isEqualTo(db);
            model.forEach(
                (key, value) ->
                    assertThat(db.get(key)).as(context("the database's " + key)).isEqualTo(value));
          } else {
            assertThat(sorted(seen)).as(context("events of " + step)).isEqualTo(sorted(expected));
          }
        }
        checkContents("at the end");
      } finally {
        manager.close();
      }
    }

    private void open(boolean create) {
      CachingProvider provider = Caching.getCachingProvider();
      Properties properties = new Properties();
      properties.setProperty(CairnCacheManager.BUDGET_BYTES, String.valueOf(16L << 20));
      manager = provider.getCacheManager(uri, provider.getDefaultClassLoader(), properties);
      if (create) {
        MutableConfiguration<String, String> c =
            new MutableConfiguration<String, String>().setTypes(String.class, String.class);
        c.setStatisticsEnabled(true);
        if (through) {
          c.setReadThrough(true).setWriteThrough(true);
          c.setCacheLoaderFactory(FactoryBuilder.factoryOf(new Database(dbName)));
          c.setCacheWriterFactory(FactoryBuilder.factoryOf(new Database(dbName)));
        }
        cache = manager.createCache("model", c);
      } else {
        cache = manager.getCache("model", String.class, String.class);
        assertThat(cache).as(context("the cache after a restart")).isNotNull();
        manager.enableStatistics("model", true);
      }
      cache.registerCacheEntryListener(
          new MutableCacheEntryListenerConfiguration<>(
              FactoryBuilder.factoryOf(events), null, true, true));
    }

    private String step(List<String> expected) {
      String k = "k" + random.nextInt(KEYS);
      String v = "v" + written++;
      String old = model.get(k);
      int choice = random.nextInt(22);
      switch (choice) {
        case 0, 1 -> {
          String want = old != null || !through ? old : db.get(k); // read-through
          assertThat(cache.get(k)).as(context("get " + k)).isEqualTo(want);
          if (old == null && want != null) {
            model.put(k, want);
          }
          return "get " + k;
        }
        case 2, 3 -> {
          cache.put(k, v);
          written(expected, k, old, v);
          return "put " + k + "=" + v;
        }
        case 4 -> {
          assertThat(cache.getAndPut(k, v)).as(context("getAndPut " + k)).isEqualTo(old);
          written(expected, k, old, v);
          return "getAndPut " + k + "=" + v;
        }
        case 5 -> {
          assertThat(cache.putIfAbsent(k, v))
              .as(context("putIfAbsent " + k))
              .isEqualTo(old == null);
          if (old == null) {
            written(expected, k, null, v);
          }
          return "putIfAbsent " + k + "=" + v;
        }
        case 6 -> {
          assertThat(cache.replace(k, v)).as(context("replace " + k)).isEqualTo(old != null);
          if (old != null) {
            written(expected, k, old, v);
          }
          return "replace " + k + "=" + v;
        }
        case 7 -> {
          String guess = random.nextBoolean() || old == null ? "v" + random.nextInt(written) : old;
          boolean hit = old != null && old.equals(guess);
          assertThat(cache.replace(k, guess, v))
              .as(context("replace " + k + " if " + guess))
              .isEqualTo(hit);
          if (hit) {
            written(expected, k, old, v);
          }
          return "replace " + k + " if " + guess + " with " + v;
        }
        case 8 -> {
          assertThat(cache.getAndReplace(k, v)).as(context("getAndReplace " + k)).isEqualTo(old);
          if (old != null) {
            written(expected, k, old, v);
          }
          return "getAndReplace " + k + "=" + v;
        }
        case 9, 10 -> {
          assertThat(cache.remove(k)).as(context("remove " + k)).isEqualTo(old != null);
          removed(expected, k, old);
          deleted(k); // write-through deletes whether or not the cache held it
          return "remove " + k;
        }
        case 11 -> {
          String guess = random.nextBoolean() || old == null ? "v" + random.nextInt(written) : old;
          boolean hit = old != null && old.equals(guess);
          assertThat(cache.remove(k, guess))
              .as(context("remove " + k + " if " + guess))
              .isEqualTo(hit);
          if (hit) {
            removed(expected, k, old);
          }
          return "remove " + k + " if " + guess;
        }
        case 12 -> {
          assertThat(cache.getAndRemove(k)).as(context("getAndRemove " + k)).isEqualTo(old);
          removed(expected, k, old);
          deleted(k);
          return "getAndRemove " + k;
        }
        case 13 -> {
          assertThat(cache.containsKey(k)).as(context("containsKey " + k)).isEqualTo(old != null);
          return "containsKey " + k;
        }
        case 14 -> {
          Map<String, String> batch = new TreeMap<>();
          for (int i = random.nextInt(1, 4); i > 0; i--) {
            batch.put("k" + random.nextInt(KEYS), "v" + written++);
          }
          cache.putAll(batch);
          batch.forEach((bk, bv) -> written(expected, bk, model.get(bk), bv));
          return "putAll " + batch;
        }
        case 15 -> {
          Set<String> keys = someKeys();
          Map<String, String> present = new HashMap<>();
          for (String key : keys) {
            String value = model.containsKey(key) || !through ? model.get(key) : db.get(key);
            if (value != null) {
              present.put(key, value);
            }
          }
          assertThat(cache.getAll(keys)).as(context("getAll " + keys)).isEqualTo(present);
          model.putAll(present); // what read-through loaded is cached
          return "getAll " + keys;
        }
        case 16 -> {
          Set<String> keys = someKeys();
          cache.removeAll(keys);
          keys.forEach(key -> removed(expected, key, model.get(key)));
          keys.forEach(this::deleted);
          return "removeAll " + keys;
        }
        case 17 -> {
          int mode = random.nextInt(3);
          if (through && mode == ReadSetOrRemove.REMOVE && old == null) {
            mode = ReadSetOrRemove.READ; // what a writer hears of removing nothing is not modelled
          }
          String result = cache.invoke(k, new ReadSetOrRemove(), mode, v);
          assertThat(result).as(context("invoke " + mode + " on " + k)).isEqualTo(old);
          if (mode == ReadSetOrRemove.SET) {
            written(expected, k, old, v);
          } else if (mode == ReadSetOrRemove.REMOVE) {
            removed(expected, k, old);
          }
          return "invoke " + (mode == 0 ? "read" : mode == 1 ? "set " + v : "remove") + " " + k;
        }
        case 18 -> {
          if (random.nextInt(4) == 0) {
            cache.clear(); // no events
            model.clear();
            return "clear";
          }
          for (String key : new ArrayList<>(model.keySet())) {
            removed(expected, key, model.get(key));
          }
          cache.removeAll();
          return "removeAll";
        }
        case 19 -> {
          checkContents("by iteration");
          CacheStatisticsMXBean s = cache.unwrap(CairnJCache.class).statistics();
          assertThat(s.getCacheGets())
              .as(context("gets = hits + misses"))
              .isEqualTo(s.getCacheHits() + s.getCacheMisses());
          return "iterate";
        }
        default -> {
          events.take();
          manager.close();
          open(false);
          checkContents("after a restart");
          return "restart";
        }
      }
    }

    private void written(List<String> expected, String k, String old, String v) {
      expected.add(old == null ? "created " + k + "=" + v : "updated " + k + " " + old + "->" + v);
      model.put(k, v);
      if (through) {
        db.put(k, v);
      }
    }

    private void removed(List<String> expected, String k, String old) {
      if (old != null) {
        expected.add("removed " + k);
        model.remove(k);
        deleted(k);
      }
    }

    /** What write-through deleted from the database. */
    private void deleted(String k) {
      if (through) {
        db.remove(k);
      }
    }

    private Set<String> someKeys() {
      Set<String> keys = new HashSet<>();
      for (int i = random.nextInt(1, 4); i > 0; i--) {
        keys.add("k" + random.nextInt(KEYS));
      }
      return keys;
    }

    private void checkContents(String when) {
      Map<String, String> seen = new HashMap<>();
      for (Cache.Entry<String, String> e : cache) {
        assertThat(seen.put(e.getKey(), e.getValue())).as(context("iterated twice")).isNull();
      }
      assertThat(seen).as(context("contents " + when)).isEqualTo(model);
    }

    private String context(String what) {
      return what + " (seed " + seed + ", steps " + steps + ", model " + new TreeMap<>(model) + ")";
    }

    private static List<String> sorted(List<String> events) {
      List<String> copy = new ArrayList<>(events);
      copy.sort(null);
      return copy;
    }
  }

  /**
   * A synchronous listener of created, updated (with the old value) and removed events; its calls
   * come on the writing thread, before the write returns.
   */
  static final class Events
      implements CacheEntryCreatedListener<String, String>,
          CacheEntryUpdatedListener<String, String>,
          CacheEntryRemovedListener<String, String>,
          Serializable {
    private static final long serialVersionUID = 1L;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void onCreated(Iterable<CacheEntryEvent<? extends String, ? extends String>> es) {
      es.forEach(e -> seen.add("created " + e.getKey() + "=" + e.getValue()));
    }

    @Override
    public void onUpdated(Iterable<CacheEntryEvent<? extends String, ? extends String>> es) {
      es.forEach(
          e -> seen.add("updated " + e.getKey() + " " + e.getOldValue() + "->" + e.getValue()));
    }

    @Override
    public void onRemoved(Iterable<CacheEntryEvent<? extends String, ? extends String>> es) {
      es.forEach(e -> seen.add("removed " + e.getKey()));
    }

    List<String> take() {
      List<String> out = new ArrayList<>(seen);
      seen.clear();
      return out;
    }
  }

  /**
   * A database for read-through and write-through: a map found by name, so that the loader and
   * writer a restarted manager deserializes reach the same one. Keeps what it is told; the test
   * keeps its own model of it.
   */
  static final class Database
      implements javax.cache.integration.CacheLoader<String, String>,
          javax.cache.integration.CacheWriter<String, String>,
          Serializable {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Map<String, String>> ALL =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final String name;

    Database(String name) {
      this.name = name;
    }

    /** The database's contents, as the test sees them. */
    static Map<String, String> named(String name) {
      return ALL.computeIfAbsent(name, n -> new java.util.concurrent.ConcurrentHashMap<>());
    }

    @Override
    public String load(String key) {
      return named(name).get(key);
    }

    @Override
    public Map<String, String> loadAll(Iterable<? extends String> keys) {
      Map<String, String> found = new HashMap<>();
      for (String key : keys) {
        String value = load(key);
        if (value != null) {
          found.put(key, value);
        }
      }
      return found;
    }

    @Override
    public void write(Cache.Entry<? extends String, ? extends String> entry) {
      named(name).put(entry.getKey(), entry.getValue());
    }

    @Override
    public void writeAll(java.util.Collection<Cache.Entry<? extends String, ? extends String>> es) {
      es.forEach(this::write);
      es.clear(); // all written
    }

    @Override
    public void delete(Object key) {
      named(name).remove(key);
    }

    @Override
    public void deleteAll(java.util.Collection<?> keys) {
      keys.forEach(this::delete);
      keys.clear(); // all deleted
    }
  }

  /** Reads, sets or removes the entry; returns the value it found. */
  static final class ReadSetOrRemove
      implements EntryProcessor<String, String, String>, Serializable {
    static final int READ = 0;
    static final int SET = 1;
    static final int REMOVE = 2;
    private static final long serialVersionUID = 1L;

    @Override
    public String process(MutableEntry<String, String> entry, Object... arguments) {
      String found = entry.exists() ? entry.getValue() : null;
      int mode = (Integer) arguments[0];
      if (mode == SET) {
        entry.setValue((String) arguments[1]);
      } else if (mode == REMOVE) {
        entry.remove();
      }
      return found;
    }
  }

  /**
   * Four threads on two cores add to eight counters, half by {@code invoke}, half by a
   * compare-and-set loop of {@code replace}: no increment is lost, so both are atomic per key.
   */
  @Test
  void invokeAndReplace_areAtomicPerKey_underMoreThreadsThanCores() throws Exception {
    try (CacheManager manager = Caching.getCachingProvider().getCacheManager()) {
      Cache<Long, Long> counters =
          manager.createCache(
              "counters", new MutableConfiguration<Long, Long>().setTypes(Long.class, Long.class));
      int threads = 4;
      int perThread = 2_000;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int id = t;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < perThread; i++) {
                      long key = (long) (i + id) % 8;
                      if ((i & 1) == 0) {
                        counters.invoke(key, new Increment());
                      } else {
                        while (true) {
                          Long now = counters.get(key);
                          if (now == null
                              ? counters.putIfAbsent(key, 1L)
                              : counters.replace(key, now, now + 1)) {
                            break;
                          }
                        }
                      }
                    }
                  }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      long sum = 0;
      for (long key = 0; key < 8; key++) {
        sum += counters.get(key);
      }
      assertThat(sum).isEqualTo((long) threads * perThread);
    }
  }

  /** Adds one to the entry, 1 if absent. */
  static final class Increment implements EntryProcessor<Long, Long, Void>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Void process(MutableEntry<Long, Long> entry, Object... arguments) {
      entry.setValue(entry.exists() ? entry.getValue() + 1 : 1L);
      return null;
    }
  }
}
