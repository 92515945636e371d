package dev.cairn.cli.bench;

import java.util.Locale;

/** What kind of value the bench stores. */
public enum BenchValueKind {
  /** An ASCII {@code String}; the pile stores it as UTF-8 (one byte a character). */
  STRING,
  /** A {@code byte[]} of random bytes, stored raw. */
  BYTES;

  /** The name used on the command line and in the JSON report. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
