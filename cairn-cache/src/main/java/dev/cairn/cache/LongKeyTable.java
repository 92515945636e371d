package dev.cairn.cache;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongFunction;

/** {@link LongCacheTable} over the table's {@link OffHeapTable}: keys encoded without boxing. */
final class LongKeyTable<V> implements LongCacheTable<V> {
  private final OffHeapTable<Long, V> table;

  LongKeyTable(OffHeapTable<Long, V> table) {
    this.table = table;
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public V get(long key) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.getEncoded(sc, table.encodeLong(key, sc), Long.MAX_VALUE);
  }

  @Override
  public V get(long key, Duration maxAge) {
    return table.get(key, maxAge);
  }

  @Override
  public PutResult put(long key, V value) {
    return put(key, value, null);
  }

  @Override
  public PutResult put(long key, V value, EntryOptions options) {
    Objects.requireNonNull(value, "value");
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.writeEncoded(
                sc, table.encodeLong(key, sc), value, options, OffHeapTable.Mode.ALWAYS, null)
            == OffHeapTable.WriteOutcome.INSERTED
        ? PutResult.INSERTED
        : PutResult.REPLACED;
  }

  @Override
  public V putIfAbsent(long key, V value) {
    return table.putIfAbsent(key, value);
  }

  @Override
  public boolean replace(long key, V value) {
    return table.replace(key, value);
  }

  @Override
  public boolean remove(long key) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.removeEncoded(sc, table.encodeLong(key, sc), null);
  }

  @Override
  public boolean containsKey(long key) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.containsEncoded(sc, table.encodeLong(key, sc));
  }

  @Override
  public boolean touch(long key) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.touchEncoded(sc, table.encodeLong(key, sc));
  }

  @Override
  public V computeIfAbsent(long key, LongFunction<? extends V> loader) {
    Objects.requireNonNull(loader, "loader");
    return table.computeIfAbsent(key, k -> loader.apply(k));
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
  public CacheTable<Long, V> boxed() {
    return table;
  }
}
