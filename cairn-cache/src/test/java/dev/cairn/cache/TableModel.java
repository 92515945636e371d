package dev.cairn.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reference model of one {@link CacheTable}{@code <String, String>} for {@link
 * CacheModelPropertyTest}: a {@link HashMap} of key to entry, with each entry's expiry computed as
 * the cache documents it, on the test's {@link ManualClock}.
 *
 * <p><b>Expiry.</b> An entry is expired once the clock reaches its exact expire-at (written by
 * {@code expireAfterWrite} or {@link EntryOptions}), or, in a table with {@code expireAfterAccess},
 * once it reaches its slot's deadline: {@code min(expire-at, last access + idle)} rounded up to a
 * whole second after the table's epoch (the slot keeps seconds). Reads that hit ({@code get},
 * {@code getAll}, {@code computeIfAbsent} finding a value) and {@code touch} move the last access;
 * {@code containsKey}, iteration, a miss on {@code maxAge} and conditional writes that write
 * nothing do not.
 *
 * <p><b>Eviction.</b> Under a budget the model cannot know which entries a write evicts. It keeps
 * that honestly: after a write that may evict, every unpinned entry is <em>uncertain</em>. An
 * uncertain entry found in the table must still hold the model's value (then it is certain again
 * until the next such write); one the table lacks was evicted and leaves the model. A certain entry
 * (pinned, or seen since the last write that may evict) the table lacks is a lost entry: a failure.
 * A key the model does not hold must not be found, whatever its history.
 *
 * <p><b>Size.</b> {@link CacheTable#size} counts expired entries nobody swept yet, so the model
 * bounds it: at least the certain live entries, at most every live entry plus the expired entries
 * that no write, remove or clear of their key has swept ({@link #lingering}).
 */
final class TableModel {

  /**
   * One entry as the model knows it.
   *
   * @param value the value written
   * @param writtenAt the clock when it was written (what {@code get(key, maxAge)} compares)
   * @param expireAt the exact instant it expires, 0 for never
   * @param pinned whether eviction may not take it
   * @param accessedAt the clock of its last write or hit (time-to-idle)
   */
  record Entry(String value, long writtenAt, long expireAt, boolean pinned, long accessedAt) {
    @Override
    public String toString() {
      return abbreviate(value)
          + " written@"
          + writtenAt
          + (expireAt != 0 ? " expireAt@" + expireAt : "")
          + (pinned ? " pinned" : "")
          + " accessed@"
          + accessedAt;
    }
  }

  private final ManualClock clock;
  private final long epochMillis;
  private final long expireAfterWriteMillis;
  private final long expireAfterAccessMillis;
  private final boolean tablePinned;
  private final boolean budgeted;

  private final Map<String, Entry> entries = new HashMap<>();
  private final Set<String> uncertain = new HashSet<>();
  private final Map<String, Boolean> lingering = new HashMap<>(); // key -> was it pinned
  // the lingering pinned entries: key -> when its slot's expiry (whole seconds) passes
  private final Map<String, Long> pinnedSlotExpiry = new HashMap<>();
  private int evictionsSeen;
  private int expirations;

  /**
   * A model of an empty table created at the clock's current time.
   *
   * @param budgeted whether the cache has a budget, so that writes may evict
   */
  TableModel(ManualClock clock, TableOptions options, boolean budgeted) {
    this.clock = clock;
    this.epochMillis = clock.millis();
    this.expireAfterWriteMillis =
        options.expireAfterWrite() == null ? 0 : options.expireAfterWrite().toMillis();
    this.expireAfterAccessMillis =
        options.expireAfterAccess() == null ? 0 : options.expireAfterAccess().toMillis();
    this.tablePinned = options.pinned();
    this.budgeted = budgeted;
  }

  long now() {
    return clock.millis();
  }

  /** Evictions the model inferred (uncertain entries found absent). */
  int evictionsSeen() {
    return evictionsSeen;
  }

  /** Entries the model saw expire. */
  int expirations() {
    return expirations;
  }

  // ----------------------------------------------------------------------------- time

  /** Moves the entries that expired by now out of the live ones, into {@link #lingering}. */
  void settle() {
    long now = now();
    List<String> expired = new ArrayList<>();
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      if (expired(e.getValue(), now)) {
        expired.add(e.getKey());
      }
    }
    for (String key : expired) {
      Entry gone = entries.remove(key);
      lingering.put(key, gone.pinned());
      if (gone.pinned()) {
        pinnedSlotExpiry.put(key, slotExpiry(gone));
      }
      uncertain.remove(key);
      expirations++;
    }
  }

  /**
   * When the slot of {@code e} says it expires: its deadline rounded up to the table's whole
   * seconds (ExpiryRules.hintSeconds), which the eviction hand goes by.
   */
  private long slotExpiry(Entry e) {
    long idleAt = expireAfterAccessMillis == 0 ? 0 : e.accessedAt() + expireAfterAccessMillis;
    long deadline =
        e.expireAt() == 0 ? idleAt : idleAt == 0 ? e.expireAt() : Math.min(e.expireAt(), idleAt);
    return epochMillis + Math.max(1, Math.ceilDiv(deadline - epochMillis, 1000L)) * 1000L;
  }

  /**
   * Whether a pinned entry expired by now, unswept, whose slot's expiry second has not passed: the
   * eviction hand still takes it for live, so a write may still be refused for its room.
   */
  boolean pinnedSlotUnexpired() {
    long now = now();
    return pinnedSlotExpiry.values().stream().anyMatch(at -> now < at);
  }

  private boolean expired(Entry e, long now) {
    if (e.expireAt() != 0 && now >= e.expireAt()) {
      return true;
    }
    if (expireAfterAccessMillis == 0) {
      return false; // the slot's seconds are never earlier than the exact expire-at
    }
    long idleAt = e.accessedAt() + expireAfterAccessMillis;
    long deadline = e.expireAt() == 0 ? idleAt : Math.min(e.expireAt(), idleAt);
    long seconds = Math.max(1, Math.ceilDiv(deadline - epochMillis, 1000L));
    return now >= epochMillis + seconds * 1000L;
  }

  /** The live entry of {@code key}, or null ({@link #settle} first). */
  Entry live(String key) {
    return entries.get(key);
  }

  boolean isUncertain(String key) {
    return uncertain.contains(key);
  }

  /** A copy of the live entries ({@link #settle} first). */
  Map<String, Entry> entries() {
    return new HashMap<>(entries);
  }

  // ----------------------------------------------------------------------------- writes

  /**
   * The entry a write at the clock's current time makes, as the cache computes it: the options'
   * expiry over the table's, pinned if the table or the options say so.
   */
  Entry newEntry(String value, EntryOptions options) {
    long now = now();
    long expireAt = 0;
    if (options != null && options.expireAt() != null) {
      expireAt = Math.max(1, options.expireAt().toEpochMilli());
    } else if (options != null && options.expireAfter() != null) {
      expireAt = now + options.expireAfter().toMillis();
    } else if (expireAfterWriteMillis != 0) {
      expireAt = now + expireAfterWriteMillis;
    }
    boolean pinned = tablePinned || (options != null && options.pinned());
    return new Entry(value, now, expireAt, pinned, now);
  }

  /** {@code key} now has {@code entry}: the write swept an expired entry of the key, if any. */
  void written(String key, Entry entry) {
    entries.put(key, entry);
    uncertain.remove(key);
    lingering.remove(key);
    pinnedSlotExpiry.remove(key);
  }

  /** {@code key} has no entry: removed (or swept: a remove or a write found it expired). */
  void removed(String key) {
    entries.remove(key);
    uncertain.remove(key);
    lingering.remove(key);
    pinnedSlotExpiry.remove(key);
  }

  /** Every entry went (clear). */
  void cleared() {
    entries.clear();
    uncertain.clear();
    lingering.clear();
    pinnedSlotExpiry.clear();
  }

  /** A write that may evict ran or is running: every unpinned entry may be gone. */
  void mayEvict() {
    if (!budgeted) {
      return;
    }
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      if (!e.getValue().pinned()) {
        uncertain.add(e.getKey());
      }
    }
  }

  /**
   * {@code key}'s entry may have been replaced by one that was evicted since: the key may show
   * nothing (budgeted tables only).
   */
  void mayHaveEvicted(String key) {
    if (budgeted && entries.containsKey(key)) {
      uncertain.add(key);
    }
  }

  /** A hit or a touch: the entry's idle clock restarts. */
  void accessed(String key) {
    Entry e = entries.get(key);
    if (e != null && expireAfterAccessMillis != 0) {
      entries.put(key, new Entry(e.value(), e.writtenAt(), e.expireAt(), e.pinned(), now()));
    }
  }

  // ----------------------------------------------------------------------------- checks

  /**
   * The table says {@code key} holds {@code actual} (null: nothing live). A value must be the
   * model's; absence is allowed where the model has nothing or an uncertain entry, which then
   * leaves the model.
   */
  void observe(String key, String actual) {
    Entry e = entries.get(key);
    if (actual != null) {
      if (e == null) {
        throw new AssertionError(
            "key " + key + " has " + actual + " in the table, but no live entry in the model");
      }
      if (!e.value().equals(actual)) {
        throw new AssertionError(
            "key " + key + " has " + actual + " in the table, the model has " + e.value());
      }
      uncertain.remove(key);
    } else if (e != null) {
      evicted(key, e);
    }
  }

  /** The table says whether {@code key} has a live entry (its value unseen). */
  void observePresence(String key, boolean present) {
    Entry e = entries.get(key);
    if (present) {
      if (e == null) {
        throw new AssertionError(
            "key " + key + " is present in the table, but has no live entry in the model");
      }
      uncertain.remove(key);
    } else if (e != null) {
      evicted(key, e);
    }
  }

  /** The table lacks the model's live entry {@code e} of {@code key}: allowed if uncertain. */
  void evicted(String key, Entry e) {
    if (!uncertain.contains(key)) {
      throw new AssertionError(
          "key "
              + key
              + " lost its entry "
              + e
              + (e.pinned()
                  ? ": it is pinned"
                  : budgeted
                      ? ": no write that may evict ran since it was last seen"
                      : ": the cache has no budget"));
    }
    entries.remove(key);
    uncertain.remove(key);
    evictionsSeen++;
  }

  /**
   * The whole table, as its iterator gave it: it must equal the model's live entries but for
   * uncertain entries it lacks (evicted: they leave the model).
   */
  void observeAll(Map<String, String> table) {
    for (Map.Entry<String, String> e : table.entrySet()) {
      observe(e.getKey(), e.getValue());
    }
    for (String key : new ArrayList<>(entries.keySet())) {
      if (!table.containsKey(key)) {
        evicted(key, entries.get(key));
      }
    }
  }

  /** Checks a figure that counts the table's entries, expired ones not yet swept included. */
  void checkSize(String what, long size) {
    long certain = (long) entries.size() - uncertain.size();
    long most = (long) entries.size() + lingering.size();
    if (size < certain || size > most) {
      throw new AssertionError(
          what
              + " is "
              + size
              + ", the model allows "
              + certain
              + ".."
              + most
              + " (live "
              + entries.size()
              + ", uncertain "
              + uncertain.size()
              + ", expired unswept at most "
              + lingering.size()
              + ")");
    }
  }

  /** The pinned live entries. */
  int pinnedCount() {
    int n = 0;
    for (Entry e : entries.values()) {
      n += e.pinned() ? 1 : 0;
    }
    return n;
  }

  /**
   * After a power loss in the middle of a write of the keys {@code before} holds: each key's entry
   * must be as the model had it before the write ({@code before}'s value, null for none) or as the
   * write left it ({@code after}'s), or gone if it was uncertain; the model takes what the table
   * has. Keys the write did not touch are checked by the caller.
   *
   * @param table the table's live entries after recovery
   */
  void resolveCut(Map<String, Entry> before, Map<String, Entry> after, Map<String, String> table) {
    for (String key : before.keySet()) {
      Entry old = before.get(key);
      Entry cut = after.get(key);
      String now = table.get(key);
      if (now != null && old != null && now.equals(old.value())) {
        written(key, old);
      } else if (now != null && cut != null && now.equals(cut.value())) {
        written(key, cut);
      } else if (now == null && cut != null && expired(cut, now())) {
        // the write may have run and left an entry expired by now, which no read returns but
        // size() counts until a sweep
        written(key, cut);
        settle();
      } else if (now == null) {
        if (old != null && cut != null && !uncertain.contains(key)) {
          throw new AssertionError(
              "key " + key + " lost its entry " + old + " to a cut write that would have kept it");
        }
        entries.remove(key); // an expired entry of the key stays unswept if the write did not run
        uncertain.remove(key);
      } else {
        throw new AssertionError(
            "key "
                + key
                + " has "
                + now
                + " after a power loss in a write of it: before "
                + old
                + ", after "
                + cut);
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("model{");
    for (Map.Entry<String, Entry> e : new TreeMap<>(entries).entrySet()) {
      sb.append(e.getKey())
          .append('=')
          .append(abbreviate(e.getValue().value()))
          .append(e.getValue().pinned() ? " pinned" : "")
          .append(
              e.getValue().expireAt() != 0 ? " expireAt+" + (e.getValue().expireAt() - now()) : "")
          .append(uncertain.contains(e.getKey()) ? " uncertain" : "")
          .append(", ");
    }
    return sb.append("expired unswept=").append(new TreeMap<>(lingering)).append('}').toString();
  }

  /** A value as a message shows it: its key and write number, and its length. */
  static String abbreviate(String value) {
    if (value == null) {
      return "null";
    }
    int dot = value.indexOf('.');
    return dot < 0 ? value : value.substring(0, dot) + "(+" + (value.length() - dot) + ")";
  }
}
