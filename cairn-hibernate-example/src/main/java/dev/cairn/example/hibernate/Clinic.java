package dev.cairn.example.hibernate;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;

/**
 * Builds the clinic's {@link SessionFactory}: an H2 database in files under {@code database}, and
 * Hibernate's second-level and query caches in Cairn, persistent under {@code cache}, through
 * hibernate-jcache. Closing the session factory closes the cache (its directory is locked while
 * open).
 */
public final class Clinic {
  private Clinic() {}

  /** Opens the clinic's session factory, creating the schema if the database has none. */
  public static SessionFactory open(Path database, Path cache) {
    return open(database, cairnCache(cache));
  }

  /**
   * Hibernate's settings for a second-level and query cache in Cairn, through JCache, persistent in
   * {@code cache}.
   */
  public static Map<String, String> cairnCache(Path cache) {
    return jcache("dev.cairn.jcache.CairnCachingProvider", cache.toUri().toString());
  }

  /**
   * Hibernate's settings for a second-level and query cache through the JCache provider {@code
   * provider} (its class name), at cache manager URI {@code uri} (null: the provider's default).
   */
  public static Map<String, String> jcache(String provider, String uri) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("hibernate.cache.use_second_level_cache", "true");
    settings.put("hibernate.cache.use_query_cache", "true");
    settings.put("hibernate.cache.region.factory_class", "jcache");
    settings.put("hibernate.javax.cache.provider", provider);
    if (uri != null) {
      settings.put("hibernate.javax.cache.uri", uri);
    }
    settings.put("hibernate.javax.cache.missing_cache_strategy", "create");
    return settings;
  }

  /** Hibernate's settings for no second-level cache. */
  public static Map<String, String> noCache() {
    return Map.of(
        "hibernate.cache.use_second_level_cache", "false",
        "hibernate.cache.use_query_cache", "false");
  }

  /**
   * Opens the clinic's session factory over the H2 database in {@code database}, with the cache
   * settings {@code cache} ({@link #cairnCache}, {@link #jcache}, {@link #noCache}), creating the
   * schema if the database has none.
   */
  public static SessionFactory open(Path database, Map<String, String> cache) {
    Configuration c = new Configuration();
    c.addAnnotatedClass(Owner.class);
    c.addAnnotatedClass(Pet.class);
    c.addAnnotatedClass(PetType.class);
    c.addAnnotatedClass(Visit.class);
    c.setProperty("hibernate.connection.url", "jdbc:h2:file:" + database.resolve("clinic"));
    c.setProperty("hibernate.connection.username", "sa");
    c.setProperty("hibernate.connection.password", "");
    c.setProperty("hibernate.hbm2ddl.auto", "update");
    c.setProperty("hibernate.generate_statistics", "true");
    cache.forEach(c::setProperty);
    return c.buildSessionFactory();
  }
}
