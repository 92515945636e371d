package dev.cairn.bench.petclinic;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PetClinic with Cairn's cache as the store of record, as BigMemory's Fast Restartable Store was
 * used: persistent, every write durable when it returns (SYNC). Owners, pets and visits are records
 * in tables keyed by id, and the search by last name reads an index table kept beside them.
 */
final class CairnClinics implements Clinics {
  /** An owner: names, city, its pets' ids. */
  record OwnerRow(String firstName, String lastName, String city, long[] pets) {}

  /** A pet: name, birth day, owner, type. */
  record PetRow(String name, long birthEpochDay, long owner, String type) {}

  /** A visit of a pet. */
  record VisitRow(long pet, long epochDay, String description) {}

  /** The owners of one last name. */
  record Ids(long[] ids) {}

  private final Cache cache;
  private final LongCacheTable<OwnerRow> owners;
  private final LongCacheTable<PetRow> pets;
  private final LongCacheTable<VisitRow> visits;
  private final CacheTable<String, Ids> byLastName;
  private final AtomicLong nextVisit = new AtomicLong();

  CairnClinics(Path directory) {
    CodecRegistry codecs =
        CodecRegistry.builder()
            .allow(OwnerRow.class, PetRow.class, VisitRow.class, Ids.class)
            .build();
    try {
      cache =
          Cache.open(
              directory,
              CacheOptions.builder()
                  .pile(PileOptions.builder().durability(Durability.SYNC).codecs(codecs).build())
                  .build());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the clinic's cache in " + directory, e);
    }
    owners = cache.longTable("owners", OwnerRow.class);
    pets = cache.longTable("pets", PetRow.class);
    visits = cache.longTable("visits", VisitRow.class);
    byLastName = cache.table("owners-by-last-name", String.class, Ids.class);
  }

  @Override
  public void load(int ownerCount, int lastNames) {
    long[][] named = new long[lastNames][];
    int[] counts = new int[lastNames];
    for (int i = 1; i <= ownerCount; i++) {
      counts[i % lastNames]++;
    }
    for (int n = 0; n < lastNames; n++) {
      named[n] = new long[counts[n]];
      counts[n] = 0;
    }
    long day = LocalDate.of(2024, 1, 1).toEpochDay();
    for (int i = 1; i <= ownerCount; i++) {
      long first = 2L * i - 1;
      long second = 2L * i;
      owners.put(
          i,
          new OwnerRow(
              "First" + i,
              Clinics.lastName(i, lastNames),
              "City" + (i % 100),
              new long[] {first, second}));
      pets.put(first, new PetRow("Pet" + first, day - 1500, i, "cat"));
      pets.put(second, new PetRow("Pet" + second, day - 1100, i, "dog"));
      visits.put(nextVisit.incrementAndGet(), new VisitRow(first, day, "first checkup"));
      visits.put(nextVisit.incrementAndGet(), new VisitRow(second, day, "first checkup"));
      named[i % lastNames][counts[i % lastNames]++] = i;
    }
    for (int n = 0; n < lastNames; n++) {
      byLastName.put("Name" + n, new Ids(named[n]));
    }
  }

  @Override
  public int ownerWithPets(long ownerId) {
    OwnerRow o = owners.get(ownerId);
    if (o == null) {
      return -1;
    }
    int names = 0;
    for (long pet : o.pets()) {
      PetRow p = pets.get(pet);
      names += p == null ? 0 : p.name().length();
    }
    return names > 0 ? o.pets().length : 0;
  }

  @Override
  public int ownersByLastName(String lastName) {
    Ids ids = byLastName.get(lastName);
    if (ids == null) {
      return 0;
    }
    int found = 0;
    for (long id : ids.ids()) {
      if (owners.get(id) != null) {
        found++;
      }
    }
    return found;
  }

  @Override
  public void addVisit(long ownerId, String description) {
    OwnerRow o = owners.get(ownerId);
    visits.put(
        nextVisit.incrementAndGet(),
        new VisitRow(
            o.pets()[0], LocalDate.now(java.time.ZoneOffset.UTC).toEpochDay(), description));
  }

  @Override
  public void updateCity(long ownerId, String city) {
    OwnerRow o = owners.get(ownerId);
    owners.put(ownerId, new OwnerRow(o.firstName(), o.lastName(), city, o.pets()));
  }

  @Override
  public void close() {
    cache.close();
  }
}
