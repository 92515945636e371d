package dev.cairn.example.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cairn.durability.DirectoryLockedException;
import dev.cairn.jcache.CairnCacheManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.cache.Cache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.cache.CacheManager;
import org.springframework.cache.jcache.JCacheCacheManager;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring's @Cacheable served by Cairn: a hit, an eviction, a restart that stays warm, and the
 * directory's lock while an application has it open. Each test has its own cache directory.
 */
class PriceApplicationTest {
  @TempDir Path dir;

  /** Starts the application as {@code main} does, with {@code args}, quietly. */
  private static ConfigurableApplicationContext run(String... args) {
    String[] all = new String[args.length + 1];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--spring.main.banner-mode=off";
    return PriceApplication.application().run(all);
  }

  /** Starts the application with its persistent cache in {@code directory}. */
  private static ConfigurableApplicationContext start(Path directory) {
    return run("--" + PriceApplication.CONFIG + "=" + directory.toUri());
  }

  /** The JCache cache manager under the context's Spring cache manager. */
  private static javax.cache.CacheManager jcache(ConfigurableApplicationContext context) {
    CacheManager manager = context.getBean(CacheManager.class);
    assertThat(manager).isInstanceOf(JCacheCacheManager.class);
    return ((JCacheCacheManager) manager).getCacheManager();
  }

  private static Cache<String, Long> prices(ConfigurableApplicationContext context) {
    return jcache(context).getCache(PriceApplication.PRICES, String.class, Long.class);
  }

  /** {@code thrown} and its causes, outermost first. */
  private static List<Throwable> causes(Throwable thrown) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = thrown; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }

  @Test
  void theCacheIsCairns_persistentInTheConfiguredDirectory() {
    try (ConfigurableApplicationContext context = start(dir)) {
      javax.cache.CacheManager jcache = jcache(context);
      assertThat(jcache).isInstanceOf(CairnCacheManager.class);
      assertThat(jcache.getURI()).isEqualTo(dir.toUri());
      assertThat(jcache.getCacheNames()).containsExactly(PriceApplication.PRICES);
    }
  }

  @Test
  void aSecondCall_isAHit() {
    try (ConfigurableApplicationContext context = start(dir)) {
      PriceService prices = context.getBean(PriceService.class);
      long price = prices.priceOf("teapot");
      assertThat(prices.computations()).isEqualTo(1);
      assertThat(prices(context).get("teapot")).as("the entry, in Cairn's cache").isEqualTo(price);

      assertThat(prices.priceOf("teapot")).isEqualTo(price);
      assertThat(prices.computations()).as("the second call is served by the cache").isEqualTo(1);
    }
  }

  @Test
  void anEvictedPrice_isComputedAgain() {
    try (ConfigurableApplicationContext context = start(dir)) {
      PriceService prices = context.getBean(PriceService.class);
      prices.priceOf("teapot");
      prices.priceOf("kettle");
      prices.changed("teapot");
      assertThat(prices(context).containsKey("teapot")).isFalse();
      assertThat(prices(context).containsKey("kettle")).as("only the changed product").isTrue();

      prices.priceOf("teapot");
      assertThat(prices.computations()).as("the evicted price is computed again").isEqualTo(3);
      prices.priceOf("teapot");
      prices.priceOf("kettle");
      assertThat(prices.computations()).isEqualTo(3);
    }
  }

  @Test
  void aRestartedApplication_findsItsCacheWarm() {
    long price;
    javax.cache.CacheManager first;
    try (ConfigurableApplicationContext context = start(dir)) {
      PriceService prices = context.getBean(PriceService.class);
      price = prices.priceOf("teapot");
      assertThat(prices.computations()).isEqualTo(1);
      first = jcache(context);
    }
    // the context's close closed the JCache manager, and with it Cairn's cache and its directory:
    // otherwise the provider would hand the same, still open, manager to the next context
    assertThat(first.isClosed()).isTrue();

    try (ConfigurableApplicationContext context = start(dir)) {
      assertThat(jcache(context)).as("a new manager, opened from the directory").isNotSameAs(first);
      PriceService prices = context.getBean(PriceService.class);
      assertThat(prices.priceOf("teapot")).isEqualTo(price);
      assertThat(prices.computations()).as("served from the cache the first run left").isZero();
      prices.priceOf("kettle");
      assertThat(prices.computations()).as("a product the first run did not price").isEqualTo(1);
    }
  }

  @Test
  void aSecondApplication_cannotOpenTheDirectoryWhileTheFirstHasIt() {
    // the same directory spelled without its final '/': another URI, so the provider opens another
    // manager on it (for the same URI it would hand out the open one), and Cairn's lock refuses it
    String sameDirectory = "--" + PriceApplication.CONFIG + "=file:" + dir;
    try (ConfigurableApplicationContext context = start(dir)) {
      context.getBean(PriceService.class).priceOf("teapot");
      Throwable refused = catchThrowable(() -> run(sameDirectory).close());
      assertThat(causes(refused)).hasAtLeastOneElementOfType(DirectoryLockedException.class);
    }
    try (ConfigurableApplicationContext context = run(sameDirectory)) {
      PriceService prices = context.getBean(PriceService.class);
      prices.priceOf("teapot");
      assertThat(prices.computations()).as("the first application's entry").isZero();
    }
  }

  @Test
  void theShippedConfiguration_keepsTheCacheUnderTheWorkingDirectory() {
    // application.properties puts the cache in ${user.dir}/target/prices-cache/; the command line
    // (first among Spring's property sources) points user.dir at this test's directory
    Path cache = dir.resolve("target").resolve("prices-cache");
    try (ConfigurableApplicationContext context = run("--user.dir=" + dir)) {
      assertThat(cache).as("created before Spring Boot looks for it").isDirectory();
      assertThat(jcache(context).getURI()).isEqualTo(cache.toUri());
      context.getBean(PriceService.class).priceOf("teapot");
    }
    assertThat(cache).as("Cairn's files").isNotEmptyDirectory();
  }
}
