package dev.cairn.codec;

import java.time.LocalDate;

/** The seed's Person, as a record: the type the object codec's speed and size targets use. */
public record Person(
    String name,
    String surname,
    String email,
    int age,
    double salary,
    long id,
    LocalDate birthDate) {

  /** A typical person, for examples and benchmarks. */
  public static Person sample(long id) {
    return new Person(
        "Ada",
        "Lovelace",
        "ada.lovelace@example.com",
        36,
        85_000.0,
        id,
        LocalDate.of(1815, 12, 10));
  }
}
