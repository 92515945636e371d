package dev.cairn.cli.inspect;

import java.util.Locale;

/** Byte counts for people: binary units, with the exact count beside them where it matters. */
final class Sizes {
  private static final String[] UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};

  private Sizes() {}

  /** {@code 201326592} reads "192.0 MiB"; under 1 KiB, "512 bytes". */
  static String binary(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    double scaled = bytes;
    int unit = 0;
    while (scaled >= 1024 && unit < UNITS.length - 1) {
      scaled /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", scaled, UNITS[unit]);
  }

  /** "192.0 MiB (201,326,592 bytes)": the rounded size and the exact one. */
  static String withExact(long bytes) {
    return bytes < 1024
        ? binary(bytes)
        : String.format(Locale.ROOT, "%s (%,d bytes)", binary(bytes), bytes);
  }
}
