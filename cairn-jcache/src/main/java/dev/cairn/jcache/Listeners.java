package dev.cairn.jcache;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.cache.configuration.CacheEntryListenerConfiguration;
import javax.cache.configuration.Factory;
import javax.cache.event.CacheEntryCreatedListener;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.CacheEntryEventFilter;
import javax.cache.event.CacheEntryExpiredListener;
import javax.cache.event.CacheEntryListener;
import javax.cache.event.CacheEntryListenerException;
import javax.cache.event.CacheEntryRemovedListener;
import javax.cache.event.CacheEntryUpdatedListener;
import javax.cache.event.EventType;

/**
 * A cache's registered entry listeners and the delivery of its events.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * L1 An operation collects its events while it holds its key's lock and delivers them before
 *    releasing it (CairnJCache J4), so the events of one key reach each listener in the order
 *    of the key's changes.
 * L2 Synchronous listeners run on the caller's thread before the operation returns; an exception
 *    they throw reaches the caller as a CacheEntryListenerException, after the change is made.
 * L3 Asynchronous listeners run on one delivery thread per cache, in the order the events were
 *    queued: per key, the order of the key's changes (L1).
 * }</pre>
 *
 * <p>Thread-safety: registration and delivery may run concurrently from any thread.
 */
final class Listeners<K, V> {

  /** One registered listener, its filter and how it wants its events. */
  private record Registration<K, V>(
      CacheEntryListenerConfiguration<K, V> configuration,
      CacheEntryListener<? super K, ? super V> listener,
      CacheEntryEventFilter<? super K, ? super V> filter) {

    boolean wants(EventType type) {
      return switch (type) {
        case CREATED -> listener instanceof CacheEntryCreatedListener;
        case UPDATED -> listener instanceof CacheEntryUpdatedListener;
        case REMOVED -> listener instanceof CacheEntryRemovedListener;
        case EXPIRED -> listener instanceof CacheEntryExpiredListener;
      };
    }

    @SuppressWarnings("unchecked")
    void deliver(CairnEntryEvent<K, V> event) {
      CacheEntryEvent<K, V> shown =
          configuration.isOldValueRequired() ? event : event.withoutOldValue();
      if (filter != null && !filter.evaluate(shown)) {
        return;
      }
      List<CacheEntryEvent<? extends K, ? extends V>> events = List.of(shown);
      switch (event.getEventType()) {
        case CREATED -> ((CacheEntryCreatedListener<K, V>) listener).onCreated(events);
        case UPDATED -> ((CacheEntryUpdatedListener<K, V>) listener).onUpdated(events);
        case REMOVED -> ((CacheEntryRemovedListener<K, V>) listener).onRemoved(events);
        case EXPIRED -> ((CacheEntryExpiredListener<K, V>) listener).onExpired(events);
      }
    }
  }

  private final List<Registration<K, V>> registrations = new CopyOnWriteArrayList<>();
  private final String cacheName;
  private volatile ExecutorService async;

  Listeners(String cacheName) {
    this.cacheName = cacheName;
  }

  boolean isEmpty() {
    return registrations.isEmpty();
  }

  /** Whether any listener wants events of {@code type}. */
  boolean wants(EventType type) {
    for (Registration<K, V> r : registrations) {
      if (r.wants(type)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @throws IllegalArgumentException if {@code configuration} is registered already
   */
  void register(CacheEntryListenerConfiguration<K, V> configuration) {
    for (Registration<K, V> r : registrations) {
      if (r.configuration.equals(configuration)) {
        throw new IllegalArgumentException(
            "listener configuration registered already on cache " + cacheName);
      }
    }
    Factory<? extends CacheEntryListener<? super K, ? super V>> listenerFactory =
        configuration.getCacheEntryListenerFactory();
    if (listenerFactory == null) {
      throw new IllegalArgumentException("listener configuration without a listener factory");
    }
    Factory<? extends CacheEntryEventFilter<? super K, ? super V>> filterFactory =
        configuration.getCacheEntryEventFilterFactory();
    registrations.add(
        new Registration<>(
            configuration,
            listenerFactory.create(),
            filterFactory == null ? null : filterFactory.create()));
  }

  void deregister(CacheEntryListenerConfiguration<K, V> configuration) {
    List<Registration<K, V>> gone = new ArrayList<>();
    for (Registration<K, V> r : registrations) { // a snapshot: CopyOnWriteArrayList
      if (r.configuration.equals(configuration)) {
        gone.add(r);
      }
    }
    registrations.removeAll(gone);
    gone.forEach(Listeners::closeQuietly);
  }

  /** Closes a listener and a filter that are Closeable, as the factories made them for us. */
  private static void closeQuietly(Registration<?, ?> r) {
    for (Object o : new Object[] {r.listener, r.filter}) {
      if (o instanceof Closeable c) {
        try {
          c.close();
        } catch (IOException | RuntimeException e) {
          // a listener that cannot close has nothing more to be told; the cache closes anyway
        }
      }
    }
  }

  List<CacheEntryListenerConfiguration<K, V>> configurations() {
    List<CacheEntryListenerConfiguration<K, V>> list = new ArrayList<>();
    for (Registration<K, V> r : registrations) {
      list.add(r.configuration);
    }
    return list;
  }

  /** Delivers {@code events} (L1-L3); the caller holds their key's lock. */
  void deliver(List<CairnEntryEvent<K, V>> events) {
    if (events == null || events.isEmpty()) {
      return;
    }
    CacheEntryListenerException failure = null;
    for (Registration<K, V> r : registrations) {
      for (CairnEntryEvent<K, V> event : events) {
        if (!r.wants(event.getEventType())) {
          continue;
        }
        if (r.configuration.isSynchronous()) {
          try {
            r.deliver(event);
          } catch (CacheEntryListenerException e) {
            failure = failure == null ? e : failure;
          } catch (RuntimeException e) {
            failure = failure == null ? new CacheEntryListenerException(e) : failure;
          }
        } else {
          executor().execute(() -> r.deliver(event));
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private ExecutorService executor() {
    ExecutorService e = async;
    if (e == null) {
      synchronized (this) {
        e = async;
        if (e == null) {
          e =
              Executors.newSingleThreadExecutor(
                  task -> {
                    Thread t = new Thread(task, "cairn-jcache-listeners " + cacheName);
                    t.setDaemon(true);
                    return t;
                  });
          async = e;
        }
      }
    }
    return e;
  }

  /**
   * Stops the delivery thread once the events given to it are delivered, then closes the listeners
   * and filters that are Closeable.
   */
  void close() {
    ExecutorService e = async;
    if (e != null) {
      e.shutdown();
      try {
        e.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }
    for (Registration<K, V> r : registrations) {
      closeQuietly(r);
    }
  }
}
