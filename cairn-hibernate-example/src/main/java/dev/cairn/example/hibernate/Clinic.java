package dev.cairn.example.hibernate;

import java.nio.file.Path;
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
    // the second-level cache: Cairn through JCache, persistent in the cache directory
    c.setProperty("hibernate.cache.use_second_level_cache", "true");
    c.setProperty("hibernate.cache.use_query_cache", "true");
    c.setProperty("hibernate.cache.region.factory_class", "jcache");
    c.setProperty("hibernate.javax.cache.provider", "dev.cairn.jcache.CairnCachingProvider");
    c.setProperty("hibernate.javax.cache.uri", cache.toUri().toString());
    c.setProperty("hibernate.javax.cache.missing_cache_strategy", "create");
    return c.buildSessionFactory();
  }
}
