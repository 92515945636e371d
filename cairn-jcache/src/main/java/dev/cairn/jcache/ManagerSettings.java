package dev.cairn.jcache;

import dev.cairn.cache.CacheOptions;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A cache manager's {@code cairn.*} properties ({@link CairnCacheManager}'s constants) and the
 * options of the Cairn cache they describe. Every {@code cairn.} name it does not know is refused,
 * so that a misspelt one ({@code cairn.budget} for {@value CairnCacheManager#BUDGET_BYTES}) fails
 * the manager's creation instead of being ignored; names outside {@code cairn.} are left to whoever
 * set them (Hibernate and Spring pass their own).
 *
 * <p>The persistence settings (durability, log, checkpoints) are ignored by a volatile manager, as
 * {@link PileOptions} ignores them for a volatile pile: one configuration file may serve both.
 */
final class ManagerSettings {
  /** Every {@code cairn.} property a manager reads, in the order its documentation lists them. */
  static final List<String> NAMES =
      List.of(
          CairnCacheManager.DIRECTORY,
          CairnCacheManager.BUDGET_BYTES,
          CairnCacheManager.HASHED_KEYS,
          CairnCacheManager.HUGE_PAGES,
          CairnCacheManager.DURABILITY,
          CairnCacheManager.SYNC_INTERVAL_MILLIS,
          CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS,
          CairnCacheManager.LOG_FILE_BYTES,
          CairnCacheManager.LOG_FILE_COUNT);

  private static final String PREFIX = "cairn.";

  private ManagerSettings() {}

  /**
   * The options of a manager's cache.
   *
   * @param properties the manager's properties, a configuration file's included
   * @param persistent whether the manager has a directory
   * @param codecs the codecs of the cache's pile
   * @throws IllegalArgumentException naming the property, for an unknown {@code cairn.} name, a
   *     malformed value or one the cache refuses
   */
  static CacheOptions options(Properties properties, boolean persistent, CodecRegistry codecs) {
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(PREFIX) && !NAMES.contains(name)) {
        throw new IllegalArgumentException(
            "unknown Cairn property "
                + name
                + ": a cache manager reads "
                + String.join(", ", NAMES)
                + " (check the spelling; names are case-sensitive)");
      }
    }
    CacheOptions.Builder options = CacheOptions.builder();
    String budget = properties.getProperty(CairnCacheManager.BUDGET_BYTES);
    if (budget != null) {
      options.budgetBytes(number(CairnCacheManager.BUDGET_BYTES, budget));
    }
    String hashed = properties.getProperty(CairnCacheManager.HASHED_KEYS);
    if (hashed != null) {
      options.hashedKeys(bool(CairnCacheManager.HASHED_KEYS, hashed));
    }
    PileOptions.Builder pile = PileOptions.builder().codecs(codecs).hugePages(true);
    String hugePages = properties.getProperty(CairnCacheManager.HUGE_PAGES);
    if (hugePages != null) {
      pile.hugePages(bool(CairnCacheManager.HUGE_PAGES, hugePages));
    }
    if (persistent) {
      persistence(properties, pile);
    }
    try {
      return options.pile(pile.build()).build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the cache manager's cairn.* properties describe a cache Cairn refuses: "
              + e.getMessage(),
          e);
    }
  }

  private static void persistence(Properties properties, PileOptions.Builder pile) {
    String durability =
        properties.getProperty(CairnCacheManager.DURABILITY, Durability.PERIODIC.name());
    try {
      pile.durability(Durability.valueOf(durability.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          CairnCacheManager.DURABILITY + " must be NONE, PERIODIC or SYNC: " + durability, e);
    }
    String sync = properties.getProperty(CairnCacheManager.SYNC_INTERVAL_MILLIS);
    if (sync != null) {
      pile.syncIntervalMillis(number(CairnCacheManager.SYNC_INTERVAL_MILLIS, sync));
    }
    String checkpoint = properties.getProperty(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS);
    if (checkpoint != null) {
      pile.checkpointIntervalMillis(
          number(CairnCacheManager.CHECKPOINT_INTERVAL_MILLIS, checkpoint));
    }
    String fileBytes = properties.getProperty(CairnCacheManager.LOG_FILE_BYTES);
    if (fileBytes != null) {
      pile.logFileBytes(number(CairnCacheManager.LOG_FILE_BYTES, fileBytes));
    }
    String fileCount = properties.getProperty(CairnCacheManager.LOG_FILE_COUNT);
    if (fileCount != null) {
      long count = number(CairnCacheManager.LOG_FILE_COUNT, fileCount);
      if (count > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            CairnCacheManager.LOG_FILE_COUNT + " is too large: " + fileCount);
      }
      pile.logFileCount((int) count);
    }
  }

  private static long number(String name, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number: " + value, e);
    }
  }

  private static boolean bool(String name, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(name + " must be true or false: " + value);
    };
  }
}
