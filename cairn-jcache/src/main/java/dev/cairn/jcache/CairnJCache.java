package dev.cairn.jcache;

import dev.cairn.cache.CacheFullException;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.EntryTooLargeException;
import dev.cairn.cache.LongCacheTable;
import java.io.Closeable;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.Lock;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.CacheEntryListenerConfiguration;
import javax.cache.configuration.CompleteConfiguration;
import javax.cache.configuration.Configuration;
import javax.cache.event.EventType;
import javax.cache.expiry.Duration;
import javax.cache.expiry.EternalExpiryPolicy;
import javax.cache.integration.CacheLoaderException;
import javax.cache.integration.CacheWriter;
import javax.cache.integration.CompletionListener;
import javax.cache.processor.EntryProcessor;
import javax.cache.processor.EntryProcessorException;
import javax.cache.processor.EntryProcessorResult;

/**
 * A JSR-107 cache over one table of a Cairn cache: keys and values stored by value, off the heap
 * (and on disk, when the cache manager's URI names a directory).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Parts: KeyLocks (the key locks, and the delivery of events as one is released), Expiries (the
 * ExpiryPolicy and the instants it gives), Integration (the loader and the writer), Listeners,
 * JCacheStatistics, Marshaller. This class is the JSR-107 surface over them: each operation's
 * own rules of locking, statistics and events, spelled out per method. That surface is why it
 * is longer than Cairn's 800-line rule of thumb: javax.cache.Cache has some thirty operations,
 * each a short sequence over the parts above, and split by operation they would share every
 * field.
 *
 * Storage: the table maps key bytes to stored bytes (Marshaller): the value, and its expiry
 * as JCache's ExpiryPolicy set it. The table's own expiry is set to the same instant, so that
 * Cairn reclaims an expired entry by itself; this class also checks the instant on every read,
 * so an expired entry is never returned even before Cairn reclaims it.
 *
 * J1 Every operation that changes a key, or reads it and may change it (an access that moves its
 *    expiry, a conditional write), holds the key's lock (KeyLocks: the table's own key lock, one
 *    of 1,024 stripes, which every write of the table holds) for its read, its writer call and its
 *    change: so a key's changes are one at a time, a writer sees them in order, and events are
 *    collected in that order (Listeners L1).
 * J2 A plain get reads without the lock; it takes the lock only to move the expiry of an entry
 *    whose policy has an access duration, or to remove an entry found expired.
 * J3 The writer is called before the change, under the key's lock; if it throws, nothing
 *    changes and the caller gets a CacheWriterException. A value loaded by read-through is
 *    stored without calling the writer.
 * J4 Events are delivered before the key's lock is released (Listeners L1): synchronous
 *    listeners run, and asynchronous ones are queued, in the order of the key's changes. A
 *    listener, loader or writer may call the cache again, on the same key too (the lock is
 *    reentrant); two listeners on two threads that each wait for the other's key deadlock, as
 *    with any lock, and so do two that call clear() or removeAll() at once: each waits for the
 *    lock of every key, the other's included.
 * J5 Expiry: a duration of zero on creation stores nothing (an EXPIRED event carries the value,
 *    no CREATED, no put counted); on update the entry is updated, then expires at once (UPDATED,
 *    then EXPIRED). A policy that throws or returns null leaves the expiry as it was (eternal
 *    on creation); so does an access whose new expiry Cairn refuses to store (the entry with it
 *    larger than the whole budget, or no room left but pinned entries' bytes): the read returns
 *    the value all the same, as it would have had the access moved nothing.
 * J6 A put reads the value it replaces only if something needs it: a listener (its event), a
 *    writer, or a policy other than EternalExpiryPolicy (the update's expiry). Else it stores,
 *    and counts as if it created the entry: with an eternal policy, creation and update store the
 *    same expiry. Such a blind put is the table's put alone, whose write holds the key's lock
 *    (J1) as long as it needs it: it takes no lock of its own.
 * J7 Under an EternalExpiryPolicy a get that finds a live entry takes no lock and makes no event
 *    list: its read moves no expiry (J2). Timing is read only while statistics are enabled.
 * J8 A Long key's bytes are its 8 big-endian bytes (Marshaller), the key of the table's long view
 *    (Cache.longKeys), whose writes take the lock of those bytes (KeyLocks.of): J7's get and J6's
 *    blind put of a Long key go through the view with no key array, to the same entry and under
 *    the same lock as every other operation on that key.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class CairnJCache<K, V> implements Cache<K, V> {

  private final CairnCacheManager manager;
  private final String name;
  private final CairnConfiguration<K, V> configuration;
  private final CacheTable<byte[], Object> table;
  private final LongCacheTable<Object> longTable; // J8: the same table, by Long key
  private final Marshaller marshaller;
  private final JCacheStatistics statistics = new JCacheStatistics();
  private final JCacheConfigurationBean configurationBean = new JCacheConfigurationBean(this);
  private final Listeners<K, V> listeners;
  private final KeyLocks<K, V> locks;
  private final Expiries expiries;
  private final Integration<K, V> integration;
  private final ExecutorService loads;
  // J6: nothing needs the value a put replaces: no listener, no writer, an eternal policy
  private volatile boolean blindPuts;
  private volatile boolean closed;

  @SuppressWarnings("unchecked")
  CairnJCache(
      CairnCacheManager manager,
      String name,
      CairnConfiguration<K, V> configuration,
      CacheTable<byte[], Object> table,
      LongCacheTable<Object> longTable,
      Marshaller marshaller,
      ExecutorService loads) {
    this.manager = manager;
    this.name = name;
    this.configuration = configuration;
    this.table = table;
    this.longTable = longTable;
    this.marshaller = marshaller;
    this.loads = loads;
    this.listeners = new Listeners<>(name);
    this.locks = new KeyLocks<>(table, listeners);
    this.expiries =
        new Expiries(
            configuration.getExpiryPolicyFactory() == null
                ? new EternalExpiryPolicy()
                : configuration.getExpiryPolicyFactory().create());
    this.integration =
        new Integration<>(
            name,
            configuration,
            configuration.getCacheLoaderFactory() == null
                ? null
                : configuration.getCacheLoaderFactory().create(),
            configuration.getCacheWriterFactory() == null
                ? null
                : (CacheWriter<K, V>) configuration.getCacheWriterFactory().create());
    for (CacheEntryListenerConfiguration<K, V> l :
        configuration.getCacheEntryListenerConfigurations()) {
      listeners.register(l);
    }
    statistics.enabled(configuration.isStatisticsEnabled());
    updateBlindPuts();
  }

  /** J6: whether a put may skip reading the value it replaces. */
  private void updateBlindPuts() {
    blindPuts = listeners.isEmpty() && !integration.writesThrough() && expiries.eternal();
  }

  // ------------------------------------------------------------------------------------- reads

  @Override
  public V get(K key) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    long start = statistics.isEnabled() ? System.nanoTime() : 0;
    byte[] k = key instanceof Long ? null : marshaller.key(key); // J8: a Long needs no array
    // J7: a live entry's read changes nothing, so it needs no lock and no event
    if (expiries.eternal()) {
      Object stored = k == null ? longTable.get((Long) key) : table.get(k);
      if (stored != null && Marshaller.liveAt(Marshaller.expireAt(stored))) {
        V value = decodeFresh(stored);
        statistics.hits(1);
        statistics.getTime(start);
        return value;
      }
    }
    if (k == null) {
      k = marshaller.key(key);
    }
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    V value = readLive(key, k, events, true);
    if (value != null) {
      statistics.hits(1);
      statistics.getTime(start);
      return value;
    }
    statistics.misses(1);
    if (integration.readsThrough()) {
      value = loadAndStore(key, k);
    }
    statistics.getTime(start);
    return value;
  }

  /**
   * The live value of {@code k}, or null; an expired entry found is removed (EXPIRED event), and a
   * live one's expiry moved by the policy's access duration if {@code access} (J2).
   */
  private V readLive(K key, byte[] k, List<CairnEntryEvent<K, V>> events, boolean access) {
    return readLive(key, k, table.get(k), events, access);
  }

  /** {@link #readLive} of what the table held for the key, {@code stored}, read just before. */
  private V readLive(
      K key, byte[] k, Object stored, List<CairnEntryEvent<K, V>> events, boolean access) {
    if (stored == null) {
      return null;
    }
    long now = System.currentTimeMillis();
    if (Marshaller.expireAt(stored) <= now) {
      Lock lock = locks.of(k);
      lock.lock();
      try {
        expireIfStill(key, k, events);
      } finally {
        locks.release(lock, events);
      }
      return null;
    }
    V value = decode(stored);
    if (access) {
      accessed(key, k, stored, now, events);
    }
    return value;
  }

  /** Under the key's lock: removes the entry if it is expired now, with an EXPIRED event. */
  private boolean expireIfStill(K key, byte[] k, List<CairnEntryEvent<K, V>> events) {
    Object stored = table.get(k);
    if (stored != null && Marshaller.expireAt(stored) <= System.currentTimeMillis()) {
      table.remove(k, stored);
      if (listeners.wants(EventType.EXPIRED)) {
        V old = decode(stored);
        events.add(new CairnEntryEvent<>(this, EventType.EXPIRED, key, old, old, true));
      }
      return true;
    }
    return false;
  }

  /** Moves the expiry of a live entry just read, as the policy's access duration says (J2, J5). */
  private void accessed(K key, byte[] k, Object stored, long now, List<CairnEntryEvent<K, V>> ev) {
    Duration d = expiries.access();
    if (d == null) {
      return;
    }
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object current = table.get(k);
      if (current == null || !Objects.deepEquals(current, stored)) {
        return; // changed meanwhile: that change set its own expiry
      }
      if (d.isZero()) {
        table.remove(k, current);
        if (listeners.wants(EventType.EXPIRED)) {
          V old = decode(current);
          ev.add(new CairnEntryEvent<>(this, EventType.EXPIRED, key, old, old, true));
        }
        return;
      }
      long expireAt = Expiries.expireAt(d, now);
      try {
        table.put(k, marshaller.withExpiry(current, expireAt), Expiries.options(expireAt));
      } catch (CacheFullException | EntryTooLargeException e) {
        // J5: the entry keeps its expiry, and the read its value; Cairn changed nothing
      }
    } finally {
      locks.release(lock, ev);
    }
  }

  /** Read-through of a missed key: loads it, and stores what the loader returns (J3). */
  private V loadAndStore(K key, byte[] k) {
    V value = integration.load(key);
    if (value == null) {
      return null;
    }
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    Lock lock = locks.of(k);
    lock.lock();
    try {
      storeLoaded(key, k, value, events, false);
    } finally {
      locks.release(lock, events);
    }
    return value;
  }

  /** Under the key's lock: stores a loaded value (no writer), unless present and not replacing. */
  private void storeLoaded(
      K key, byte[] k, V value, List<CairnEntryEvent<K, V>> events, boolean replace) {
    Object old = liveStored(k);
    if (old != null && !replace) {
      return;
    }
    store(key, k, value, old, events);
  }

  @Override
  public Map<K, V> getAll(Set<? extends K> keys) {
    checkOpen();
    requireNoNulls(keys);
    long start = System.nanoTime();
    Map<K, V> found = new HashMap<>();
    List<K> missing = new ArrayList<>();
    List<CairnEntryEvent<K, V>> events = new ArrayList<>();
    List<byte[]> marshalled = new ArrayList<>(keys.size());
    for (K key : keys) {
      marshalled.add(marshaller.key(key));
    }
    // the table reads its keys a window at a time, their misses overlapping (CacheTable.getAll);
    // its map is keyed by these very arrays, so that a lookup by identity finds each
    Map<byte[], Object> stored = table.getAll(marshalled);
    int i = 0;
    for (K key : keys) {
      byte[] k = marshalled.get(i++);
      V value = readLive(key, k, stored.get(k), events, true);
      if (value != null) {
        found.put(key, value);
      } else {
        missing.add(key);
      }
    }
    statistics.hits(found.size());
    statistics.misses(missing.size());
    if (!missing.isEmpty() && integration.readsThrough()) {
      Map<K, V> loaded = integration.loadAll(missing);
      if (loaded != null) {
        List<CairnEntryEvent<K, V>> loadEvents = new ArrayList<>();
        RuntimeException failure = null;
        for (Map.Entry<K, V> e : loaded.entrySet()) {
          if (e.getKey() == null || e.getValue() == null) {
            continue;
          }
          byte[] k = marshaller.key(e.getKey());
          Lock lock = locks.of(k);
          lock.lock();
          try {
            storeLoaded(e.getKey(), k, e.getValue(), loadEvents, false);
          } finally {
            failure = locks.release(lock, loadEvents, failure);
          }
          found.put(e.getKey(), e.getValue());
        }
        if (failure != null) {
          throw failure;
        }
      }
    }
    statistics.getTime(start);
    return found;
  }

  @Override
  public boolean containsKey(K key) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    Object stored = table.get(marshaller.key(key));
    return stored != null && Marshaller.liveAt(Marshaller.expireAt(stored));
  }

  @Override
  public void loadAll(
      Set<? extends K> keys, boolean replaceExistingValues, CompletionListener completion) {
    checkOpen();
    requireNoNulls(keys);
    CompletionListener done = completion == null ? new NoCompletionListener() : completion;
    if (!integration.hasLoader()) {
      done.onCompletion();
      return;
    }
    List<K> toLoad = new ArrayList<>(keys);
    loads.execute(
        () -> {
          try {
            List<K> wanted = new ArrayList<>();
            for (K key : toLoad) {
              if (replaceExistingValues || !containsKey(key)) {
                wanted.add(key);
              }
            }
            Map<K, V> loaded = wanted.isEmpty() ? Map.of() : integration.loadAll(wanted);
            List<CairnEntryEvent<K, V>> events = new ArrayList<>();
            RuntimeException failure = null;
            if (loaded != null) {
              for (Map.Entry<K, V> e : loaded.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) {
                  continue;
                }
                byte[] k = marshaller.key(e.getKey());
                Lock lock = locks.of(k);
                lock.lock();
                try {
                  storeLoaded(e.getKey(), k, e.getValue(), events, replaceExistingValues);
                } finally {
                  failure = locks.release(lock, events, failure);
                }
              }
            }
            if (failure != null) {
              throw failure;
            }
            done.onCompletion();
          } catch (Exception e) {
            done.onException(
                e instanceof CacheLoaderException ? e : new CacheLoaderException(e.toString(), e));
          }
        });
  }

  /** A completion listener that ignores what it is told. */
  private static final class NoCompletionListener implements CompletionListener {
    @Override
    public void onCompletion() {}

    @Override
    public void onException(Exception e) {}
  }

  // ------------------------------------------------------------------------------------ writes

  /**
   * Cairn's refusal of a write (the budget full of pinned entries, an entry too large to keep) as
   * the {@link CacheException} JCache's callers expect for "a problem doing the put", the refusal
   * its cause; nothing was stored.
   */
  private static CacheException refused(dev.cairn.cache.CacheException e) {
    return new CacheException(e.getMessage(), e);
  }

  @Override
  public void put(K key, V value) {
    checkOpen();
    requireKeyValue(key, value);
    long start = statistics.isEnabled() ? System.nanoTime() : 0;
    if (blindPuts) { // J6: store() of an eternal blind put
      Object stored = marshaller.stored(value, Marshaller.ETERNAL);
      try { // the table's put holds the key's lock (J1)
        if (key instanceof Long l) {
          longTable.put(l, stored); // J8
        } else {
          table.put(marshaller.key(key), stored);
        }
      } catch (CacheFullException | EntryTooLargeException e) {
        throw refused(e);
      }
      statistics.puts(1);
      statistics.putTime(start);
      return;
    }
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      integration.write(key, value);
      if (store(key, k, value, old, events)) {
        statistics.puts(1);
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.putTime(start);
  }

  @Override
  public V getAndPut(K key, V value) {
    checkOpen();
    requireKeyValue(key, value);
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    V previous;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      previous = old == null ? null : decode(old);
      integration.write(key, value);
      if (store(key, k, value, old, events)) {
        statistics.puts(1);
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.lookup(previous != null);
    statistics.getTime(start);
    statistics.putTime(start);
    return previous;
  }

  @Override
  public void putAll(Map<? extends K, ? extends V> entries) {
    checkOpen();
    Objects.requireNonNull(entries, "entries");
    for (Map.Entry<? extends K, ? extends V> e : entries.entrySet()) {
      requireKeyValue(e.getKey(), e.getValue());
    }
    long start = System.nanoTime();
    Map<K, V> toStore = new LinkedHashMap<>(entries);
    RuntimeException failure = null; // the writer's, else the first listener's
    if (integration.writesThrough()) {
      List<Cache.Entry<? extends K, ? extends V>> batch = new ArrayList<>();
      for (Map.Entry<K, V> e : toStore.entrySet()) {
        batch.add(new CairnEntry<>(e.getKey(), e.getValue()));
      }
      failure = integration.writeAll(batch);
      if (failure != null) {
        for (Cache.Entry<? extends K, ? extends V> notWritten : batch) {
          toStore.remove(notWritten.getKey()); // what the writer left was not written
        }
      }
    }
    List<CairnEntryEvent<K, V>> events = new ArrayList<>();
    for (Map.Entry<K, V> e : toStore.entrySet()) {
      byte[] k = marshaller.key(e.getKey());
      Lock lock = locks.of(k);
      lock.lock();
      try {
        if (store(e.getKey(), k, e.getValue(), blindPuts ? null : liveStored(k), events)) {
          statistics.puts(1);
        }
      } finally {
        failure = locks.release(lock, events, failure);
      }
    }
    statistics.putTime(start);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public boolean putIfAbsent(K key, V value) {
    checkOpen();
    requireKeyValue(key, value);
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    boolean stored = false;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      if (liveStored(k) == null) {
        integration.write(key, value);
        if (store(key, k, value, null, events)) {
          statistics.puts(1);
        }
        stored = true;
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.lookup(!stored); // putIfAbsent of an absent key is a miss
    statistics.putTime(start);
    return stored;
  }

  @Override
  public boolean remove(K key) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    boolean removed;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      integration.delete(key);
      removed = old != null && removeStored(key, k, old, events);
    } finally {
      locks.release(lock, events);
    }
    if (removed) {
      statistics.removals(1);
    }
    statistics.removeTime(start);
    return removed;
  }

  @Override
  public boolean remove(K key, V oldValue) {
    checkOpen();
    requireKeyValue(key, oldValue);
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    Object expected = marshaller.stored(oldValue, Marshaller.ETERNAL);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    boolean removed = false;
    boolean found;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      found = old != null;
      if (found && marshaller.sameValue(old, expected)) {
        integration.delete(key);
        removed = removeStored(key, k, old, events);
      } else if (found) {
        accessed(key, k, old, System.currentTimeMillis(), events);
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.lookup(found);
    if (removed) {
      statistics.removals(1);
    }
    statistics.getTime(start);
    statistics.removeTime(start);
    return removed;
  }

  @Override
  public V getAndRemove(K key) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    V previous = null;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      integration.delete(key);
      if (old != null) {
        previous = decode(old);
        removeStored(key, k, old, events);
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.lookup(previous != null);
    if (previous != null) {
      statistics.removals(1);
    }
    statistics.getTime(start);
    statistics.removeTime(start);
    return previous;
  }

  @Override
  public boolean replace(K key, V oldValue, V newValue) {
    checkOpen();
    requireKeyValue(key, oldValue);
    Objects.requireNonNull(newValue, "newValue");
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    Object expected = marshaller.stored(oldValue, Marshaller.ETERNAL);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    boolean replaced = false;
    boolean found;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      found = old != null;
      if (found && marshaller.sameValue(old, expected)) {
        integration.write(key, newValue);
        store(key, k, newValue, old, events);
        replaced = true;
      } else if (found) {
        accessed(key, k, old, System.currentTimeMillis(), events);
      }
    } finally {
      locks.release(lock, events);
    }
    statistics.lookup(found);
    if (replaced) {
      statistics.puts(1);
      statistics.putTime(start);
    }
    statistics.getTime(start);
    return replaced;
  }

  @Override
  public boolean replace(K key, V value) {
    return getAndReplaceInternal(key, value) != null;
  }

  @Override
  public V getAndReplace(K key, V value) {
    return getAndReplaceInternal(key, value);
  }

  private V getAndReplaceInternal(K key, V value) {
    checkOpen();
    requireKeyValue(key, value);
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    V previous = null;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      if (old != null) {
        previous = decode(old);
        integration.write(key, value);
        store(key, k, value, old, events);
      }
    } finally {
      locks.release(lock, events);
    }
    if (previous != null) {
      statistics.hits(1);
      statistics.puts(1);
      statistics.putTime(start);
    } else {
      statistics.misses(1);
    }
    statistics.getTime(start);
    return previous;
  }

  @Override
  public void removeAll(Set<? extends K> keys) {
    checkOpen();
    requireNoNulls(keys);
    removeKeys(new ArrayList<>(keys));
  }

  @Override
  public void removeAll() {
    checkOpen();
    List<K> keys = new ArrayList<>();
    for (Map.Entry<byte[], Object> e : table) {
      @SuppressWarnings("unchecked")
      K key = (K) marshaller.keyOf(e.getKey());
      keys.add(key);
    }
    removeKeys(keys);
  }

  private void removeKeys(List<K> keys) {
    long start = System.nanoTime();
    List<K> toRemove = new ArrayList<>(keys);
    RuntimeException failure = null; // the writer's, else the first listener's
    if (integration.writesThrough() && !toRemove.isEmpty()) {
      List<Object> batch = new ArrayList<>(toRemove);
      failure = integration.deleteAll(batch);
      if (failure != null) {
        toRemove.removeAll(new HashSet<>(batch)); // what the writer left was not deleted
      }
    }
    List<CairnEntryEvent<K, V>> events = new ArrayList<>();
    int removed = 0;
    for (K key : toRemove) {
      byte[] k = marshaller.key(key);
      Lock lock = locks.of(k);
      lock.lock();
      try {
        Object old = liveStored(k);
        if (old != null && removeStored(key, k, old, events)) {
          removed++;
        }
      } finally {
        failure = locks.release(lock, events, failure);
      }
    }
    statistics.removals(removed);
    statistics.removeTime(start);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void clear() {
    checkOpen();
    table.clear();
  }

  // ------------------------------------------------------------------------- entry processors

  @Override
  public <T> T invoke(K key, EntryProcessor<K, V, T> processor, Object... arguments) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(processor, "processor");
    long start = System.nanoTime();
    byte[] k = marshaller.key(key);
    List<CairnEntryEvent<K, V>> events = new ArrayList<>(1);
    T result;
    CairnMutableEntry<K, V> entry;
    Lock lock = locks.of(k);
    lock.lock();
    try {
      Object old = liveStored(k);
      entry =
          new CairnMutableEntry<>(
              key,
              old == null ? null : decode(old),
              integration.readsThrough() ? integration::load : null);
      try {
        result = processor.process(entry, arguments);
      } catch (EntryProcessorException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new EntryProcessorException(e);
      }
      switch (entry.outcome()) {
        case NONE -> {
          if (entry.readExisting()) {
            accessed(key, k, old, System.currentTimeMillis(), events);
          }
        }
        case LOADED -> store(key, k, entry.value(), null, events);
        case SET -> {
          integration.write(key, entry.value());
          store(key, k, entry.value(), old, events);
          statistics.puts(1);
          statistics.putTime(start);
        }
        case REMOVED -> {
          integration.delete(key);
          if (old != null && removeStored(key, k, old, events)) {
            statistics.removals(1);
            statistics.removeTime(start);
          }
        }
      }
    } finally {
      locks.release(lock, events);
    }
    // the lookup of the key counts, whatever the processor does with the entry (JSR-107 TCK)
    statistics.lookup(entry.existed());
    statistics.getTime(start);
    return result;
  }

  @Override
  public <T> Map<K, EntryProcessorResult<T>> invokeAll(
      Set<? extends K> keys, EntryProcessor<K, V, T> processor, Object... arguments) {
    checkOpen();
    requireNoNulls(keys);
    Objects.requireNonNull(processor, "processor");
    Map<K, EntryProcessorResult<T>> results = new HashMap<>();
    for (K key : keys) {
      try {
        T result = invoke(key, processor, arguments);
        if (result != null) {
          results.put(key, () -> result);
        }
      } catch (EntryProcessorException e) {
        results.put(
            key,
            () -> {
              throw e;
            });
      }
    }
    return results;
  }

  // ------------------------------------------------------------------------------- iteration

  @Override
  public Iterator<Entry<K, V>> iterator() {
    checkOpen();
    Iterator<Map.Entry<byte[], Object>> source = table.iterator();
    return new Iterator<>() {
      private Entry<K, V> next;
      private K last;

      @Override
      public boolean hasNext() {
        while (next == null && source.hasNext()) {
          Map.Entry<byte[], Object> e = source.next();
          Object stored = e.getValue();
          long now = System.currentTimeMillis();
          if (Marshaller.expireAt(stored) <= now) {
            continue;
          }
          @SuppressWarnings("unchecked")
          K key = (K) marshaller.keyOf(e.getKey());
          V value = decode(stored);
          List<CairnEntryEvent<K, V>> events = new ArrayList<>(0);
          accessed(key, e.getKey(), stored, now, events);
          statistics.hits(1);
          next = new CairnEntry<>(key, value);
        }
        return next != null;
      }

      @Override
      public Entry<K, V> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Entry<K, V> e = next;
        next = null;
        last = e.getKey();
        return e;
      }

      @Override
      public void remove() {
        if (last == null) {
          throw new IllegalStateException("next() has not returned an entry to remove");
        }
        CairnJCache.this.remove(last);
        last = null;
      }
    };
  }

  // -------------------------------------------------------------------------------- listeners

  @Override
  public void registerCacheEntryListener(CacheEntryListenerConfiguration<K, V> listener) {
    checkOpen();
    Objects.requireNonNull(listener, "listener");
    listeners.register(listener);
    configuration.addCacheEntryListenerConfiguration(listener);
    updateBlindPuts();
  }

  @Override
  public void deregisterCacheEntryListener(CacheEntryListenerConfiguration<K, V> listener) {
    checkOpen();
    Objects.requireNonNull(listener, "listener");
    listeners.deregister(listener);
    configuration.removeCacheEntryListenerConfiguration(listener);
    updateBlindPuts();
  }

  // ---------------------------------------------------------------------------- the rest

  @Override
  public <C extends Configuration<K, V>> C getConfiguration(Class<C> type) {
    CairnConfiguration<K, V> copy = new CairnConfiguration<>(configuration);
    if (type.isInstance(copy)) {
      return type.cast(copy);
    }
    throw new IllegalArgumentException(
        "cache " + name + " has no configuration of type " + type.getName());
  }

  CompleteConfiguration<K, V> configuration() {
    return configuration;
  }

  JCacheStatistics statistics() {
    return statistics;
  }

  JCacheConfigurationBean configurationBean() {
    return configurationBean;
  }

  void statisticsEnabled(boolean enabled) {
    configuration.setStatisticsEnabled(enabled);
    statistics.enabled(enabled);
  }

  void managementEnabled(boolean enabled) {
    configuration.setManagementEnabled(enabled);
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public CacheManager getCacheManager() {
    return manager;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    manager.released(this);
    listeners.close();
    closeParts();
  }

  /** Closes the cache without telling its manager (the manager is closing or destroying it). */
  void closeQuietly() {
    closed = true;
    listeners.close();
    closeParts();
  }

  /** Closes the expiry policy, the loader and the writer, those that are closeable. */
  private void closeParts() {
    closeIfCloseable(expiries.policy());
    for (Object part : integration.parts()) {
      closeIfCloseable(part);
    }
  }

  private static void closeIfCloseable(Object o) {
    if (o instanceof Closeable c) {
      try {
        c.close();
      } catch (IOException e) {
        throw new CacheException("cannot close " + o, e);
      }
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    if (type.isInstance(table)) {
      return type.cast(table);
    }
    throw new IllegalArgumentException("cache " + name + " unwraps to no " + type.getName());
  }

  @Override
  public String toString() {
    return "CairnJCache{" + name + "}";
  }

  // --------------------------------------------------------------------------------- helpers

  /** Under the key's lock: the stored bytes of {@code k} if live, else null (expired: dropped). */
  private Object liveStored(byte[] k) {
    Object stored = table.get(k);
    if (stored == null || Marshaller.liveAt(Marshaller.expireAt(stored))) {
      return stored;
    }
    return null;
  }

  /**
   * Under the key's lock: stores {@code value} over {@code old} (null if absent), with the creation
   * or update expiry (J5), and adds the event.
   */
  private boolean store(K key, byte[] k, V value, Object old, List<CairnEntryEvent<K, V>> events) {
    long expireAt;
    if (old == null) {
      Duration d = expiries.creation();
      if (d == null) {
        d = Duration.ETERNAL;
      }
      if (d.isZero()) {
        table.remove(k); // an expired entry that may be there goes too
        if (listeners.wants(EventType.EXPIRED)) {
          V created = copy(value);
          events.add(new CairnEntryEvent<>(this, EventType.EXPIRED, key, created, created, true));
        }
        return false; // not stored, not counted as a put
      }
      expireAt = Expiries.expireAt(d);
    } else {
      Duration d = expiries.update();
      expireAt = d == null ? Marshaller.expireAt(old) : Expiries.expireAt(d);
      if (d != null && d.isZero()) {
        table.remove(k); // updated, then expired at once
        if (listeners.wants(EventType.UPDATED)) {
          events.add(
              new CairnEntryEvent<>(this, EventType.UPDATED, key, copy(value), decode(old), true));
        }
        if (listeners.wants(EventType.EXPIRED)) {
          V updated = copy(value);
          events.add(new CairnEntryEvent<>(this, EventType.EXPIRED, key, updated, updated, true));
        }
        return true;
      }
    }
    try {
      table.put(k, marshaller.stored(value, expireAt), Expiries.options(expireAt));
    } catch (CacheFullException | EntryTooLargeException e) {
      throw refused(e);
    }
    if (!listeners.isEmpty()) {
      if (old == null) {
        if (listeners.wants(EventType.CREATED)) {
          events.add(new CairnEntryEvent<>(this, EventType.CREATED, key, copy(value), null, false));
        }
      } else if (listeners.wants(EventType.UPDATED)) {
        events.add(
            new CairnEntryEvent<>(this, EventType.UPDATED, key, copy(value), decode(old), true));
      }
    }
    return true;
  }

  /** Under the key's lock: removes the entry of stored bytes {@code old}, with its event. */
  private boolean removeStored(K key, byte[] k, Object old, List<CairnEntryEvent<K, V>> events) {
    if (!table.remove(k, old)) {
      return false;
    }
    if (listeners.wants(EventType.REMOVED)) {
      V previous = decode(old);
      events.add(new CairnEntryEvent<>(this, EventType.REMOVED, key, previous, previous, true));
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private V decode(Object stored) {
    return (V) marshaller.valueOf(stored);
  }

  /** As {@link #decode}, for a stored form fresh from the table and used for nothing else. */
  @SuppressWarnings("unchecked")
  private V decodeFresh(Object stored) {
    return (V) marshaller.valueOfFresh(stored);
  }

  @SuppressWarnings("unchecked")
  private V copy(V value) {
    return (V) marshaller.copy(value);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("cache " + name + " is closed");
    }
    manager.checkOpen();
  }

  private void requireKeyValue(Object key, Object value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    requireType(configuration.getKeyType(), key, "key");
    requireType(configuration.getValueType(), value, "value");
  }

  private void requireType(Class<?> type, Object o, String what) {
    if (type != Object.class && !type.isInstance(o)) {
      throw new ClassCastException(
          what
              + " of class "
              + o.getClass().getName()
              + " in cache "
              + name
              + ", whose "
              + what
              + "s are "
              + type.getName());
    }
  }

  private static void requireNoNulls(Collection<?> keys) {
    Objects.requireNonNull(keys, "keys");
    for (Object k : keys) {
      Objects.requireNonNull(k, "a key in keys");
    }
  }

  /** An entry handed to a writer or out of the iterator. */
  static final class CairnEntry<K, V> extends AbstractMap.SimpleImmutableEntry<K, V>
      implements Cache.Entry<K, V> {
    private static final long serialVersionUID = 1L;

    CairnEntry(K key, V value) {
      super(key, value);
    }

    @Override
    public <T> T unwrap(Class<T> type) {
      if (type.isInstance(this)) {
        return type.cast(this);
      }
      throw new IllegalArgumentException("an entry unwraps to no " + type.getName());
    }
  }
}
