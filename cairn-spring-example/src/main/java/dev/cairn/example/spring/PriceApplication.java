package dev.cairn.example.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import javax.cache.configuration.MutableConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.cache.autoconfigure.JCacheManagerCustomizer;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ResourceUtils;

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

  /** The property naming the JCache cache manager's URI, here a {@code file:} directory. */
  static final String CONFIG = "spring.cache.jcache.config";

  /**
   * Runs the application; arguments override {@code application.properties}, e.g. {@code
   * --spring.cache.jcache.config=file:/var/cache/prices/}.
   */
  public static void main(String[] args) {
    application().run(args);
  }

  /** The application as {@link #main} runs it (the tests start it so too). */
  static SpringApplication application() {
    SpringApplication application = new SpringApplication(PriceApplication.class);
    ApplicationListener<ApplicationEnvironmentPreparedEvent> createDirectory =
        event -> createCacheDirectory(event.getEnvironment());
    application.addListeners(createDirectory);
    return application;
  }

  /**
   * Creates the cache's directory if it is missing: Spring Boot checks that the {@value #CONFIG}
   * resource exists before it asks the provider, which would otherwise create it itself.
   */
  static void createCacheDirectory(Environment environment) {
    String config = environment.getProperty(CONFIG);
    if (config != null
        && config.startsWith(ResourceUtils.FILE_URL_PREFIX)
        && config.endsWith("/")) {
      try {
        Files.createDirectories(ResourceUtils.getFile(config).toPath());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
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
