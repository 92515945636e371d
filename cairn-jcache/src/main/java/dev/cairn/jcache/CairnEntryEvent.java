package dev.cairn.jcache;

import javax.cache.Cache;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.EventType;

/**
 * One change of one entry, as listeners see it. For a removal or an expiry the value is the one
 * that left, and so is the old value, both shown only to a listener that asked for old values.
 *
 * <p>Thread-safety: immutable.
 */
final class CairnEntryEvent<K, V> extends CacheEntryEvent<K, V> {
  private static final long serialVersionUID = 1L;

  private final K key;
  private final transient V value;
  private final transient V oldValue;
  private final boolean oldValueAvailable;

  CairnEntryEvent(
      Cache<K, V> source, EventType type, K key, V value, V oldValue, boolean oldValueAvailable) {
    super(source, type);
    this.key = key;
    this.value = value;
    this.oldValue = oldValue;
    this.oldValueAvailable = oldValueAvailable;
  }

  /** The same event, for a listener that did not ask for old values. */
  CairnEntryEvent<K, V> withoutOldValue() {
    if (!oldValueAvailable) {
      return this;
    }
    @SuppressWarnings("unchecked")
    Cache<K, V> cache = (Cache<K, V>) getSource();
    // a removal or an expiry shows no value at all without the old value (JSR-107 1.1)
    V shown =
        getEventType() == EventType.UPDATED || getEventType() == EventType.CREATED ? value : null;
    return new CairnEntryEvent<>(cache, getEventType(), key, shown, null, false);
  }

  @Override
  public K getKey() {
    return key;
  }

  @Override
  public V getValue() {
    return value;
  }

  @Override
  public V getOldValue() {
    return oldValueAvailable ? oldValue : null;
  }

  @Override
  public boolean isOldValueAvailable() {
    return oldValueAvailable;
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new IllegalArgumentException("an event unwraps to no " + type.getName());
  }

  @Override
  public String toString() {
    return "CairnEntryEvent{" + getEventType() + " " + key + "=" + value + "}";
  }
}
