package dev.cairn.bench.petclinic;

/**
 * One PetClinic store under the workload: the operations of PetClinic's pages, on owners with pets
 * and visits, each a unit of work of its own (a transaction, for Hibernate).
 *
 * <p>Thread-safety: every method may be called by several threads at once.
 */
interface Clinics extends AutoCloseable {
  /** Creates {@code owners} owners (ids 1..owners), with their pets and visits. */
  void load(int owners, int lastNames);

  /** The owner page: an owner and its pets' names. Returns the number of pets, -1 if none. */
  int ownerWithPets(long ownerId);

  /** The search page: the owners of a last name. Returns how many. */
  int ownersByLastName(String lastName);

  /** A new visit of the first pet of {@code ownerId}. */
  void addVisit(long ownerId, String description);

  /** The owner's city changes. */
  void updateCity(long ownerId, String city);

  @Override
  void close();

  /** The last name of owner {@code id}, among {@code lastNames}. */
  static String lastName(long id, int lastNames) {
    return "Name" + (id % lastNames);
  }
}
