package dev.cairn.cache.lincheck;

import dev.cairn.cache.CacheTable;
import dev.cairn.cache.EntryOptions;
import dev.cairn.cache.LongCacheTable;
import dev.cairn.cache.PutResult;

/**
 * The per-key operations of a table of {@code Long} values, by {@code long} key, each result in
 * {@link Operation}'s encoding: over a {@link LongCacheTable} (its boxed view for the conditional
 * ones it lacks), or over a {@code CacheTable<String, Long>} of keys {@code "k" + key}.
 */
interface KeyedTarget {

  long run(Operation.Kind kind, long key, long value, long expected);

  /** A {@link LongCacheTable}: primitive keys, its boxed view for the compare-and-sets. */
  static KeyedTarget of(LongCacheTable<Long> t) {
    CacheTable<Long, Long> boxed = t.boxed();
    return (kind, key, value, expected) ->
        switch (kind) {
          case PUT -> t.put(key, value) == PutResult.INSERTED ? 1 : 0;
          case GET -> orAbsent(t.get(key));
          case CONTAINS -> t.containsKey(key) ? 1 : 0;
          case REMOVE -> t.remove(key) ? 1 : 0;
          case REMOVE_IF_EQUALS -> boxed.remove(key, expected) ? 1 : 0;
          case PUT_IF_ABSENT -> orAbsent(t.putIfAbsent(key, value));
          case REPLACE -> t.replace(key, value) ? 1 : 0;
          case REPLACE_IF_EQUALS -> boxed.replace(key, expected, value) ? 1 : 0;
          case COMPUTE_IF_ABSENT -> orAbsent(t.computeIfAbsent(key, k -> value));
        };
  }

  /**
   * A {@link LongCacheTable} of String values (the numbers in decimal), whose puts of an odd value
   * pin the entry: an entry with a header, where an even value's is bare (no header), so that a
   * key's entry changes form as it is written.
   */
  static KeyedTarget ofChangingForms(LongCacheTable<String> t) {
    CacheTable<Long, String> boxed = t.boxed();
    return (kind, key, value, expected) ->
        switch (kind) {
          case PUT ->
              ((value & 1) == 0 ? t.put(key, text(value)) : t.put(key, text(value), PIN))
                      == PutResult.INSERTED
                  ? 1
                  : 0;
          case GET -> orAbsent(t.get(key));
          case CONTAINS -> t.containsKey(key) ? 1 : 0;
          case REMOVE -> t.remove(key) ? 1 : 0;
          case REMOVE_IF_EQUALS -> boxed.remove(key, text(expected)) ? 1 : 0;
          case PUT_IF_ABSENT -> orAbsent(t.putIfAbsent(key, text(value)));
          case REPLACE -> t.replace(key, text(value)) ? 1 : 0;
          case REPLACE_IF_EQUALS -> boxed.replace(key, text(expected), text(value)) ? 1 : 0;
          case COMPUTE_IF_ABSENT -> orAbsent(t.computeIfAbsent(key, k -> text(value)));
        };
  }

  EntryOptions PIN = EntryOptions.pin();

  private static String text(long value) {
    return Long.toString(value);
  }

  private static long orAbsent(String value) {
    return value == null ? Operation.ABSENT : Long.parseLong(value);
  }

  /** A table of String keys. */
  static KeyedTarget ofStrings(CacheTable<String, Long> t) {
    return (kind, key, value, expected) -> {
      String k = "k" + key;
      return switch (kind) {
        case PUT -> t.put(k, value) == PutResult.INSERTED ? 1 : 0;
        case GET -> orAbsent(t.get(k));
        case CONTAINS -> t.containsKey(k) ? 1 : 0;
        case REMOVE -> t.remove(k) ? 1 : 0;
        case REMOVE_IF_EQUALS -> t.remove(k, expected) ? 1 : 0;
        case PUT_IF_ABSENT -> orAbsent(t.putIfAbsent(k, value));
        case REPLACE -> t.replace(k, value) ? 1 : 0;
        case REPLACE_IF_EQUALS -> t.replace(k, expected, value) ? 1 : 0;
        case COMPUTE_IF_ABSENT -> orAbsent(t.computeIfAbsent(k, kk -> value));
      };
    };
  }

  private static long orAbsent(Long value) {
    return value == null ? Operation.ABSENT : value;
  }
}
