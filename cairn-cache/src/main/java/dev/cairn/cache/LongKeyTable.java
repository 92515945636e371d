package dev.cairn.cache;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.function.LongFunction;

/**
 * {@link LongCacheTable} over a table's {@link OffHeapTable}: keys encoded without boxing, as their
 * 8 big-endian bytes. The table's keys are {@code Long}s ({@link Cache#longTable}), or {@code
 * byte[]}s, of which a {@code long} is the 8-byte one ({@link Cache#longKeys}): both codecs encode
 * a key to the same bytes, so every path here is the encoded one.
 */
final class LongKeyTable<V> implements LongCacheTable<V> {
  private final OffHeapTable<?, V> table;

  LongKeyTable(OffHeapTable<?, V> table) {
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
    long maxAgeMillis = table.maxAgeMillis(maxAge);
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.getEncoded(sc, table.encodeLong(key, sc), maxAgeMillis);
  }

  @Override
  public int getInto(long key, byte[] into) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.getEncodedInto(sc, table.encodeLong(key, sc), into);
  }

  @Override
  public Lock keyLock(long key) {
    return table.keyLock(key);
  }

  @Override
  public PutResult put(long key, V value) {
    return putWith(key, value, null);
  }

  @Override
  public PutResult put(long key, V value, EntryOptions options) {
    return putWith(key, value, Objects.requireNonNull(options, "options"));
  }

  /** A put with {@code options}, or the table's rules if null. */
  private PutResult putWith(long key, V value, EntryOptions options) {
    Objects.requireNonNull(value, "value");
    return write(key, value, options, OffHeapTable.Mode.ALWAYS, null)
            == OffHeapTable.WriteOutcome.INSERTED
        ? PutResult.INSERTED
        : PutResult.REPLACED;
  }

  @Override
  public V putIfAbsent(long key, V value) {
    Objects.requireNonNull(value, "value");
    OffHeapTable.Holder<V> existing = new OffHeapTable.Holder<>();
    write(key, value, null, OffHeapTable.Mode.IF_ABSENT, existing);
    return existing.value;
  }

  @Override
  public boolean replace(long key, V value) {
    Objects.requireNonNull(value, "value");
    return write(key, value, null, OffHeapTable.Mode.IF_PRESENT, null)
        == OffHeapTable.WriteOutcome.REPLACED;
  }

  private OffHeapTable.WriteOutcome write(
      long key, V value, EntryOptions options, OffHeapTable.Mode mode, OffHeapTable.Holder<V> h) {
    table.checkLive();
    Scratch sc = Scratch.get();
    return table.writeEncoded(sc, table.encodeLong(key, sc), value, options, mode, h);
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
    V value = get(key);
    if (value != null) {
      return value;
    }
    V loaded = table.load(() -> loader.apply(key)); // no lock held: it may call the cache
    if (loaded == null) {
      return null;
    }
    OffHeapTable.Holder<V> existing = new OffHeapTable.Holder<>();
    write(key, loaded, null, OffHeapTable.Mode.IF_ABSENT, existing); // the key encoded again
    return existing.value != null ? existing.value : loaded;
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

  /**
   * {@inheritDoc}
   *
   * @throws UnsupportedOperationException for a view of a table of {@code byte[]} keys ({@link
   *     Cache#longKeys}): that table is the caller's already
   */
  @Override
  @SuppressWarnings("unchecked")
  public CacheTable<Long, V> boxed() {
    if (!table.longKeys()) {
      throw new UnsupportedOperationException(
          "table \""
              + name()
              + "\" has byte[] keys: use the CacheTable<byte[], V> this view was made from");
    }
    return (CacheTable<Long, V>) table;
  }
}
