package dev.cairn.cli.inspect;

import dev.cairn.cache.CacheDirectory;
import dev.cairn.cli.json.JsonWriter;
import java.util.Locale;

/**
 * What {@code cairn inspect} and {@code cairn verify} say of a persistent cache: its tables, their
 * entries and bytes and their index, as text or as a {@code "cache"} JSON object.
 */
public final class CacheReport {
  private CacheReport() {}

  public static String text(CacheDirectory.Inspection cache) {
    StringBuilder text =
        new StringBuilder("cache: ")
            .append(cache.tables().size())
            .append(cache.tables().size() == 1 ? " table" : " tables")
            .append('\n');
    for (CacheDirectory.Table t : cache.tables()) {
      text.append(
          String.format(
              Locale.ROOT,
              "  %s (%s -> %s): %,d entries, %s%s, index %s%s (keys %s)%s%n",
              t.name(),
              t.keyType(),
              t.valueType(),
              t.entries(),
              Sizes.binary(t.entryBytes()),
              perEntry(t.entryBytes(), t.entries()),
              Sizes.binary(t.indexBytes()),
              perEntry(t.indexBytes(), t.entries()),
              t.keyPlacement(),
              options(t)));
    }
    return text.toString();
  }

  /** " (48.0 B an entry)": what {@code bytes} come to an entry, for sizing; none if empty. */
  private static String perEntry(long bytes, long entries) {
    return entries == 0
        ? ""
        : String.format(Locale.ROOT, " (%.1f B an entry)", bytes / (double) entries);
  }

  private static String options(CacheDirectory.Table t) {
    StringBuilder o = new StringBuilder();
    if (t.options().expireAfterWrite() != null) {
      o.append(", expire after write ").append(t.options().expireAfterWrite());
    }
    if (t.options().expireAfterAccess() != null) {
      o.append(", expire after access ").append(t.options().expireAfterAccess());
    }
    if (t.options().pinned()) {
      o.append(", pinned");
    }
    if (t.options().writeTimes()) {
      o.append(", write times");
    }
    return o.toString();
  }

  /** Adds a {@code "cache"} object to the object {@code json} has open. */
  public static void json(JsonWriter json, CacheDirectory.Inspection cache) {
    json.beginObject("cache");
    if (cache.verifiedEntries() >= 0) {
      json.field("verifiedEntries", cache.verifiedEntries());
    }
    long entries = 0;
    long entryBytes = 0;
    long indexBytes = 0;
    for (CacheDirectory.Table t : cache.tables()) {
      entries += t.entries();
      entryBytes += t.entryBytes();
      indexBytes += t.indexBytes();
    }
    json.field("tableCount", cache.tables().size())
        .field("entries", entries)
        .field("entryBytes", entryBytes)
        .field("indexBytes", indexBytes);
    for (CacheDirectory.Table t : cache.tables()) {
      json.beginObject("table:" + t.name())
          .field("keyType", t.keyType())
          .field("valueType", t.valueType())
          .field("entries", t.entries())
          .field("entryBytes", t.entryBytes())
          .field("indexBytes", t.indexBytes())
          .field("keyPlacement", t.keyPlacement())
          .field("pinned", t.options().pinned())
          .field("writeTimes", t.options().writeTimes())
          .endObject();
    }
    json.endObject();
  }
}
