package dev.cairn.bench.petclinic;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The four configurations the PetClinic workload compares, in the order they run. */
public enum PetclinicConfig {
  /** Hibernate over H2, no second-level cache: every read is SQL. */
  HIBERNATE("hibernate"),
  /** Hibernate with Ehcache 3 as its JCache second-level cache (on the heap). */
  HIBERNATE_EHCACHE("hibernate-ehcache"),
  /** Hibernate with Cairn as its JCache second-level cache (off the heap). */
  HIBERNATE_CAIRN("hibernate-cairn"),
  /** Cairn's cache as the store of record: persistent, every write durable (SYNC). */
  CAIRN_DIRECT("cairn-direct");

  private final String label;

  PetclinicConfig(String label) {
    this.label = label;
  }

  /** The name in --stores and in the report. */
  public String label() {
    return label;
  }

  /**
   * The configuration named {@code label}.
   *
   * @throws IllegalArgumentException naming the configurations there are
   */
  public static PetclinicConfig of(String label) {
    for (PetclinicConfig c : values()) {
      if (c.label.equals(label.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown store for --workload petclinic: "
            + label
            + " (expected "
            + Arrays.stream(values()).map(PetclinicConfig::label).collect(Collectors.joining(", "))
            + ")");
  }
}
