package dev.cairn.bench.harness;

import dev.cairn.codec.CodecRegistry;
import java.util.Locale;

/** What kind of value the bench stores. */
public enum BenchValueKind {
  /** An ASCII {@code String}; the pile stores it as UTF-8 (one byte a character). */
  STRING,
  /** A {@code byte[]} of random bytes, stored raw. */
  BYTES,
  /**
   * A {@link Person} record (3 short strings, an int, a double, a long and a date); the pile stores
   * it with its generated object codec, the map as the object itself. Its size is the encoding's,
   * not {@code --size}.
   */
  PERSON;

  /** The name used on the command line and in the JSON report. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether {@code --size} sets the values' size: not for an object, whose fields do. */
  public boolean sized() {
    return this != PERSON;
  }

  /**
   * The codecs a pile needs for this kind: the built-in ones (byte[] and String), plus Person's
   * object codec for {@link #PERSON}.
   */
  CodecRegistry codecs() {
    return this == PERSON
        ? CodecRegistry.builder().allow(Person.class).build()
        : CodecRegistry.builtIn();
  }
}
