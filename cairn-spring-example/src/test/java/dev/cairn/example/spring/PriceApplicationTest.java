package dev.cairn.example.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.CacheManager;
import org.springframework.cache.jcache.JCacheCacheManager;
import org.springframework.context.ConfigurableApplicationContext;

/** Spring's @Cacheable served by Cairn: a hit, an eviction, and a restart that stays warm. */
class PriceApplicationTest {
  @TempDir Path dir;

  private ConfigurableApplicationContext start() {
    return new SpringApplicationBuilder(PriceApplication.class)
        .run("--spring.cache.jcache.config=" + dir.toUri(), "--spring.main.banner-mode=off");
  }

  @Test
  void theCacheIsCairns() {
    try (ConfigurableApplicationContext context = start()) {
      CacheManager manager = context.getBean(CacheManager.class);
      assertThat(manager).isInstanceOf(JCacheCacheManager.class);
      javax.cache.CacheManager jcache = ((JCacheCacheManager) manager).getCacheManager();
      assertThat(jcache).isInstanceOf(dev.cairn.jcache.CairnCacheManager.class);
      assertThat(jcache.getURI()).isEqualTo(dir.toUri());
    }
  }

  @Test
  void aSecondCall_isAHit() {
    try (ConfigurableApplicationContext context = start()) {
      PriceService prices = context.getBean(PriceService.class);
      long price = prices.priceOf("teapot");
      assertThat(prices.priceOf("teapot")).isEqualTo(price);
      assertThat(prices.computations()).isEqualTo(1);
    }
  }

  @Test
  void anEvictedPrice_isComputedAgain() {
    try (ConfigurableApplicationContext context = start()) {
      PriceService prices = context.getBean(PriceService.class);
      prices.priceOf("teapot");
      prices.changed("teapot");
      prices.priceOf("teapot");
      assertThat(prices.computations()).isEqualTo(2);
      prices.priceOf("teapot");
      assertThat(prices.computations()).isEqualTo(2);
    }
  }

  @Test
  void aRestartedApplication_findsItsCacheWarm() {
    long price;
    try (ConfigurableApplicationContext context = start()) {
      PriceService prices = context.getBean(PriceService.class);
      price = prices.priceOf("teapot");
      assertThat(prices.computations()).isEqualTo(1);
    } // the context's close closes the JCache manager, and with it Cairn's cache
    try (ConfigurableApplicationContext context = start()) {
      PriceService prices = context.getBean(PriceService.class);
      assertThat(prices.priceOf("teapot")).isEqualTo(price);
      assertThat(prices.computations()).as("served from the cache the first run left").isZero();
      prices.priceOf("kettle");
      assertThat(prices.computations()).isEqualTo(1);
    }
  }
}
