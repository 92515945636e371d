package dev.cairn.bench.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.example.hibernate.Clinic;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each PetClinic store answers the workload's pages alike, over the same data. */
class ClinicsTest {
  private static final int OWNERS = 30;
  private static final int LAST_NAMES = 3;

  @TempDir Path dir;

  @Test
  void hibernateWithoutACache() {
    check(new HibernateClinics(dir.resolve("db"), Clinic.noCache()));
  }

  @Test
  void hibernateWithCairnAsItsCache() {
    check(
        new HibernateClinics(
            dir.resolve("db"), Clinic.jcache("dev.cairn.jcache.CairnCachingProvider", null)));
  }

  @Test
  void cairnAsTheStoreOfRecord() {
    check(new CairnClinics(dir.resolve("cache")));
  }

  private static void check(Clinics clinics) {
    try (clinics) {
      clinics.load(OWNERS, LAST_NAMES);
      assertThat(clinics.ownerWithPets(1)).isEqualTo(2);
      assertThat(clinics.ownerWithPets(OWNERS)).isEqualTo(2);
      assertThat(clinics.ownerWithPets(OWNERS + 1)).isEqualTo(-1);
      assertThat(clinics.ownersByLastName(Clinics.lastName(1, LAST_NAMES)))
          .isEqualTo(OWNERS / LAST_NAMES);
      assertThat(clinics.ownersByLastName("Nobody")).isZero();
      clinics.addVisit(1, "checkup");
      clinics.updateCity(1, "Paris");
      assertThat(clinics.ownerWithPets(1)).isEqualTo(2);
      assertThat(clinics.ownersByLastName(Clinics.lastName(1, LAST_NAMES)))
          .isEqualTo(OWNERS / LAST_NAMES);
    }
  }
}
