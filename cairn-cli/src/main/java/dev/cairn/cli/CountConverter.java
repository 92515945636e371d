package dev.cairn.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads a count such as {@code 5000000}, {@code 5_000_000} or {@code 5M}: big counts are easier to
 * type, and to read back in a shell history, with separators or a k/M/G suffix (powers of 1000, not
 * 1024: these count values, not bytes).
 */
public final class CountConverter implements CommandLine.ITypeConverter<Integer> {

  /** picocli makes one for each option that names this class as its converter. */
  public CountConverter() {}

  @Override
  public Integer convert(String text) {
    String digits = text.strip().replace("_", "").replace(",", "");
    long unit = 1;
    if (!digits.isEmpty()) {
      unit =
          switch (digits.substring(digits.length() - 1).toLowerCase(Locale.ROOT)) {
            case "k" -> 1_000L;
            case "m" -> 1_000_000L;
            case "g" -> 1_000_000_000L;
            default -> 1L;
          };
    }
    if (unit != 1) {
      digits = digits.substring(0, digits.length() - 1);
    }
    try {
      long count = Math.multiplyExact(Long.parseLong(digits), unit);
      if (count > Integer.MAX_VALUE) {
        throw new ArithmeticException(count + " is over " + Integer.MAX_VALUE);
      }
      return (int) count;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new CommandLine.TypeConversionException(
          "'"
              + text
              + "' is not a count: write digits, optionally with _ separators or a k/M/G suffix"
              + " (5_000_000 or 5M), at most "
              + Integer.MAX_VALUE);
    }
  }
}
