package dev.cairn.example.spring;

import javax.cache.configuration.MutableConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.cache.autoconfigure.JCacheManagerCustomizer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application whose {@link PriceService} caches through Spring's cache abstraction,
 * served by Cairn through JCache ({@code application.properties}: {@code spring.cache.type=jcache},
 * Cairn's provider, and a {@code file:} directory that makes the cache persistent).
 */
@SpringBootApplication
@EnableCaching
public class PriceApplication {

  /** The cache the service uses. */
  public static final String PRICES = "prices";

  public static void main(String[] args) {
    SpringApplication.run(PriceApplication.class, args);
  }

  /**
   * Creates the application's caches in Cairn's cache manager, each only if it is not there yet:
   * after a restart a persistent manager has them already, with their entries (creating one again
   * would fail, which is why {@code spring.cache.cache-names} is not used).
   */
  @Bean
  JCacheManagerCustomizer cairnCaches() {
    return manager -> {
      if (manager.getCache(PRICES) == null) {
        manager.createCache(
            PRICES, new MutableConfiguration<String, Long>().setTypes(String.class, Long.class));
      }
    };
  }
}
