package dev.cairn.bench.harness;

import java.time.LocalDate;

/**
 * The value of {@code cairn bench --kind person}: the seed system's 7-field Person, as a record,
 * with the same fields as cairn-core's test {@code dev.cairn.codec.Person} (which the CLI cannot
 * see: it is a test class). The pile stores it with the object codec Cairn generates for it; the
 * module opens this package to {@code dev.cairn.core} so that the codec may construct it.
 */
public record Person(
    String name,
    String surname,
    String email,
    int age,
    double salary,
    long id,
    LocalDate birthDate) {

  /**
   * A copy that shares nothing with this one: its own strings and date, as a Person read from a
   * database or a request would have. The map baseline stores such copies, so that its memory is
   * that of n people, not of references to the value pool's 64K.
   */
  Person deepCopy() {
    return new Person(
        copyOf(name),
        copyOf(surname),
        copyOf(email),
        age,
        salary,
        id,
        LocalDate.ofEpochDay(birthDate.toEpochDay()));
  }

  /** A string with its own array: {@code new String(String)} would share the original's. */
  private static String copyOf(String s) {
    return String.valueOf(s.toCharArray());
  }
}
