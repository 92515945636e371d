package dev.cairn.cache;

import java.time.Duration;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * A table of {@code Long} keys seen as one of {@code String} keys, for a model written with string
 * keys ({@link CacheModelRun}): each string key names a number ({@code number}), which is the
 * table's key, and back ({@code name}). A table of long keys and string values can hold bare
 * entries (EntryLayout), which a table of string keys never does, so the model runs both forms.
 */
final class LongKeyedView implements CacheTable<String, String> {
  private final CacheTable<Long, String> table;
  private final ToIntFunction<String> number;
  private final IntFunction<String> name;

  LongKeyedView(
      CacheTable<Long, String> table, ToIntFunction<String> number, IntFunction<String> name) {
    this.table = table;
    this.number = number;
    this.name = name;
  }

  private Long key(String key) {
    return (long) number.applyAsInt(key);
  }

  private String name(Long key) {
    return name.apply(Math.toIntExact(key));
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public String get(String key) {
    return table.get(key(key));
  }

  @Override
  public String get(String key, Duration maxAge) {
    return table.get(key(key), maxAge);
  }

  @Override
  public int getInto(String key, byte[] into) {
    return table.getInto(key(key), into);
  }

  @Override
  public Map<String, String> getAll(Collection<? extends String> keys) {
    Map<Long, String> asked = new LinkedHashMap<>();
    for (String k : keys) {
      asked.put(key(k), k);
    }
    Map<String, String> got = new LinkedHashMap<>();
    table.getAll(asked.keySet()).forEach((k, v) -> got.put(asked.get(k), v));
    return got;
  }

  @Override
  public PutResult put(String key, String value) {
    return table.put(key(key), value);
  }

  @Override
  public PutResult put(String key, String value, EntryOptions options) {
    return table.put(key(key), value, options);
  }

  @Override
  public void putAll(Map<? extends String, ? extends String> entries) {
    Map<Long, String> keyed = new LinkedHashMap<>();
    entries.forEach((k, v) -> keyed.put(key(k), v));
    table.putAll(keyed);
  }

  @Override
  public String putIfAbsent(String key, String value) {
    return table.putIfAbsent(key(key), value);
  }

  @Override
  public boolean replace(String key, String value) {
    return table.replace(key(key), value);
  }

  @Override
  public boolean replace(String key, String expected, String value) {
    return table.replace(key(key), expected, value);
  }

  @Override
  public boolean remove(String key) {
    return table.remove(key(key));
  }

  @Override
  public boolean remove(String key, String expected) {
    return table.remove(key(key), expected);
  }

  @Override
  public Lock keyLock(String key) {
    return table.keyLock(key(key));
  }

  @Override
  public String computeIfAbsent(String key, Function<? super String, ? extends String> loader) {
    return table.computeIfAbsent(key(key), k -> loader.apply(key));
  }

  @Override
  public String compute(
      String key, BiFunction<? super String, ? super String, ? extends String> remapping) {
    return table.compute(key(key), (k, v) -> remapping.apply(key, v));
  }

  @Override
  public boolean containsKey(String key) {
    return table.containsKey(key(key));
  }

  @Override
  public boolean touch(String key) {
    return table.touch(key(key));
  }

  @Override
  public long size() {
    return table.size();
  }

  @Override
  public void clear() {
    table.clear();
  }

  @Override
  public TableStats stats() {
    return table.stats();
  }

  @Override
  public Iterator<Map.Entry<String, String>> iterator() {
    Iterator<Map.Entry<Long, String>> entries = table.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public Map.Entry<String, String> next() {
        Map.Entry<Long, String> e = entries.next();
        return new AbstractMap.SimpleImmutableEntry<>(name(e.getKey()), e.getValue());
      }
    };
  }
}
