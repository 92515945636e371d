package dev.cairn.ycsb;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The binding's {@code cairn.*} properties, read from YCSB's properties ({@code -p name=value} or a
 * {@code -P} file), and the cache they describe.
 *
 * @param directory {@value #DIR}: the persistent cache's directory; null for a volatile cache
 * @param budgetBytes {@value #BUDGET}: the cache's byte budget; {@link Long#MAX_VALUE} for none
 * @param durability {@value #DURABILITY}: a persistent cache's durability; null for the pile's
 *     default ({@link Durability#SYNC})
 * @param logFileBytes {@value #LOG_FILE_BYTES}: the size of each log file of a persistent cache
 *     created now; 0 for the pile's default
 * @param verify {@value #VERIFY}: whether the last client to finish checks the cache with {@link
 *     Cache#verify()} before closing it
 */
record CairnSettings(
    Path directory, long budgetBytes, Durability durability, long logFileBytes, boolean verify) {

  static final String DIR = "cairn.dir";
  static final String BUDGET = "cairn.budget";
  static final String DURABILITY = "cairn.durability";
  static final String LOG_FILE_BYTES = "cairn.logfilebytes";
  static final String VERIFY = "cairn.verify";

  /**
   * The settings in {@code properties}.
   *
   * @throws IllegalArgumentException naming the property, if a value is malformed or a property
   *     that needs {@value #DIR} is set without it
   */
  static CairnSettings from(Properties properties) {
    Path directory = null;
    String dir = value(properties, DIR);
    if (dir != null) {
      try {
        directory = Path.of(dir);
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException(
            DIR + "=" + dir + " is not a path: " + e.getMessage(), e);
      }
    }
    String budget = value(properties, BUDGET);
    long budgetBytes = budget == null ? Long.MAX_VALUE : bytes(BUDGET, budget);
    String durabilityName = value(properties, DURABILITY);
    Durability durability = durabilityName == null ? null : durability(durabilityName);
    String logFile = value(properties, LOG_FILE_BYTES);
    long logFileBytes = logFile == null ? 0 : bytes(LOG_FILE_BYTES, logFile);
    String verifyText = value(properties, VERIFY);
    boolean verify = verifyText != null && bool(VERIFY, verifyText);
    for (String persistentOnly : new String[] {DURABILITY, LOG_FILE_BYTES}) {
      if (directory == null && value(properties, persistentOnly) != null) {
        throw new IllegalArgumentException(
            persistentOnly
                + " is set but "
                + DIR
                + " is not: it applies to a persistent cache only; set "
                + DIR
                + " to the cache's directory, or remove "
                + persistentOnly);
      }
    }
    CairnSettings settings =
        new CairnSettings(directory, budgetBytes, durability, logFileBytes, verify);
    settings.cacheOptions(); // checks the values together, naming the property at fault
    return settings;
  }

  /**
   * The cache's options.
   *
   * @throws IllegalArgumentException naming the property whose value the cache refuses
   */
  CacheOptions cacheOptions() {
    PileOptions.Builder pile = PileOptions.builder().hugePages(true); // as CacheOptions' default
    if (durability != null) {
      pile.durability(durability);
    }
    if (logFileBytes != 0) {
      pile.logFileBytes(logFileBytes);
    }
    PileOptions pileOptions;
    try {
      pileOptions = pile.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          LOG_FILE_BYTES + "=" + logFileBytes + " is refused: " + e.getMessage(), e);
    }
    return CacheOptions.builder().budgetBytes(budgetBytes).pile(pileOptions).build();
  }

  /** Opens the cache these settings describe: persistent in {@link #directory}, or volatile. */
  Cache open() throws IOException {
    CacheOptions options = cacheOptions();
    return directory == null ? Cache.offHeap(options) : Cache.open(directory, options);
  }

  /** Where the cache lives, for messages. */
  String describe() {
    return directory == null ? "a volatile cache" : "the persistent cache in " + directory;
  }

  private static String value(Properties properties, String name) {
    String value = properties.getProperty(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** A count of bytes: digits, with _ separators and a k, m, g or t suffix (powers of 1024). */
  static long bytes(String property, String text) {
    String digits = text.replace("_", "").toLowerCase(Locale.ROOT);
    int shift =
        switch (digits.isEmpty() ? ' ' : digits.charAt(digits.length() - 1)) {
          case 'k' -> 10;
          case 'm' -> 20;
          case 'g' -> 30;
          case 't' -> 40;
          default -> 0;
        };
    if (shift != 0) {
      digits = digits.substring(0, digits.length() - 1);
    }
    long value;
    try {
      value = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      value = -1; // said below
    }
    if (value <= 0 || value > (Long.MAX_VALUE >>> shift)) {
      throw new IllegalArgumentException(
          property
              + "="
              + text
              + " is not a positive number of bytes: write digits, optionally with _ separators"
              + " and a k, m, g or t suffix (powers of 1024), for example 512m or 8g");
    }
    return value << shift;
  }

  private static Durability durability(String text) {
    try {
      return Durability.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          DURABILITY + "=" + text + " is not a durability: write SYNC, PERIODIC or NONE", e);
    }
  }

  private static boolean bool(String property, String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              property + "=" + text + " is not a boolean: write true or false");
    };
  }
}
