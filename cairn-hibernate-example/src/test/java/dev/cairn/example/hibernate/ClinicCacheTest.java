package dev.cairn.example.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hibernate's second-level cache in Cairn, over H2: entities and queries are served from the cache
 * without SQL, and the cache survives a restart of the application with the database unchanged.
 */
class ClinicCacheTest {
  @TempDir Path dir;

  private SessionFactory open() {
    return Clinic.open(dir.resolve("db"), dir.resolve("cache"));
  }

  /** Persists an owner with two pets; its id. */
  private static long persistOwner(SessionFactory sf) {
    return sf.fromTransaction(
        s -> {
          PetType cat = new PetType("cat");
          s.persist(cat);
          Owner owner = new Owner("George", "Franklin", "Madison");
          owner.addPet(new Pet("Leo", LocalDate.of(2020, 9, 7), cat));
          owner.addPet(new Pet("Basil", LocalDate.of(2022, 8, 6), cat));
          s.persist(owner);
          return owner.getId();
        });
  }

  private static Owner find(SessionFactory sf, long id) {
    return sf.fromTransaction(
        s -> {
          Owner o = s.find(Owner.class, id);
          org.hibernate.Hibernate.initialize(o.getPets()); // the collection, from its own region
          return o;
        });
  }

  @Test
  void anEntity_isServedFromTheCache_withoutSql() {
    try (SessionFactory sf = open()) {
      long id = persistOwner(sf);
      Statistics stats = sf.getStatistics();
      find(sf, id); // the first load may fill the cache
      stats.clear();

      Owner owner = find(sf, id);

      assertThat(owner.getLastName()).isEqualTo("Franklin");
      assertThat(owner.getPets())
          .extracting(Pet::getName)
          .containsExactlyInAnyOrder("Leo", "Basil");
      assertThat(stats.getSecondLevelCacheHitCount()).isGreaterThanOrEqualTo(3); // owner, pets
      assertThat(stats.getPrepareStatementCount()).as("SQL statements").isZero();
    }
  }

  @Test
  void aCacheableQuery_isAQueryCacheHit() {
    try (SessionFactory sf = open()) {
      persistOwner(sf);
      Statistics stats = sf.getStatistics();
      List<Owner> first = byLastName(sf, "Franklin");
      stats.clear();

      List<Owner> second = byLastName(sf, "Franklin");

      assertThat(second).hasSameSizeAs(first).hasSize(1);
      assertThat(stats.getQueryCacheHitCount()).isEqualTo(1);
      assertThat(stats.getPrepareStatementCount()).as("SQL statements").isZero();
    }
  }

  private static List<Owner> byLastName(SessionFactory sf, String lastName) {
    return sf.fromTransaction(
        s ->
            s.createSelectionQuery("from Owner o where o.lastName = :name", Owner.class)
                .setParameter("name", lastName)
                .setCacheable(true)
                .getResultList());
  }

  @Test
  void theCache_survivesARestartOfTheApplication() {
    long id;
    try (SessionFactory sf = open()) {
      id = persistOwner(sf);
      find(sf, id);
    } // closes the JCache manager: Cairn's cache is closed cleanly, its files stay
    try (SessionFactory sf = open()) {
      Statistics stats = sf.getStatistics();
      stats.clear();

      Owner owner = find(sf, id);

      assertThat(owner.getFirstName()).isEqualTo("George");
      assertThat(stats.getSecondLevelCacheHitCount())
          .as("served by the cache the first run left")
          .isGreaterThanOrEqualTo(3);
      assertThat(stats.getPrepareStatementCount()).as("SQL statements").isZero();
    }
  }

  @Test
  void anUpdate_isWhatTheRestartedApplicationReads() {
    long id;
    try (SessionFactory sf = open()) {
      id = persistOwner(sf);
      find(sf, id);
      sf.inTransaction(s -> s.find(Owner.class, id).setLastName("Davis"));
    }
    try (SessionFactory sf = open()) {
      assertThat(find(sf, id).getLastName()).isEqualTo("Davis");
    }
  }
}
