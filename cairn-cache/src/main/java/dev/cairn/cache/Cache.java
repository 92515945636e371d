package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.pile.Pile;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Named tables of key to value, off the Java heap in one {@link Pile}, sharing one byte budget with
 * frequency-aware eviction, and expiry.
 *
 * <p>A cache is volatile ({@link #offHeap}) or persistent ({@link #open}): then its tables, entries
 * and index live in the pile's files, under the pile's log and checkpoints, and a reopen serves the
 * first hit at once, after a clean close or a crash, with nothing rebuilt.
 *
 * {@snippet class=dev.cairn.cache.CacheExamplesTest region=persistent-cache}
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class Cache implements AutoCloseable {
  /**
   * Where a new table's hash seed comes from: a secure random source, so that crafted keys do not
   * collide; a test of the policy's hit ratios fixes it (with its own generator), so that the
   * slots' order, and so its figures, are the same in every run. The source is made at the first
   * new table ({@link Seeds}): a reopened table reads its seed from its descriptor, and making a
   * {@code SecureRandom} costs a fresh JVM about 12 ms of its first open.
   */
  static volatile java.util.function.LongSupplier seeds = new Seeds();

  /** Seeds from a secure source, made when first asked. A class, not a lambda (CacheCore). */
  private static final class Seeds implements java.util.function.LongSupplier {
    @Override
    public long getAsLong() {
      return Source.RANDOM.nextLong();
    }

    private static final class Source {
      static final SecureRandom RANDOM = new SecureRandom();
    }
  }

  private final Pile pile;
  private final CacheCore core;
  private final Object tablesLock = new Object();
  private final KeyPlacement newTablesPlacement; // CacheOptions.hashedKeys

  Cache(Pile pile, CacheCore core, KeyPlacement newTablesPlacement) {
    this.pile = pile;
    this.core = core;
    this.newTablesPlacement = newTablesPlacement;
  }

  /**
   * A volatile cache in a new off-heap pile, gone when closed.
   *
   * @throws IllegalArgumentException if the pile's options are invalid
   */
  public static Cache offHeap(CacheOptions options) {
    Objects.requireNonNull(options, "options");
    return CacheFactory.offHeap(options);
  }

  /**
   * Opens the persistent cache in {@code directory}, or creates it there (a missing or empty
   * directory), as {@link Pile#open} opens a pile: its tables, entries and index come back as the
   * last acknowledged writes left them, after a clean close or a crash, with nothing rebuilt.
   *
   * @throws IOException if the directory cannot be read or written
   * @throws dev.cairn.durability.CorruptFileException if its files are damaged
   * @throws CacheCorruptionException if the cache's own state in them is damaged
   * @throws dev.cairn.pile.ForeignPileException if the directory holds a pile that is not a cache's
   *     (values, or roots, that no cache wrote: a plain {@link Pile}'s); its values are left as
   *     they were
   * @throws dev.cairn.pile.ParticipantRequiredException never: the cache registers itself
   */
  public static Cache open(Path directory, CacheOptions options) throws IOException {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    return CacheFactory.open(RealFileLayer.INSTANCE, directory, options);
  }

  /**
   * The table {@code name}, created with the default {@link TableOptions} if the cache has none of
   * that name; an existing table keeps its entries and its options. Keep the table it returns: a
   * table is thread-safe and lives as long as the cache, and this lookup takes the cache's table
   * lock.
   *
   * @throws TableMismatchException if the table exists with other key or value types
   */
  public <K, V> CacheTable<K, V> table(String name, Class<K> keyType, Class<V> valueType) {
    return tableOf(name, keyType, valueType, null);
  }

  /**
   * The table {@code name}, created with {@code options} if the cache has none of that name. An
   * existing table keeps its entries; its options become {@code options}.
   *
   * @throws TableMismatchException if the table exists with other key or value types
   * @throws CacheException if the cache already holds {@value CacheCore#MAX_TABLES} tables
   */
  public <K, V> CacheTable<K, V> table(
      String name, Class<K> keyType, Class<V> valueType, TableOptions options) {
    return tableOf(name, keyType, valueType, Objects.requireNonNull(options, "options"));
  }

  /** The table, with {@code options} (null: the defaults if new, its own if not). */
  @SuppressWarnings("unchecked")
  private <K, V> OffHeapTable<K, V> tableOf(
      String name, Class<K> keyType, Class<V> valueType, TableOptions options) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(valueType, "valueType");
    if (name.isEmpty() || name.length() > 255) {
      throw new IllegalArgumentException("a table name has 1 to 255 characters: \"" + name + "\"");
    }
    core.checkOpen();
    KeyCodec<K> keys = KeyCodec.of(keyType, core.codecs());
    String valueName = boxed(valueType).getName();
    synchronized (tablesLock) {
      for (OffHeapTable<?, ?> t : core.tables()) {
        TableDescriptor d = t.descriptor();
        if (d.name().equals(name)) {
          if (!d.keyType().equals(keys.typeName()) || !d.valueType().equals(valueName)) {
            throw new TableMismatchException(
                "table \""
                    + name
                    + "\" holds "
                    + d.keyType()
                    + " -> "
                    + d.valueType()
                    + ", asked for "
                    + keys.typeName()
                    + " -> "
                    + valueName
                    + ": open it with its own types, or use another name");
          }
          OffHeapTable<K, V> table = (OffHeapTable<K, V>) t;
          table.bind(keys, (Class<V>) boxed(valueType));
          if (options != null && !d.options().equals(options)) {
            core.updateTable(table, d.withOptions(options));
          }
          return table;
        }
      }
      if (core.tables().size() >= CacheCore.MAX_TABLES) {
        throw new CacheException("a cache holds at most " + CacheCore.MAX_TABLES + " tables");
      }
      int id = core.newTableId();
      TableDescriptor d =
          new TableDescriptor(
              id,
              name,
              keys.typeName(),
              valueName,
              seeds.getAsLong(),
              core.nowMillis(),
              options != null ? options : TableOptions.defaults(),
              newTablesPlacement);
      OffHeapTable<K, V> table = new OffHeapTable<>(core, d, new HashIndex(id, core.log()));
      table.bind(keys, (Class<V>) boxed(valueType));
      core.createTable(table);
      return table;
    }
  }

  /**
   * The table {@code name} of {@code long} keys, with no boxing on its paths; created with {@code
   * options} if the cache has none of that name.
   *
   * @throws TableMismatchException if the table exists with other key or value types
   */
  public <V> LongCacheTable<V> longTable(String name, Class<V> valueType, TableOptions options) {
    Objects.requireNonNull(options, "options");
    return new LongKeyTable<>(tableOf(name, Long.class, valueType, options));
  }

  /** {@link #longTable(String, Class, TableOptions)} with the default options. */
  public <V> LongCacheTable<V> longTable(String name, Class<V> valueType) {
    return new LongKeyTable<>(tableOf(name, Long.class, valueType, null));
  }

  /**
   * A view of {@code table}, a table of {@code byte[]} keys, that takes {@code long} keys with no
   * boxing and no array: the key {@code k} is the 8-byte array of {@code k} in big-endian order,
   * the same key as that array through {@code table}. For a table whose keys are ids under a codec
   * of the caller's own (JCache's), where most keys are longs. Its {@link LongCacheTable#boxed}
   * throws: {@code table} is the boxed form.
   *
   * @throws IllegalArgumentException if {@code table} is not a table of this cache with {@code
   *     byte[]} keys
   * @throws NullPointerException if {@code table} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   */
  @SuppressWarnings("unchecked")
  public <V> LongCacheTable<V> longKeys(CacheTable<byte[], V> table) {
    Objects.requireNonNull(table, "table");
    core.checkOpen();
    if (!(table instanceof OffHeapTable<?, ?> t) || !t.belongsTo(core) || !t.bytesKeys()) {
      throw new IllegalArgumentException(
          "not a table of byte[] keys of this cache: " + table.name());
    }
    return new LongKeyTable<>((OffHeapTable<?, V>) t);
  }

  private static Class<?> boxed(Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
  }

  /**
   * Drops the table {@code name}: removes every entry and the table's index, and forgets the table,
   * durably as any write (in a persistent cache, a drop acknowledged is never undone by a crash,
   * and a crash before it leaves the table as it was or with some of its entries removed). Every
   * handle of the table throws {@link TableDroppedException} from then on; {@link #table} of that
   * name makes a new, empty table, with any types and options. The removal listener is told of no
   * entry. Takes the cache's table lock for the whole drop, and time in proportion to the table's
   * entries, as {@link CacheTable#clear} does.
   *
   * {@snippet class=dev.cairn.cache.CacheExamplesTest region=drop-table}
   *
   * @return whether the cache had a table of that name
   * @throws NullPointerException if {@code name} is null
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   */
  public boolean dropTable(String name) {
    Objects.requireNonNull(name, "name");
    core.checkOpen();
    synchronized (tablesLock) {
      for (OffHeapTable<?, ?> t : core.tables()) {
        if (t.name().equals(name)) {
          t.drop();
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The names of the tables, in creation order: a copy. Also after {@link #close}, the names as
   * they were at the close.
   */
  public List<String> tableNames() {
    List<String> names = new ArrayList<>();
    for (OffHeapTable<?, ?> t : core.tables()) {
      names.add(t.name());
    }
    return names;
  }

  /**
   * Sets the listener told of entries that expire or are evicted (null for none); it gets the key
   * only in tables bound by {@link #table} in this process.
   */
  public void removalListener(RemovalListener<?> listener) {
    core.listener(listener);
  }

  /**
   * The cache's figures: budget, bytes used, and every table's counters. Also after {@link #close},
   * which keeps them as they were at the close (a report written on shutdown, say).
   */
  public CacheStats stats() {
    List<TableStats> tables = new ArrayList<>();
    for (OffHeapTable<?, ?> t : core.tables()) {
      tables.add(t.stats());
    }
    return new CacheStats(core.budgetBytes(), core.usedBytes(), tables);
  }

  /**
   * Checks, on a cache no other thread writes to meanwhile, that its index and its pile agree:
   * every slot names a live entry of its own key, the counts and byte totals add up, no value in
   * the pile is held by nothing, and the eviction policy's totals are the sums over the entries it
   * counts. Returns the number of entries checked.
   *
   * @throws CacheCorruptionException naming the first disagreement
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   */
  public long verify() {
    core.checkOpen();
    return CacheVerifier.verify(pile, core).entries();
  }

  /** What the cache's tables share: for CacheDirectory and tests of this package. */
  CacheCore core() {
    return core;
  }

  /** The pile under the cache, for its statistics and checks; do not write to it. */
  public Pile pile() {
    return pile;
  }

  /** Closes the cache and its pile; a persistent cache checkpoints first. Idempotent. */
  @Override
  public void close() {
    core.close();
    pile.close();
  }
}
