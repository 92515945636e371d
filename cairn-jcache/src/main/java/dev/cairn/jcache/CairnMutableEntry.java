package dev.cairn.jcache;

import java.util.function.Function;
import javax.cache.processor.MutableEntry;

/**
 * The entry an {@link javax.cache.processor.EntryProcessor} sees: the key's value when the
 * invocation began, and what the processor did to it, applied by the cache once it returns.
 *
 * <p>Thread-safety: used by one invocation, on one thread, under its key's lock.
 */
final class CairnMutableEntry<K, V> implements MutableEntry<K, V> {
  /** What the processor left to do. */
  enum Outcome {
    NONE,
    LOADED,
    SET,
    REMOVED
  }

  private final K key;
  private final boolean existed;
  private final Function<K, V> loader; // null without read-through
  private V value;
  private Outcome outcome = Outcome.NONE;
  private boolean read;

  CairnMutableEntry(K key, V value, Function<K, V> loader) {
    this.key = key;
    this.value = value;
    this.existed = value != null;
    this.loader = loader;
  }

  @Override
  public K getKey() {
    return key;
  }

  @Override
  public V getValue() {
    if (outcome == Outcome.NONE && !read) {
      read = true;
      if (value == null && loader != null) {
        value = loader.apply(key);
        if (value != null) {
          outcome = Outcome.LOADED;
        }
      }
    }
    return value;
  }

  @Override
  public boolean exists() {
    return value != null;
  }

  @Override
  public void remove() {
    // a value created or loaded by this invocation was never stored: removing it does nothing
    boolean unstored = outcome == Outcome.LOADED || (outcome == Outcome.SET && !existed);
    outcome = unstored ? Outcome.NONE : Outcome.REMOVED;
    value = null;
  }

  @Override
  public void setValue(V newValue) {
    if (newValue == null) {
      throw new NullPointerException("an entry's value must not be null");
    }
    value = newValue;
    outcome = Outcome.SET;
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new IllegalArgumentException("a mutable entry unwraps to no " + type.getName());
  }

  boolean existed() {
    return existed;
  }

  /** Whether the processor read the value of an entry that existed (a hit). */
  boolean readExisting() {
    return read && existed;
  }

  /** Whether the processor read the value of an entry that did not exist (a miss). */
  boolean readMissing() {
    return read && !existed;
  }

  Outcome outcome() {
    return outcome;
  }

  V value() {
    return value;
  }
}
