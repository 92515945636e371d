package dev.cairn.bench.petclinic;

import dev.cairn.example.hibernate.Clinic;
import dev.cairn.example.hibernate.Owner;
import dev.cairn.example.hibernate.Pet;
import dev.cairn.example.hibernate.PetType;
import dev.cairn.example.hibernate.Visit;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.SessionFactory;

/**
 * PetClinic over Hibernate and H2 (cairn-hibernate-example's model), with the second-level cache
 * settings given: none, or a JCache provider's.
 */
final class HibernateClinics implements Clinics {
  private static final int BATCH = 500;

  private final SessionFactory sf;

  HibernateClinics(Path database, Map<String, String> cache) {
    Map<String, String> settings = new HashMap<>(cache);
    settings.put("hibernate.generate_statistics", "false");
    this.sf = Clinic.open(database, settings);
  }

  @Override
  public void load(int owners, int lastNames) {
    PetType[] types =
        sf.fromTransaction(
            s -> {
              PetType cat = new PetType("cat");
              PetType dog = new PetType("dog");
              s.persist(cat);
              s.persist(dog);
              return new PetType[] {cat, dog};
            });
    for (int from = 1; from <= owners; from += BATCH) {
      int first = from;
      sf.inTransaction(
          s -> {
            for (int i = first; i < Math.min(first + BATCH, owners + 1); i++) {
              Owner o = new Owner("First" + i, Clinics.lastName(i, lastNames), "City" + (i % 100));
              o.addPet(new Pet("Pet" + (2 * i - 1), LocalDate.of(2020, 1, 1), types[0]));
              o.addPet(new Pet("Pet" + (2 * i), LocalDate.of(2021, 1, 1), types[1]));
              s.persist(o);
              for (Pet p : o.getPets()) {
                s.persist(new Visit(p, LocalDate.of(2024, 1, 1), "first checkup"));
              }
            }
          });
    }
  }

  @Override
  public int ownerWithPets(long ownerId) {
    return sf.fromTransaction(
        s -> {
          Owner o = s.find(Owner.class, ownerId);
          if (o == null) {
            return -1;
          }
          int names = 0;
          for (Pet p : o.getPets()) {
            names += p.getName().length();
          }
          return names > 0 ? o.getPets().size() : 0;
        });
  }

  @Override
  public int ownersByLastName(String lastName) {
    return sf.fromTransaction(
        s -> {
          List<Owner> found =
              s.createSelectionQuery("from Owner o where o.lastName = :name", Owner.class)
                  .setParameter("name", lastName)
                  .setCacheable(true)
                  .getResultList();
          return found.size();
        });
  }

  @Override
  public void addVisit(long ownerId, String description) {
    sf.inTransaction(
        s -> {
          Owner o = s.find(Owner.class, ownerId);
          s.persist(
              new Visit(
                  o.getPets().getFirst(), LocalDate.now(java.time.ZoneOffset.UTC), description));
        });
  }

  @Override
  public void updateCity(long ownerId, String city) {
    sf.inTransaction(s -> s.find(Owner.class, ownerId).setCity(city));
  }

  @Override
  public void close() {
    sf.close();
  }
}
