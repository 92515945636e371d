package dev.cairn.cache;

import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The read-modify-write operations of a {@link CacheTable} ({@code compute}, {@code
 * computeIfPresent}, {@code merge}), built on its compare-and-set writes.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * compute is a loop (computeIfPresent and merge are compute of a function that wraps theirs):
 * read the key's value (get), make the new one with no lock held, and store it only if the key
 * still holds what was read: putIfAbsent for an absent key, replace(key, old, new) or
 * remove(key, old) for a present one, each atomic under the key's lock. A write to the
 * key between the read and the set fails the set, and the loop reads again: no update is lost,
 * and the function may run more than once (as ConcurrentMap's defaults may). Why not run the
 * function under the key's lock, as Caffeine's compute does: the cache runs no caller code
 * under its locks (a loader, a listener), so that code may call the cache on any key without
 * deadlock; and a write waits for its log (SYNC) holding no lock (OffHeapTable T6).
 * C1 The compare-and-set compares decoded values with Objects.deepEquals. A value class with no
 *    equals of its own compares by identity, and every read decodes a new object, so no set
 *    could succeed and the loop would not end: such a value is refused (requireValueEquality)
 *    before any set is tried, with nothing written. An array passes (deepEquals compares its
 *    elements, which then need an equals of their own: an array of such objects is not checked).
 * C2 A function that returns the very object it was given changed nothing: no write, so no log
 *    record and no new write time (expiry after write is not pushed back), as Caffeine's compute
 *    does. The value read is returned; it was the key's at the read.
 * }</pre>
 */
final class TableComputes {
  private static final ClassValue<Boolean> VALUE_EQUALITY =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          if (type.isArray()) {
            return true; // deepEquals compares arrays by content
          }
          try {
            return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
          } catch (NoSuchMethodException e) {
            throw new AssertionError("every class has equals(Object)", e);
          }
        }
      };

  private TableComputes() {}

  static <K, V> V compute(
      CacheTable<K, V> table, K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(remapping, "remapping");
    while (true) {
      V old = table.get(key);
      V value = remapping.apply(key, old);
      if (old == null) {
        if (value == null || table.putIfAbsent(key, value) == null) {
          return value;
        }
      } else if (set(table, key, old, value)) {
        return value;
      }
    }
  }

  /** {@link #compute} of a function that leaves an absent key absent, running nothing for it. */
  static <K, V> V computeIfPresent(
      CacheTable<K, V> table, K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
    Objects.requireNonNull(remapping, "remapping");
    return compute(table, key, (k, old) -> old == null ? null : remapping.apply(k, old));
  }

  /** {@link #compute} of a function that stores {@code value} for an absent key. */
  static <K, V> V merge(
      CacheTable<K, V> table,
      K key,
      V value,
      BiFunction<? super V, ? super V, ? extends V> remapping) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(remapping, "remapping");
    return compute(table, key, (k, old) -> old == null ? value : remapping.apply(old, value));
  }

  /**
   * Replaces {@code old} with {@code value}, or removes it for null, if the key still holds it; the
   * very object it was given back (C2) writes nothing.
   */
  private static <K, V> boolean set(CacheTable<K, V> table, K key, V old, V value) {
    if (value == old) {
      return true;
    }
    requireValueEquality(old);
    return value == null ? table.remove(key, old) : table.replace(key, old, value);
  }

  /** C1. */
  static void requireValueEquality(Object value) {
    if (!hasValueEquality(value.getClass())) {
      throw new UnsupportedOperationException(
          "values of "
              + value.getClass().getName()
              + " compare by identity (the class has no equals of its own), and each read decodes"
              + " a new object, so no compare-and-set of one could succeed: give the class an"
              + " equals (a record has one), or use put and a lock of your own");
    }
  }

  static boolean hasValueEquality(Class<?> type) {
    return VALUE_EQUALITY.get(type);
  }
}
