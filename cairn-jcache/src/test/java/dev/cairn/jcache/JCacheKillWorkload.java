package dev.cairn.jcache;

import java.io.PrintStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.expiry.CreatedExpiryPolicy;
import javax.cache.expiry.Duration;

/**
 * The child of {@link JCacheKillNineTest}: writes through JCache to a persistent {@code SYNC}
 * manager from several threads until it is killed, and says on stdout what each write is and when
 * it returned. Three caches, one for each of the provider's stored forms: {@code longs} ({@code
 * Long} keys, the table's long view), {@code objects} (records by Java serialization, their class
 * descriptors kept by the manager) and {@code timed} (an expiry policy: values with their expiry in
 * front). Each thread owns its keys, so a key's lines are in the order of its writes.
 *
 * <p>Protocol, one line each: {@code READY} once the caches exist; {@code W <cache> <key> <value>}
 * before a write ({@code -} for a remove), {@code A <cache> <key>} once it returned. A value is
 * written as its {@code toString}.
 *
 * <p>Arguments: DIR SEED THREADS.
 */
public final class JCacheKillWorkload {
  private JCacheKillWorkload() {}

  /** A value of the objects cache: a record the manager stores by Java serialization. */
  public record Point(int x, int y) implements Serializable {}

  /** A second record, with a list: a second class descriptor, and one for the list's class. */
  public record Order(long id, List<String> lines) implements Serializable {}

  static URI uri(Path dir) {
    return dir.toUri();
  }

  static Properties properties() {
    Properties p = new Properties();
    p.setProperty(CairnCacheManager.DURABILITY, "SYNC");
    p.setProperty(CairnCacheManager.LOG_FILE_BYTES, Integer.toString(4 << 20));
    p.setProperty(CairnCacheManager.LOG_FILE_COUNT, "2");
    p.setProperty(CairnCacheManager.HUGE_PAGES, "false");
    p.setProperty(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS, "300");
    return p;
  }

  static CacheManager manager(Path dir) {
    return Caching.getCachingProvider(CairnCachingProvider.class.getName())
        .getCacheManager(uri(dir), JCacheKillWorkload.class.getClassLoader(), properties());
  }

  static Cache<Long, String> longs(CacheManager manager) {
    return cache(
        manager, "longs", new MutableConfiguration<Long, String>(), Long.class, String.class);
  }

  static Cache<String, Object> objects(CacheManager manager) {
    return cache(
        manager, "objects", new MutableConfiguration<String, Object>(), String.class, Object.class);
  }

  static Cache<String, String> timed(CacheManager manager) {
    return cache(
        manager,
        "timed",
        new MutableConfiguration<String, String>()
            .setExpiryPolicyFactory(
                FactoryBuilder.factoryOf(new CreatedExpiryPolicy(Duration.ONE_DAY))),
        String.class,
        String.class);
  }

  /** The manager's cache {@code name}, made with {@code config} and those types if it has none. */
  private static <K, V> Cache<K, V> cache(
      CacheManager manager,
      String name,
      MutableConfiguration<K, V> config,
      Class<K> keyType,
      Class<V> valueType) {
    Cache<K, V> c = manager.getCache(name, keyType, valueType);
    return c != null ? c : manager.createCache(name, config.setTypes(keyType, valueType));
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    int threads = Integer.parseInt(args[2]);
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    CacheManager manager = manager(dir);
    Cache<Long, String> longs = longs(manager);
    Cache<String, Object> objects = objects(manager);
    Cache<String, String> timed = timed(manager);
    out.println("READY");
    out.flush();
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      int id = w;
      SplittableRandom random = new SplittableRandom(seed + w);
      workers.add(
          Thread.ofPlatform()
              .unstarted(
                  () -> {
                    for (long n = 0; ; n++) {
                      int cache = random.nextInt(3);
                      int op = random.nextInt(8); // 0: remove, 1: invoke, else put
                      int k = random.nextInt(500);
                      String tag = seed + "/" + n;
                      switch (cache) {
                        case 0 -> {
                          long key = id * 1_000_000L + k;
                          String value = op == 0 ? null : tag + "-".repeat(random.nextInt(30));
                          announce(out, "longs", Long.toString(key), value);
                          if (value == null) {
                            longs.remove(key);
                          } else {
                            longs.put(key, value);
                          }
                          acknowledge(out, "longs", Long.toString(key));
                        }
                        case 1 -> {
                          String key = id + "-" + k;
                          Object value =
                              op == 0
                                  ? null
                                  : random.nextBoolean()
                                      ? new Point(random.nextInt(), (int) n)
                                      : new Order(n, List.of(tag, "x".repeat(random.nextInt(9))));
                          announce(out, "objects", key, value == null ? null : value.toString());
                          if (value == null) {
                            objects.remove(key);
                          } else {
                            objects.put(key, value);
                          }
                          acknowledge(out, "objects", key);
                        }
                        default -> {
                          String key = id + "-" + k;
                          if (op == 1) {
                            // an entry processor: the value with one more '+', or "+" if none
                            String old = timed.get(key);
                            String next = old == null ? "+" : old + "+";
                            announce(out, "timed", key, next);
                            String made =
                                timed.invoke(
                                    key,
                                    (entry, a) -> {
                                      String v = entry.exists() ? entry.getValue() + "+" : "+";
                                      entry.setValue(v);
                                      return v;
                                    });
                            if (!next.equals(made)) {
                              throw new AssertionError(key + ": " + made + " after " + old);
                            }
                          } else {
                            String value = op == 0 ? null : tag;
                            announce(out, "timed", key, value);
                            if (value == null) {
                              timed.remove(key);
                            } else {
                              timed.put(key, value);
                            }
                          }
                          acknowledge(out, "timed", key);
                        }
                      }
                    }
                  }));
    }
    workers.forEach(Thread::start);
    for (Thread t : workers) {
      t.join();
    }
  }

  private static void announce(PrintStream out, String cache, String key, String value) {
    synchronized (out) {
      out.println("W " + cache + " " + key + " " + (value == null ? "-" : value));
      out.flush();
    }
  }

  private static void acknowledge(PrintStream out, String cache, String key) {
    synchronized (out) {
      out.println("A " + cache + " " + key);
      out.flush();
    }
  }
}
