package dev.cairn.cache;

import dev.cairn.cache.index.Chunk;
import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.SlotLayout;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.StalePointerException;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A table: its index, its key locks and its counters, over the cache's pile. When entries expire is
 * its {@link ExpiryRules}' arithmetic; its iteration is a {@link TableIterator}.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * T1  Every write of a key's entry (put, update, remove, expiry, eviction) holds the key's lock
 *     (a stripe of KEY_LOCKS, chosen by the slot's hash bits, so that the evictor finds it from
 *     a slot alone). So a key has at most one entry, and an entry's size is stable while its
 *     lock is held. The evictor only tries its locks: it never waits on a writer. A caller may
 *     hold a key's lock across several calls (CacheTable.keyLock; the JCache provider does, for
 *     each of its operations): the lock is reentrant, so the table's writes take it all the same,
 *     and each releases only its own hold.
 * T2  An entry and its slot change in one pile write: the value write's attachment changes the
 *     slot (under the shard's lock, released after the record is logged: HashIndex I4), so a
 *     crash keeps both or neither.
 * T3  Reads take no lock: the index's lookup and the pile's optimistic read; a candidate is
 *     accepted only if its stored key equals the key's bytes (HashIndex I2).
 * T4  A write that would take the cache's usedBytes past budget + slack makes room before it
 *     writes: it waits for the eviction lock and evicts first, so one that cannot get room
 *     (only pinned entries left) fails with CacheFullException having changed nothing. A write
 *     within budget + slack goes ahead, and the drain after it evicts (Evictor E3): it never
 *     waits for another thread's sweep.
 * T5  The policy byte of a slot (CacheSlots): an inserted entry is stored uncounted and counted
 *     by a drain; a rewrite first sets its entry uncounted under the shard's lock, before the
 *     pile changes its size (Evictor.beforeRewrite, CacheSlots V2); a removal reports the
 *     segment it removed (Evictor.onRemoved). A hit only sets the referenced bit.
 * T6  A put or a remove hands its key lock to its change, which releases it with the shard's, once
 *     the record is in the log and before the write waits for durability: a SYNC write waits for
 *     its force holding no lock of the cache's, so that another write of a key that shares the lock
 *     stripe is not held for a whole force (unless its caller holds the key's lock itself, T1: the
 *     hand-over releases the write's own hold only). The write is visible from its apply on (reads
 *     take no lock, T3); a later write of the key logs after it, so its wait covers both. A change
 *     that was not applied (the shard was full, the entry went) leaves the lock with its writer,
 *     which tries again under it. A write that may insert grows the index before it takes the key
 *     lock (a growth is a write of its own, logged but not waited for: the insert logs after it, so
 *     the insert's wait covers both); under the lock it grows only if another insert filled the
 *     shard meanwhile.
 * T7  A drop (Cache.dropTable) sets dropped, then takes and releases every key lock, then
 *     removes every entry, then logs the drop, which retires the index's regions. A write checks
 *     dropped under its key lock, so once the drop has passed the locks no write inserts: every
 *     entry a write made is there for the removal to find, and none is left held by a table that
 *     is gone. A growth, which takes no key lock, meets the dropped index and retires the region
 *     it made (HashIndex D1).
 * T8  Time: every decision about expiry (is the entry found expired, when does the new one
 *     expire) is made on the cache's clock, read when the write or what it finds has an expiry.
 *     The write time an entry records for get(key, maxAge) is that time when the write read
 *     it, else CoarseClock's (the system clock as of the kernel's last tick), which may be a
 *     few milliseconds early and never late: an entry may look older than it is to such a get,
 *     never younger. A table that keeps no write times (TableOptions.writeTimes) records 0 and
 *     reads no clock for a write with no expiry; such an entry has no age, and a get with a
 *     maximum age (refused while the table keeps none) never returns it.
 * }</pre>
 */
final class OffHeapTable<K, V> implements CacheTable<K, V> {
  static final int KEY_LOCKS = 1024;

  private final CacheCore core;
  private volatile TableDescriptor descriptor; // options may change at a later Cache.table()
  private final long seed; // the descriptor's, which never change
  private final KeyPlacement placement;
  private final long bare; // the form of a bare entry (EntryLayout), from the never-changing types
  // bound by Cache.table(); a table found at open is unbound until then (only the evictor sees it)
  private volatile KeyCodec<K> keys;
  private volatile Class<V> valueType;
  final HashIndex index;
  private final java.util.concurrent.atomic.AtomicLong expiryHand =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean expires; // some entry was written with an expiry
  private final ReentrantLock[] keyLocks = new ReentrantLock[KEY_LOCKS];
  private final ExpiryRules expiry;
  private volatile boolean dropped; // T7: set by drop(), never cleared

  final LongAdder hits = new LongAdder();
  final LongAdder misses = new LongAdder();
  final LongAdder puts = new LongAdder();
  final LongAdder removals = new LongAdder();
  final LongAdder evictions = new LongAdder();
  final LongAdder expirations = new LongAdder();
  final LongAdder loads = new LongAdder();
  final LongAdder loadNanos = new LongAdder();

  OffHeapTable(CacheCore core, TableDescriptor descriptor, HashIndex index) {
    this.core = core;
    this.descriptor = descriptor;
    this.seed = descriptor.seed();
    this.placement = descriptor.placement();
    this.bare = descriptor.bareForm();
    this.index = index;
    for (int i = 0; i < KEY_LOCKS; i++) {
      keyLocks[i] = new ReentrantLock();
    }
    this.expiry = new ExpiryRules(descriptor.epochMillis(), descriptor.options());
  }

  /** Takes a new descriptor (new options), as a logged table record applies it. */
  void describe(TableDescriptor descriptor) {
    if (descriptor.seed() != seed || descriptor.placement() != placement) {
      throw new CacheCorruptionException(
          "a table record for \""
              + descriptor.name()
              + "\" changes the seed or the key placement of its index, which never change");
    }
    this.descriptor = descriptor;
    expiry.use(descriptor.options());
  }

  TableDescriptor descriptor() {
    return descriptor;
  }

  /** Binds the table to its key codec and value class ({@link Cache#table}). */
  void bind(KeyCodec<K> keys, Class<V> valueType) {
    this.keys = keys;
    this.valueType = valueType;
  }

  boolean bound() {
    return keys != null;
  }

  /** Whether the table's keys are {@code Long}s. */
  boolean longKeys() {
    return keys == KeyCodec.LongKeys.INSTANCE;
  }

  /** Whether the table's keys are {@code byte[]}s. */
  boolean bytesKeys() {
    return keys == KeyCodec.BytesKeys.INSTANCE;
  }

  /** Whether the table is one of {@code cache}'s. */
  boolean belongsTo(CacheCore cache) {
    return core == cache;
  }

  @Override
  public String name() {
    return descriptor.name();
  }

  // ------------------------------------------------------------------------------------ reads

  @Override
  public V get(K key) {
    return get(key, Long.MAX_VALUE);
  }

  @Override
  public V get(K key, Duration maxAge) {
    return get(key, maxAgeMillis(maxAge));
  }

  /**
   * A get's maximum age in milliseconds.
   *
   * @throws IllegalStateException if the table keeps no write times ({@link
   *     TableOptions#writeTimes})
   */
  long maxAgeMillis(Duration maxAge) {
    long millis = ExpiryRules.maxAgeMillis(maxAge);
    if (!descriptor.options().writeTimes()) {
      throw new IllegalStateException(
          "table \""
              + name()
              + "\" keeps no write times, so a get cannot tell an entry's age: give the table"
              + " TableOptions.builder().writeTimes(true) to use get(key, maxAge)");
    }
    return millis;
  }

  private V get(K key, long maxAgeMillis) {
    checkLive();
    Scratch sc = Scratch.get();
    return getEncoded(sc, encode(key, sc), maxAgeMillis);
  }

  /** A get of the key in {@code sc}, whose hash is {@code hash}. */
  V getEncoded(Scratch sc, long hash, long maxAgeMillis) {
    return hit(sc, hash, maxAgeMillis, null) ? valueType.cast(sc.found) : null;
  }

  @Override
  public int getInto(K key, byte[] into) {
    checkLive();
    Scratch sc = Scratch.get();
    return getEncodedInto(sc, encode(key, sc), into);
  }

  /** A {@link #getInto} of the key in {@code sc}, whose hash is {@code hash}. */
  int getEncodedInto(Scratch sc, long hash, byte[] into) {
    Objects.requireNonNull(into, "into");
    if (valueType != byte[].class && valueType != String.class) {
      throw new IllegalStateException(
          "getInto copies byte[] and String values; the values of table '"
              + name()
              + "' are "
              + valueType.getName()
              + ": use get");
    }
    return hit(sc, hash, Long.MAX_VALUE, into) ? sc.valueLength : -1;
  }

  /**
   * Looks the key in {@code sc} up as a get does, counting the hit or the miss: true if found, its
   * value in {@code sc.found}, or, with {@code into}, its bytes copied there and its length in
   * {@code sc.valueLength}.
   */
  private boolean hit(Scratch sc, long hash, long maxAgeMillis, byte[] into) {
    // the clock is read only when the entry, its slot or the call has a time to compare with
    sc.lookup(core.log(), core.codecs(), true, core.clock());
    long slot;
    sc.copyInto(into);
    try {
      slot = index.find(hash, sc);
    } finally {
      sc.copyInto(null); // before anything below can call user code (a removal listener)
    }
    if (slot < 0) {
      misses.increment();
      return false;
    }
    long meta = index.metaAt(slot);
    if (sc.found == Scratch.EXPIRED || slotExpired(meta, sc.foundPointer, slot, sc)) {
      expireFound(hash, sc.foundPointer, sc.entry.readSize);
      misses.increment();
      core.deliverRemovals(sc);
      return false;
    }
    if (maxAgeMillis != Long.MAX_VALUE && sc.now() - sc.entry.readWrittenAt > maxAgeMillis) {
      misses.increment();
      return false;
    }
    if (expiry.expiresAfterAccess()) {
      meta = refreshIdle(slot, meta, sc.foundPointer, sc.now());
    }
    core.evictor().onHit(this, slot, meta);
    hits.increment();
    return true;
  }

  /** The table's expiry arithmetic. */
  ExpiryRules expiry() {
    return expiry;
  }

  /** Removes an expired entry found in a slot, if its key's lock is free; the bytes freed. */
  long reap(int shard, long meta, long pointer) {
    long got =
        removeSlot(shard, SlotLayout.hash32OfMeta(meta), pointer, true, RemovalCause.EXPIRED);
    if (got > 0) {
      expirations.increment();
    }
    return got;
  }

  /** How many slots each write samples for expired entries, and at most per write. */
  static final int EXPIRY_SAMPLE = 4;

  static final int EXPIRY_SAMPLE_MAX = 64;

  /**
   * Reclaims expired entries without a sweep over everything: each write to a table whose entries
   * expire samples the next slots of a hand that goes round the index, and goes on while more than
   * a quarter of its sample was expired (as Redis samples its keys).
   */
  private void sampleExpired() {
    long now = core.nowMillis();
    int sampled = 0;
    int expired = 0;
    while (sampled < EXPIRY_SAMPLE_MAX) {
      long at = expiryHand.getAndIncrement();
      int shard = (int) (at & (HashIndex.SHARDS - 1)); // shards interleaved: spread the work
      int capacity = index.capacityOf(shard);
      sampled++;
      if (capacity != 0) {
        long address =
            HashIndex.slotAddress(shard, (int) ((at >>> HashIndex.SHARD_BITS) & (capacity - 1)));
        long pointer = index.pointerAt(address);
        long meta = index.metaAt(address);
        if (pointer != 0
            && pointer != HashIndex.TOMBSTONE
            && expiry.hintPassed(meta, now)
            && reap(shard, meta, pointer) > 0) {
          expired++;
        }
      }
      if (sampled % EXPIRY_SAMPLE == 0 && expired * 4 <= sampled) {
        return;
      }
    }
  }

  /** As {@link #slotExpired(long, long, long, long)}, asking {@code sc} the time if needed. */
  private boolean slotExpired(long meta, long pointer, long slot, Scratch sc) {
    return ExpiryRules.hasHint(meta) && slotExpired(meta, pointer, slot, sc.now());
  }

  /** Whether the slot's expiry (seconds: time-to-idle, or a write expiry) has passed. */
  private boolean slotExpired(long meta, long pointer, long slot, long now) {
    return expiry.hintPassed(meta, now) && index.pointerAt(slot) == pointer;
  }

  /**
   * Time-to-idle: moves the slot's expiry when it changes by a second or more (never logged: a
   * crash keeps the last written one). Returns the slot's meta word as it now is.
   */
  private long refreshIdle(long slot, long meta, long pointer, long now) {
    if (!expiry.expiresAfterAccess()) {
      return meta;
    }
    long updated = SlotLayout.withExpiry(meta, expiry.hintSeconds(sc().entry.readExpireAt, now));
    if (updated != meta && index.pointerAt(slot) == pointer && index.casMeta(slot, meta, updated)) {
      return updated;
    }
    return meta;
  }

  private static Scratch sc() {
    return Scratch.get();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The keys are read {@link #PREFETCH_KEYS} at a time: first the index slot each key's hash
   * starts at, then the entry that slot names, each key's read independent of the others', so that
   * the processor fetches the lines of a window's keys together; then the gets, which find those
   * lines in its caches. A get from memory is two dependent cache misses (slot, then entry): one
   * key after another, each waits for both; in a window, the misses of its keys overlap.
   */
  @Override
  public Map<K, V> getAll(Collection<? extends K> keys) {
    checkLive();
    Object[] all = keys.toArray();
    Map<K, V> found = new LinkedHashMap<>();
    for (int from = 0; from < all.length; from += PREFETCH_KEYS) {
      int to = Math.min(all.length, from + PREFETCH_KEYS);
      prefetch(all, from, to);
      for (int i = from; i < to; i++) {
        @SuppressWarnings("unchecked") // keys holds Ks
        K key = (K) all[i];
        V value = get(key);
        if (value != null) {
          found.put(key, value);
        }
      }
    }
    return found;
  }

  /** Keys whose lines {@link #getAll} fetches together. */
  static final int PREFETCH_KEYS = 16;

  /**
   * Reads the home slot of each key of {@code keys[from, to)}, then the first word of the entry
   * each names: reads that only bring their lines into the processor's caches, for the gets that
   * follow, in loops of a few instructions a key, so that many keys' reads are in flight at once.
   * Nothing is checked: a slot that holds another key's entry, or a tombstone, costs a wasted read.
   */
  private void prefetch(Object[] keys, int from, int to) {
    Scratch sc = Scratch.get();
    long[] words = sc.prefetchWords;
    int n = to - from;
    for (int i = 0; i < n; i++) {
      @SuppressWarnings("unchecked") // keys holds Ks
      K key = (K) keys[from + i];
      words[i] = encode(key, sc);
    }
    for (int i = 0; i < n; i++) {
      words[i] = index.homePointer(words[i]);
    }
    long fetched = 0;
    for (int i = 0; i < n; i++) {
      long pointer = words[i];
      if (pointer != 0 && pointer != HashIndex.TOMBSTONE) {
        fetched += core.log().prefetch(pointer);
      }
    }
    sc.prefetchSink = fetched; // kept, so that the compiler keeps the reads
  }

  @Override
  public boolean containsKey(K key) {
    checkLive();
    Scratch sc = Scratch.get();
    return containsEncoded(sc, encode(key, sc));
  }

  boolean containsEncoded(Scratch sc, long hash) {
    long slot = index.find(hash, sc.lookup(core.log(), core.codecs(), false, core.clock()));
    return slot >= 0
        && sc.found != Scratch.EXPIRED
        && !slotExpired(index.metaAt(slot), sc.foundPointer, slot, sc);
  }

  @Override
  public boolean touch(K key) {
    checkLive();
    Scratch sc = Scratch.get();
    return touchEncoded(sc, encode(key, sc));
  }

  boolean touchEncoded(Scratch sc, long hash) {
    long now = core.nowMillis();
    long slot = index.find(hash, sc.lookup(core.log(), core.codecs(), false, now));
    if (slot < 0 || sc.found == Scratch.EXPIRED) {
      return false;
    }
    long meta = index.metaAt(slot);
    if (slotExpired(meta, sc.foundPointer, slot, now)) {
      return false;
    }
    refreshIdle(slot, meta, sc.foundPointer, now);
    return true;
  }

  @Override
  public long size() {
    checkLive();
    return index.size();
  }

  // ----------------------------------------------------------------------------------- writes

  @Override
  public PutResult put(K key, V value) {
    return putWith(key, value, null);
  }

  @Override
  public PutResult put(K key, V value, EntryOptions options) {
    return putWith(key, value, Objects.requireNonNull(options, "options"));
  }

  /** A put with {@code options}, or the table's rules if null. */
  private PutResult putWith(K key, V value, EntryOptions options) {
    Objects.requireNonNull(value, "value");
    return write(key, value, options, Mode.ALWAYS, null) == WriteOutcome.INSERTED
        ? PutResult.INSERTED
        : PutResult.REPLACED;
  }

  @Override
  public void putAll(Map<? extends K, ? extends V> entries) {
    checkLive();
    for (Map.Entry<? extends K, ? extends V> e : entries.entrySet()) { // all or nothing: no nulls
      Objects.requireNonNull(e.getKey(), "putAll's map holds a null key");
      Objects.requireNonNull(e.getValue(), "putAll's map holds a null value");
    }
    Object[] keys = new Object[PREFETCH_KEYS];
    Object[] values = new Object[PREFETCH_KEYS];
    int n = 0;
    for (Map.Entry<? extends K, ? extends V> e : entries.entrySet()) {
      keys[n] = e.getKey();
      values[n] = e.getValue();
      if (++n == PREFETCH_KEYS) {
        putWindow(keys, values, n);
        n = 0;
      }
    }
    putWindow(keys, values, n);
  }

  /**
   * Puts the first {@code n} of {@code keys} and {@code values}, their slots' and entries' lines
   * read first, as {@link #getAll} does: an insert's first step is the probe of its key's slot.
   */
  private void putWindow(Object[] keys, Object[] values, int n) {
    prefetch(keys, 0, n);
    for (int i = 0; i < n; i++) {
      @SuppressWarnings("unchecked") // keys holds Ks
      K key = (K) keys[i];
      @SuppressWarnings("unchecked") // values holds Vs
      V value = (V) values[i];
      put(key, value);
    }
  }

  @Override
  public V putIfAbsent(K key, V value) {
    Objects.requireNonNull(value, "value");
    Holder<V> existing = new Holder<>();
    write(key, value, null, Mode.IF_ABSENT, existing);
    return existing.value;
  }

  @Override
  public boolean replace(K key, V value) {
    Objects.requireNonNull(value, "value");
    return write(key, value, null, Mode.IF_PRESENT, null) == WriteOutcome.REPLACED;
  }

  @Override
  public boolean replace(K key, V expected, V value) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(value, "value");
    Holder<V> compare = new Holder<>();
    compare.value = expected;
    return write(key, value, null, Mode.IF_EQUAL, compare) == WriteOutcome.REPLACED;
  }

  @Override
  public V computeIfAbsent(K key, Function<? super K, ? extends V> loader) {
    Objects.requireNonNull(loader, "loader");
    V value = get(key);
    if (value != null) {
      return value;
    }
    V loaded = load(() -> loader.apply(key)); // the scratch is re-encoded after (Scratch)
    if (loaded == null) {
      return null;
    }
    Holder<V> existing = new Holder<>();
    write(key, loaded, null, Mode.IF_ABSENT, existing);
    return existing.value != null ? existing.value : loaded;
  }

  /** Runs a loader, with no lock held, and counts it: computeIfAbsent's load. */
  V load(java.util.function.Supplier<? extends V> loader) {
    long start = System.nanoTime();
    V loaded = loader.get();
    loadNanos.add(System.nanoTime() - start);
    loads.increment();
    return loaded;
  }

  enum Mode {
    ALWAYS,
    IF_ABSENT,
    IF_PRESENT,
    IF_EQUAL
  }

  enum WriteOutcome {
    INSERTED,
    REPLACED,
    NOT_WRITTEN
  }

  static final class Holder<T> {
    T value;
  }

  private WriteOutcome write(K key, V value, EntryOptions options, Mode mode, Holder<V> holder) {
    checkLive();
    Scratch sc = Scratch.get();
    return writeEncoded(sc, encode(key, sc), value, options, mode, holder);
  }

  /** A write of the key in {@code sc}, whose hash is {@code hash}. */
  WriteOutcome writeEncoded(
      Scratch sc, long hash, V value, EntryOptions options, Mode mode, Holder<V> holder) {
    if (!valueType.isInstance(value)) {
      throw new IllegalArgumentException(
          "value of another class than the table's: "
              + value.getClass().getName()
              + ", table values are "
              + valueType.getName());
    }
    int shard = HashIndex.shardOf(hash);
    int hash32 = SlotLayout.hash32(hash);
    ReentrantLock lock = stripeLock(hash32);
    long bytesAdded;
    WriteOutcome outcome;
    boolean uncounted = false; // the entry was set uncounted for its rewrite (T5)
    boolean written = false;
    CacheChanges.ShardChange change = null; // the last change, which may release the lock (T6)
    if (mode == Mode.ALWAYS || mode == Mode.IF_ABSENT) {
      core.growIndex(this, shard, sc); // before the key lock, which a shard copy would hold up (T6)
    }
    lock.lock();
    try {
      checkNotDropped(); // T7
      while (true) {
        boolean decode = mode == Mode.IF_ABSENT || mode == Mode.IF_EQUAL;
        // the lookup reads the clock only for an entry whose expiry the clock decides (Scratch)
        long slot = index.find(hash, sc.lookup(core.log(), core.codecs(), decode, core.clock()));
        // a write that reckons an expiry reads the clock too (the lookup's time, if it read it);
        // any other takes its entry's write time from CoarseClock: maybe early, never late (T8),
        // and in a table that keeps no write times none at all (0: no age, EntryLayout)
        long now =
            expiry.timed(options)
                ? sc.now()
                : descriptor.options().writeTimes() ? core.writeMillis(sc) : 0;
        long existing = 0;
        int existingSize = 0;
        if (slot >= 0) {
          if (sc.found == Scratch.EXPIRED
              || slotExpired(index.metaAt(slot), sc.foundPointer, slot, sc)) {
            expireLocked(hash, sc.foundPointer, sc.entry.readSize);
          } else {
            existing = sc.foundPointer;
            existingSize = sc.entry.readSize;
          }
        }
        if (existing == 0 && (mode == Mode.IF_PRESENT || mode == Mode.IF_EQUAL)) {
          return WriteOutcome.NOT_WRITTEN;
        }
        if (existing != 0 && mode == Mode.IF_ABSENT) {
          holder.value = valueType.cast(sc.found);
          return WriteOutcome.NOT_WRITTEN;
        }
        if (existing != 0 && mode == Mode.IF_EQUAL && !Objects.deepEquals(sc.found, holder.value)) {
          return WriteOutcome.NOT_WRITTEN;
        }
        if (existing == 0) {
          core.growIndex(this, shard, sc);
        }
        long expireAt = expiry.expireAt(options, now);
        boolean pinned = descriptor.options().pinned() || (options != null && options.pinned());
        int flags = pinned ? EntryLayout.FLAG_PINNED : 0;
        // the last encoding on this thread before the write (EntryCodec.prepare)
        EntryCodec entry =
            sc.entry.prepare(
                sc.key,
                sc.keyLength,
                value,
                core.codecs(),
                flags,
                now,
                expireAt,
                bareWrite(flags, expireAt, sc.keyLength));
        long newBytes = core.entryAllocatedBytes(entry.sizeBytes());
        long oldBytes = existing == 0 ? 0 : core.log().allocatedBytes(existingSize);
        core.makeRoom(newBytes - oldBytes, newBytes);
        int hint = expiry.hintSeconds(expireAt, now);
        if (hint != 0 && !expires) {
          expires = true;
        }
        int policy;
        if (existing == 0) {
          policy = Evictor.insertBits(pinned);
        } else {
          policy = core.evictor().beforeRewrite(this, shard, hash32, existing, oldBytes, pinned);
          uncounted = true;
        }
        try {
          if (existing == 0) {
            change =
                sc.changes
                    .insert(index, hash, hint, policy, newBytes, sc.record)
                    .releasingKeyLock(lock);
            core.log().put(entry, CacheCore.RECORD_ENTRY, change);
            outcome = WriteOutcome.INSERTED;
          } else {
            change =
                sc.changes
                    .rewrite(index, shard, hash32, hint, policy, newBytes - oldBytes, sc.record)
                    .releasingKeyLock(lock);
            core.log().update(existing, entry, CacheCore.RECORD_ENTRY, change);
            outcome = WriteOutcome.REPLACED;
          }
        } catch (CacheChanges.ShardFullException e) {
          continue; // another insert filled the shard between growIndex and the write
        } catch (StalePointerException | InvalidPointerException e) {
          continue; // the entry went (T1 makes this rare: only clear() of a closed race)
        }
        bytesAdded = newBytes - oldBytes;
        break;
      }
      written = true;
    } finally {
      if (change == null || !change.releasedKeyLock()) {
        lock.unlock();
      }
      if (uncounted && !written) {
        // the rewrite failed: the entry, if still there, is counted again by a drain
        core.evictor().offer(CacheSlots.policyHash(descriptor.id(), shard, hash32));
      }
      core.deliverRemovals(sc); // evictions made room for this write
    }
    core.added(bytesAdded);
    puts.increment();
    core.evictor().afterWrite(this, hash, outcome == WriteOutcome.INSERTED);
    if (expires) {
      sampleExpired();
    }
    core.deliverRemovals(sc); // what the drain evicted, and the expired entries sampled
    return outcome;
  }

  @Override
  public boolean remove(K key) {
    return removeIf(key, null);
  }

  @Override
  public boolean remove(K key, V expected) {
    Objects.requireNonNull(expected, "expected");
    return removeIf(key, expected);
  }

  private boolean removeIf(K key, Object expected) {
    checkLive();
    Scratch sc = Scratch.get();
    return removeEncoded(sc, encode(key, sc), expected);
  }

  /** A remove of the key in {@code sc}, whose hash is {@code hash}. */
  boolean removeEncoded(Scratch sc, long hash, Object expected) {
    ReentrantLock lock = stripeLock(SlotLayout.hash32(hash));
    boolean locked = true; // until deleteLocked hands the lock over (T6)
    lock.lock();
    try {
      // the clock is read only for an entry or slot with an expiry (Scratch, as a get does)
      long slot =
          index.find(hash, sc.lookup(core.log(), core.codecs(), expected != null, core.clock()));
      if (slot < 0) {
        return false;
      }
      if (sc.found == Scratch.EXPIRED
          || slotExpired(index.metaAt(slot), sc.foundPointer, slot, sc)) {
        expireLocked(hash, sc.foundPointer, sc.entry.readSize);
        core.deliverRemovals(sc);
        return false;
      }
      if (expected != null && !Objects.deepEquals(sc.found, expected)) {
        return false;
      }
      boolean removed =
          deleteLocked(
              SlotLayout.hash32(hash),
              HashIndex.shardOf(hash),
              sc.foundPointer,
              core.log().allocatedBytes(sc.entry.readSize),
              lock);
      locked = !sc.changes.remove.releasedKeyLock();
      if (!removed) {
        return false;
      }
    } finally {
      if (locked) {
        lock.unlock();
      }
    }
    removals.increment();
    core.growIndex(this, HashIndex.shardOf(hash), sc); // a shard emptied by removals halves (G2)
    return true;
  }

  @Override
  public void clear() {
    checkLive();
    removeAll(RemovalCause.EXPLICIT);
    Scratch sc = Scratch.get();
    for (int shard = 0; shard < HashIndex.SHARDS; shard++) {
      // the emptied shards give their regions back (HashIndex G2), a halving at a time
      for (int c = index.capacityOf(shard); c > HashIndex.MIN_CAPACITY; c /= 2) {
        core.growIndex(this, shard, sc);
      }
    }
  }

  /**
   * Removes every entry, each under its key's lock, telling the listener of each with {@code cause}
   * (null: of none). The listener is told shard by shard, so that a large table's keys are not all
   * queued at once.
   */
  private void removeAll(RemovalCause cause) {
    Chunk chunk = new Chunk();
    for (int shard = 0; shard < HashIndex.SHARDS; shard++) {
      // by chunks of the scan order, not slot by slot: a removal moves the entries after it back,
      // past a walk's position (HashIndex R1, S1)
      for (long from = HashIndex.SCAN_START; from != HashIndex.SCAN_END; ) {
        from = index.collect(shard, from, chunk);
        for (int i = 0; i < chunk.size(); i++) {
          int hash32 = SlotLayout.hash32OfMeta(chunk.meta(i));
          if (removeSlot(shard, hash32, chunk.pointer(i), false, cause) > 0) {
            removals.increment();
          }
        }
      }
      core.deliverRemovals();
    }
  }

  /**
   * Drops the table (T7): once this returns no write of its handles inserts, every entry is gone
   * from the pile, and the drop is logged (its index regions retired, freed as a growth's are). The
   * listener is told of no entry. The caller holds the cache's table lock.
   */
  void drop() {
    dropped = true;
    for (ReentrantLock lock : keyLocks) {
      lock.lock(); // a write that took it before saw dropped false: wait for it to finish
      try {
        core.checkOpen(); // a cache closed meanwhile stops the drop here
      } finally {
        lock.unlock();
      }
    }
    removeAll(null);
    core.dropTable(this);
  }

  /**
   * Checks that the cache is open and this table was not dropped.
   *
   * @throws dev.cairn.pile.PileClosedException if the cache is closed
   * @throws TableDroppedException if the table was dropped
   */
  void checkLive() {
    core.checkOpen();
    checkNotDropped();
  }

  private void checkNotDropped() {
    if (dropped) {
      throw new TableDroppedException(
          "table \""
              + name()
              + "\" was dropped; get a new table of that name from the cache (Cache.table)");
    }
  }

  /**
   * Removes the entry of {@code pointer} found in a slot (the evictor's and clear's way in): takes
   * the key's lock (only tries it when {@code tryOnly}), checks that the slot still holds it, and
   * deletes it, telling the listener with {@code cause} (null: not at all). Returns the bytes it
   * freed, 0 if it did not.
   */
  long removeSlot(int shard, int hash32, long pointer, boolean tryOnly, RemovalCause cause) {
    ReentrantLock lock = stripeLock(hash32);
    if (tryOnly) {
      if (!lock.tryLock()) {
        return 0;
      }
    } else {
      lock.lock();
    }
    long bytes;
    K key = null;
    try {
      int size;
      try {
        size = core.log().payloadBytes(pointer);
        KeyCodec<K> codec = keys;
        if (cause != null && core.hasListener() && codec != null) {
          key = keyAt(pointer, codec);
        }
      } catch (StalePointerException | InvalidPointerException e) {
        return 0;
      }
      bytes = core.log().allocatedBytes(size);
      if (!deleteLocked(hash32, shard, pointer, bytes)) {
        return 0;
      }
    } finally {
      lock.unlock();
    }
    if (key != null) {
      core.notifyRemoval(name(), key, cause);
    }
    return bytes;
  }

  /**
   * The key of the entry at {@code pointer}, decoded by {@code codec}, for a removal listener.
   *
   * @throws StalePointerException if the entry is gone
   * @throws InvalidPointerException if its block is not a value's
   */
  private K keyAt(long pointer, KeyCodec<K> codec) {
    return core.log()
        .readSlice(
            pointer,
            (payload, mark) -> EntryCodec.decodeKey(payload, EntryLayout.form(mark, bare), codec));
  }

  /** Deletes an expired entry found by a read, if its key's lock is free (reads never wait). */
  private void expireFound(long hash, long pointer, int size) {
    ReentrantLock lock = stripeLock(SlotLayout.hash32(hash));
    if (lock.tryLock()) {
      try {
        expireLocked(hash, pointer, size);
      } finally {
        lock.unlock();
      }
    }
  }

  private void expireLocked(long hash, long pointer, int size) {
    K key = null;
    if (core.hasListener()) {
      try {
        key = keyAt(pointer, keys);
      } catch (StalePointerException | InvalidPointerException e) {
        return;
      }
    }
    if (deleteLocked(
        SlotLayout.hash32(hash),
        HashIndex.shardOf(hash),
        pointer,
        core.log().allocatedBytes(size))) {
      expirations.increment();
      if (key != null) {
        core.notifyRemoval(name(), key, RemovalCause.EXPIRED);
      }
    }
  }

  /** Deletes {@code pointer} and its slot in one write (T2); the key's lock is held (T1). */
  private boolean deleteLocked(int hash32, int shard, long pointer, long bytes) {
    return deleteLocked(hash32, shard, pointer, bytes, null);
  }

  /**
   * Deletes the entry at {@code pointer} and its slot, under the key's lock; {@code keyLock}, if
   * not null, is that lock, handed to the change, which releases it once the delete is logged (T6):
   * the caller asks {@link CacheChanges.ShardChange#releasedKeyLock} of {@code
   * core.changes().remove} before it unlocks.
   */
  private boolean deleteLocked(
      int hash32, int shard, long pointer, long bytes, ReentrantLock keyLock) {
    CacheChanges.Remove change =
        core.changes().remove(index, shard, hash32, bytes, Scratch.get().record);
    if (keyLock != null) {
      change.releasingKeyLock(keyLock);
    }
    try {
      core.log().delete(pointer, CacheCore.RECORD_ENTRY, change);
    } catch (StalePointerException | InvalidPointerException e) {
      return false; // checked before the change: the lock is still the writer's
    }
    if (!change.removed()) {
      return false;
    }
    core.evictor().onRemoved(change.removedPolicy(), bytes);
    core.added(-bytes);
    return true;
  }

  // ---------------------------------------------------------------------------------- helpers

  /**
   * The form an entry with {@code flags}, {@code expireAt} and a key of {@code keyLength} bytes is
   * written in (EntryLayout): bare if its table keeps no write times, it has no flag and no expiry,
   * and a key whose length the entry must give fits a byte; else HEADED.
   */
  private long bareWrite(int flags, long expireAt, int keyLength) {
    return flags == 0
            && expireAt == 0
            && !descriptor.options().writeTimes()
            && (!EntryLayout.prefixed(bare) || keyLength <= EntryLayout.MAX_PREFIXED_KEY_BYTES)
        ? bare
        : EntryLayout.HEADED;
  }

  /**
   * Encodes a {@code long} key into {@code sc}, as its 8 big-endian bytes (tables of {@code long}
   * keys, and of {@code byte[]} keys through {@link Cache#longKeys}); its hash.
   */
  long encodeLong(long key, Scratch sc) {
    sc.keyLength = KeyCodec.LongKeys.encodeLong(key, sc.key);
    sc.bare = bare;
    return placement.hashLong(key, seed, sc.key.segment());
  }

  Class<V> valueType() {
    return valueType;
  }

  private long encode(K key, Scratch sc) {
    Objects.requireNonNull(key, "key");
    sc.keyLength = keys.encode(key, sc.key);
    sc.bare = bare;
    return placement.hash(sc.key.segment(), sc.keyLength, seed);
  }

  @Override
  public Lock keyLock(K key) {
    checkLive();
    return stripeLock(SlotLayout.hash32(encode(key, Scratch.get())));
  }

  /** The lock of the 8-byte key {@code key} ({@link LongKeyTable}'s encoding). */
  Lock keyLock(long key) {
    checkLive();
    return stripeLock(SlotLayout.hash32(encodeLong(key, Scratch.get())));
  }

  /** The key lock of the stripe of the keys whose slot hash is {@code hash32} (T1). */
  ReentrantLock stripeLock(int hash32) {
    return keyLocks[hash32 & (KEY_LOCKS - 1)];
  }

  @Override
  public TableStats stats() {
    return new TableStats(
        name(),
        hits.sum(),
        misses.sum(),
        puts.sum(),
        removals.sum(),
        evictions.sum(),
        expirations.sum(),
        loads.sum(),
        loadNanos.sum(),
        index.size(),
        index.entryBytes(),
        index.regionBytes());
  }

  // --------------------------------------------------------------------------------- iterator

  /**
   * A weakly consistent iterator: each live entry present throughout the iteration is returned
   * once; entries written or removed meanwhile may or may not be. Values are read as it goes.
   */
  @Override
  public Iterator<Map.Entry<K, V>> iterator() {
    checkLive();
    return new TableIterator<>(core, index, expiry, keys, valueType, bare, this::checkLive);
  }
}
