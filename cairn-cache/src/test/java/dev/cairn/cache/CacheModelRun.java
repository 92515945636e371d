package dev.cairn.cache;

import dev.cairn.cache.CacheOp.Advance;
import dev.cairn.cache.CacheOp.Checkpoint;
import dev.cairn.cache.CacheOp.Clear;
import dev.cairn.cache.CacheOp.Compute;
import dev.cairn.cache.CacheOp.ComputeIfAbsent;
import dev.cairn.cache.CacheOp.ContainsKey;
import dev.cairn.cache.CacheOp.Expect;
import dev.cairn.cache.CacheOp.Get;
import dev.cairn.cache.CacheOp.GetAll;
import dev.cairn.cache.CacheOp.GetMaxAge;
import dev.cairn.cache.CacheOp.PowerCut;
import dev.cairn.cache.CacheOp.PowerLossNow;
import dev.cairn.cache.CacheOp.Put;
import dev.cairn.cache.CacheOp.PutAll;
import dev.cairn.cache.CacheOp.PutIfAbsent;
import dev.cairn.cache.CacheOp.PutTooLarge;
import dev.cairn.cache.CacheOp.Remove;
import dev.cairn.cache.CacheOp.RemoveIfEquals;
import dev.cairn.cache.CacheOp.Reopen;
import dev.cairn.cache.CacheOp.Replace;
import dev.cairn.cache.CacheOp.ReplaceIfEquals;
import dev.cairn.cache.CacheOp.Touch;
import dev.cairn.cache.TableModel.Entry;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one sequence of {@link CacheOp}s on a table {@code "t"} of String to String and on a {@link
 * TableModel}, checking each result as the step runs and, after every step, the whole table: its
 * iteration (each key once, the model's values, nothing the model lacks), {@code size()} and {@link
 * Cache#verify()}.
 *
 * <p>The cache is volatile, in a directory (real files: {@link Reopen} closes and reopens it), or
 * on a {@link SimulatedDisk} with {@link Durability#SYNC} (a {@link PowerCut} loses power in the
 * middle of a later operation, a {@link PowerLossNow} between two). After a power loss the cache is
 * reopened: every write and remove that returned holds (SYNC acknowledges on return); the write the
 * loss cut shows each of its keys as before it or as it would have left it ({@link
 * TableModel#resolveCut}); a conditional write is allowed to show its value either way.
 *
 * <p>A failure names the step, the sequence run so far with each result, and the model.
 */
final class CacheModelRun implements AutoCloseable {
  private static final Path DISK_DIR = Path.of("/cache");

  enum Mode {
    VOLATILE,
    DIRECTORY,
    SIMULATED_DISK
  }

  /**
   * How the cache and its table are made.
   *
   * @param budgetBytes the cache's budget, 0 for none
   * @param expireAfterWriteMillis the table's, 0 for none
   * @param expireAfterAccessMillis the table's, 0 for none
   * @param tablePinned whether the table pins its entries
   * @param tableSeed the table's hash seed (fixed, so that a sequence replays the same evictions)
   * @param durability the pile's, for a persistent cache
   * @param writeTimes whether the table keeps write times (get with a maximum age needs them)
   * @param longKeys whether the table's keys are the keys' numbers ({@link LongKeyedView}), whose
   *     entries may be bare (with no write times, no expiry and no pin)
   */
  record Setup(
      Mode mode,
      long budgetBytes,
      long expireAfterWriteMillis,
      long expireAfterAccessMillis,
      boolean tablePinned,
      long tableSeed,
      Durability durability,
      boolean writeTimes,
      boolean longKeys) {

    TableOptions tableOptions() {
      TableOptions.Builder b = TableOptions.builder().pinned(tablePinned).writeTimes(writeTimes);
      if (expireAfterWriteMillis > 0) {
        b.expireAfterWrite(Duration.ofMillis(expireAfterWriteMillis));
      }
      if (expireAfterAccessMillis > 0) {
        b.expireAfterAccess(Duration.ofMillis(expireAfterAccessMillis));
      }
      return b.build();
    }
  }

  /** What happened over a run, for the properties' statistics. */
  record Outcome(
      int expirations,
      int evictionsSeen,
      int cacheFull,
      int tooLarge,
      int reopens,
      int powerLosses,
      int cuts) {}

  private final Setup setup;
  private final Path directory;
  private final SimulatedDisk disk;
  private final ManualClock clock = new ManualClock();
  private final long startMillis = clock.millis();
  private final TableModel model;
  private final List<String> trail = new ArrayList<>();
  private final Map<String, List<String>> history = new HashMap<>(); // values written, per key
  private Cache cache;
  private CacheTable<String, String> table;
  private int writes;
  private Map<String, Entry> inFlight; // the keys of the running write, as it would leave them
  private int cacheFull;
  private int tooLarge;
  private int reopens;
  private int powerLosses;
  private int cuts;
  private int evictionsBeforeOpen; // what the model inferred before this cache was opened

  /**
   * Opens the cache. Its table's hash seed comes from {@link Cache#seeds}, which the caller sets to
   * {@link Setup#tableSeed}.
   *
   * @param directory an empty directory for {@link Mode#DIRECTORY}, else ignored
   */
  CacheModelRun(Setup setup, Path directory) {
    this.setup = setup;
    this.directory = directory;
    this.disk = setup.mode() == Mode.SIMULATED_DISK ? new SimulatedDisk() : null;
    this.model = new TableModel(clock, setup.tableOptions(), setup.budgetBytes() > 0);
    open(); // the table's epoch is the model's: the clock has not moved
  }

  private CacheOptions options() {
    PileOptions.Builder pile = PileOptions.builder().segmentBytes(256 << 10).stripes(2);
    if (setup.mode() != Mode.VOLATILE) {
      pile.durability(setup.durability()).logFileBytes(1 << 20).logFileCount(2);
    }
    CacheOptions.Builder b = CacheOptions.builder().clock(clock).pile(pile.build());
    if (setup.budgetBytes() > 0) {
      b.budgetBytes(setup.budgetBytes());
    }
    return b.build();
  }

  private void open() {
    try {
      cache =
          switch (setup.mode()) {
            case VOLATILE -> Cache.offHeap(options());
            case DIRECTORY -> Cache.open(directory, options());
            case SIMULATED_DISK -> CacheFactory.open(disk, DISK_DIR, options());
          };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table =
        setup.longKeys()
            ? new LongKeyedView(
                cache.table("t", Long.class, String.class, setup.tableOptions()),
                CacheModelRun::number,
                CacheModelRun::key)
            : cache.table("t", String.class, String.class, setup.tableOptions());
    evictionsBeforeOpen = model.evictionsSeen();
  }

  Outcome outcome() {
    return new Outcome(
        model.expirations(),
        model.evictionsSeen(),
        cacheFull,
        tooLarge,
        reopens,
        powerLosses,
        cuts);
  }

  /** Runs the steps, then closes and reopens a persistent cache and checks it once more. */
  void run(List<CacheOp> ops) {
    for (int i = 0; i < ops.size(); i++) {
      CacheOp op = ops.get(i);
      try {
        int lost = powerLosses;
        String result = step(op);
        trail.add(i + ": " + op + " -> " + result + (powerLosses > lost ? " [recovered]" : ""));
      } catch (AssertionError | RuntimeException e) {
        throw failure("step " + i + " " + op, e);
      }
    }
    if (setup.mode() != Mode.VOLATILE) {
      try {
        if (disk != null) {
          disk.disarmCrash();
        }
        reopen();
      } catch (AssertionError | RuntimeException e) {
        throw failure("the final reopen", e);
      }
    }
  }

  private AssertionError failure(String where, Throwable cause) {
    StringBuilder sb = new StringBuilder();
    sb.append(where)
        .append(" failed: ")
        .append(cause)
        .append("\n  setup: ")
        .append(setup)
        .append("\n  clock: +")
        .append(clock.millis() - startMillis)
        .append(" ms\n  steps run (index: step -> result):");
    for (String s : trail) {
      sb.append("\n    ").append(s);
    }
    sb.append("\n  ").append(model);
    return new AssertionError(sb.toString(), cause);
  }

  // ------------------------------------------------------------------------------------ a step

  private String step(CacheOp op) {
    model.settle();
    inFlight = null;
    String result;
    try {
      result = apply(op);
    } catch (RuntimeException e) {
      if (disk == null || !disk.isDown()) {
        throw e;
      }
      cuts += inFlight != null ? 1 : 0;
      recover();
      return "power lost in it" + (inFlight != null ? ", kept " + keptOf(inFlight.keySet()) : "");
    }
    inFlight = null;
    if (disk != null && disk.isDown()) { // lost after the step's durable point: it holds
      recover();
      return result + "; recovered";
    }
    checkTable();
    return result;
  }

  private String apply(CacheOp op) {
    return switch (op) {
      case Get g -> get(key(g.key()));
      case GetMaxAge g -> getMaxAge(key(g.key()), g.maxAgeMillis());
      case GetAll g -> getAll(g.keys());
      case Put p -> put(key(p.key()), p.pad(), p.options().at(clock.millis()));
      case PutAll p -> putAll(p.keys(), p.pad());
      case PutIfAbsent p -> putIfAbsent(key(p.key()), p.pad());
      case Replace r -> replace(key(r.key()), r.pad());
      case ReplaceIfEquals r -> replaceIfEquals(key(r.key()), r.expected(), r.pad());
      case Remove r -> remove(key(r.key()));
      case RemoveIfEquals r -> removeIfEquals(key(r.key()), r.expected());
      case ComputeIfAbsent c -> computeIfAbsent(key(c.key()), c.pad(), c.loadsNull());
      case Compute c -> compute(key(c.key()), c.pad(), c.removes());
      case ContainsKey c -> containsKey(key(c.key()));
      case Touch t -> touch(key(t.key()));
      case Clear c -> clear();
      case PutTooLarge p -> putTooLarge(key(p.key()));
      case Advance a -> {
        clock.advance(Duration.ofMillis(a.millis()));
        model.settle();
        yield "now +" + (clock.millis() - startMillis);
      }
      case Checkpoint c -> {
        cache.pile().checkpoint();
        yield "done";
      }
      case Reopen r -> {
        reopen();
        yield "reopened";
      }
      case PowerCut p -> {
        disk.crashAtOperation(disk.operationCount() + p.afterOps(), p.seed());
        yield "armed at disk operation " + (disk.operationCount() + p.afterOps());
      }
      case PowerLossNow p -> {
        disk.powerLoss(p.seed());
        yield "power lost";
      }
    };
  }

  /**
   * The key {@code k}: "k3" for even k, and an 8-byte "key00003" for odd k, which the table places
   * by runs of neighbouring keys (KeyPlacement.RUNS: "key00001" and "key00003" share a block of
   * slots), so that both placements run every sequence.
   */
  private static String key(int k) {
    return k % 2 == 0 ? "k" + k : String.format(java.util.Locale.ROOT, "key%05d", k);
  }

  /** The number {@link #key} made {@code key} of. */
  private static int number(String key) {
    return Integer.parseInt(key.substring(key.startsWith("key") ? 3 : 1));
  }

  /** A new value for {@code key}: its name, the write's number, then {@code pad} dots. */
  private String nextValue(String key, int pad) {
    writes++;
    String value = key + "#" + writes + ".".repeat(pad);
    history.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    return value;
  }

  private String expected(String key, Expect expect) {
    List<String> written = history.getOrDefault(key, List.of());
    Entry live = model.live(key);
    return switch (expect) {
      case CURRENT -> live != null ? live.value() : written.isEmpty() ? "never" : written.getLast();
      case PREVIOUS -> {
        int at = live != null ? written.indexOf(live.value()) - 1 : written.size() - 1;
        yield at >= 0 ? written.get(at) : "never";
      }
      case OTHER_KEY -> {
        for (String other : new TreeSet<>(model.entries().keySet())) {
          if (!other.equals(key)) {
            yield model.live(other).value();
          }
        }
        yield "never";
      }
      case NEVER_WRITTEN -> key + "#never";
    };
  }

  // -------------------------------------------------------------------------------- reads

  private String get(String key) {
    String got = table.get(key);
    model.observe(key, got);
    if (got != null) {
      model.accessed(key);
    }
    return TableModel.abbreviate(got);
  }

  private String getMaxAge(String key, long maxAgeMillis) {
    if (!setup.writeTimes()) {
      try {
        table.get(key, Duration.ofMillis(maxAgeMillis));
      } catch (IllegalStateException expected) {
        return "refused: no write times";
      }
      throw new AssertionError("get(" + key + ", maxAge) of a table with no write times ran");
    }
    String got = table.get(key, Duration.ofMillis(maxAgeMillis));
    Entry e = model.live(key);
    if (e != null && clock.millis() - e.writtenAt() > maxAgeMillis) {
      if (got != null) {
        throw new AssertionError(
            "get(" + key + ", maxAge) returned " + got + ", written " + e.writtenAt());
      }
      return "null (older than maxAge)";
    }
    model.observe(key, got);
    if (got != null) {
      model.accessed(key);
    }
    return TableModel.abbreviate(got);
  }

  private String getAll(List<Integer> keys) {
    Set<String> asked = new LinkedHashSet<>();
    keys.forEach(k -> asked.add(key(k)));
    Map<String, String> got = table.getAll(new ArrayList<>(asked));
    List<String> order = new ArrayList<>(asked);
    order.retainAll(got.keySet());
    if (!new ArrayList<>(got.keySet()).equals(order)) {
      throw new AssertionError(
          "getAll's keys " + got.keySet() + " are not in the order of " + asked);
    }
    for (String key : asked) {
      String value = got.get(key);
      model.observe(key, value);
      if (value != null) {
        model.accessed(key);
      }
    }
    return got.keySet().toString();
  }

  private String containsKey(String key) {
    boolean has = table.containsKey(key);
    model.observePresence(key, has);
    return String.valueOf(has);
  }

  private String touch(String key) {
    boolean had = table.touch(key);
    model.observePresence(key, had);
    if (had) {
      model.accessed(key);
    }
    return String.valueOf(had);
  }

  // ------------------------------------------------------------------------------- writes

  private String put(String key, int pad, EntryOptions options) {
    String value = nextValue(key, pad);
    Entry entry = model.newEntry(value, options);
    Entry old = model.live(key);
    inFlight = Map.of(key, entry);
    model.mayEvict(); // its room is made before it writes: even its own old entry may go
    PutResult r;
    try {
      r = options == null ? table.put(key, value) : table.put(key, value, options);
    } catch (CacheFullException e) {
      return cacheFull(key, old);
    }
    if (r == PutResult.REPLACED && old == null) {
      throw new AssertionError("put(" + key + ") REPLACED, the model has no live entry");
    }
    if (r == PutResult.INSERTED && old != null) {
      model.evicted(key, old); // fails unless it may have been evicted
    }
    wrote(key, entry);
    return r + " " + TableModel.abbreviate(value) + (options == null ? "" : " " + options);
  }

  /**
   * A write refused for want of room: only pinned entries may be left (E4), the key keeps what it
   * had, and the model must hold a pinned entry (else eviction could always make room).
   */
  private String cacheFull(String key, Entry old) {
    cacheFull++;
    // a pinned entry expired less than its slot's second ago still holds its room (Evictor E4)
    if (model.pinnedCount() == 0 && !model.pinnedSlotUnexpired()) {
      throw new AssertionError("CacheFullException with no pinned entry in the model: " + model);
    }
    Map<String, String> now = snapshot();
    for (Map.Entry<String, Entry> e : model.entries().entrySet()) {
      if (!e.getValue().pinned() && now.containsKey(e.getKey())) {
        throw new AssertionError(
            "CacheFullException while the unpinned entry of " + e.getKey() + " is still there");
      }
    }
    String kept = now.get(key);
    if (kept != null && (old == null || !kept.equals(old.value()))) {
      throw new AssertionError("the refused write of " + key + " left " + kept + ", it had " + old);
    }
    return "CacheFullException";
  }

  /** A write of {@code key} returned: the drain after it may evict, even the entry it wrote. */
  private void wrote(String key, Entry entry) {
    model.written(key, entry);
    model.mayEvict();
  }

  private String putAll(List<Integer> keys, int pad) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (int k : keys) {
      String key = key(k);
      if (!values.containsKey(key)) {
        String value = nextValue(key, pad);
        values.put(key, value);
        entries.put(key, model.newEntry(value, null));
      }
    }
    inFlight = entries;
    model.mayEvict();
    try {
      table.putAll(values);
    } catch (CacheFullException e) {
      // a prefix of the puts went in: each key shows its old entry or its new one, or none when
      // a later put of the call evicted its new one (not pinned) to make room
      cacheFull++;
      Map<String, Entry> before = new HashMap<>();
      entries.keySet().forEach(key -> before.put(key, model.live(key)));
      entries.forEach(
          (key, entry) -> {
            if (!entry.pinned()) {
              model.mayHaveEvicted(key);
            }
          });
      model.resolveCut(before, entries, snapshot());
      return "CacheFullException";
    }
    entries.forEach(this::wrote); // a later put of them may evict an earlier one
    return "done";
  }

  private String putIfAbsent(String key, int pad) {
    String value = nextValue(key, pad);
    Entry entry = model.newEntry(value, null);
    Entry old = model.live(key);
    inFlight = Map.of(key, entry);
    String got;
    try {
      got = table.putIfAbsent(key, value);
    } catch (CacheFullException e) {
      model.mayEvict();
      return cacheFull(key, old);
    }
    if (got == null) {
      if (old != null) {
        model.evicted(key, old);
      }
      wrote(key, entry);
      return "null, put " + TableModel.abbreviate(value);
    }
    model.observe(key, got);
    return TableModel.abbreviate(got);
  }

  private String replace(String key, int pad) {
    String value = nextValue(key, pad);
    Entry entry = model.newEntry(value, null);
    Entry old = model.live(key);
    inFlight = Map.of(key, entry);
    if (old != null) {
      model.mayEvict(); // it writes: its room is made first
    }
    boolean did;
    try {
      did = table.replace(key, value);
    } catch (CacheFullException e) {
      return cacheFull(key, old);
    }
    if (did) {
      if (old == null) {
        throw new AssertionError("replace(" + key + ") replaced, the model has no live entry");
      }
      wrote(key, entry);
    } else if (old != null) {
      model.evicted(key, old);
    }
    return did + " " + TableModel.abbreviate(value);
  }

  private String replaceIfEquals(String key, Expect expect, int pad) {
    String expected = expected(key, expect);
    String value = nextValue(key, pad);
    Entry entry = model.newEntry(value, null);
    Entry old = model.live(key);
    boolean equal = old != null && old.value().equals(expected);
    inFlight = Map.of(key, entry);
    if (equal) {
      model.mayEvict();
    }
    boolean did;
    try {
      did = table.replace(key, expected, value);
    } catch (CacheFullException e) {
      return cacheFull(key, old);
    }
    if (did && !equal) {
      throw new AssertionError(
          "replace(" + key + ", " + expected + ", ...) replaced, the model has " + old);
    }
    if (did) {
      wrote(key, entry);
    } else if (equal) {
      model.evicted(key, old);
    }
    return did + " (expected " + TableModel.abbreviate(expected) + ")";
  }

  private String remove(String key) {
    Entry old = model.live(key);
    Map<String, Entry> gone = new HashMap<>();
    gone.put(key, null);
    inFlight = gone;
    boolean did = table.remove(key);
    if (did && old == null) {
      throw new AssertionError("remove(" + key + ") removed, the model has no live entry");
    }
    if (!did && old != null) {
      model.evicted(key, old);
    }
    model.removed(key); // a remove sweeps an expired entry too
    return String.valueOf(did);
  }

  private String removeIfEquals(String key, Expect expect) {
    String expected = expected(key, expect);
    Entry old = model.live(key);
    boolean equal = old != null && old.value().equals(expected);
    Map<String, Entry> gone = new HashMap<>();
    gone.put(key, null);
    inFlight = gone;
    boolean did = table.remove(key, expected);
    if (did && !equal) {
      throw new AssertionError(
          "remove(" + key + ", " + expected + ") removed, the model has " + old);
    }
    if (did) {
      model.removed(key);
    } else if (equal) {
      model.evicted(key, old);
    }
    return did + " (expected " + TableModel.abbreviate(expected) + ")";
  }

  private String computeIfAbsent(String key, int pad, boolean loadsNull) {
    String value = loadsNull ? null : nextValue(key, pad);
    Entry entry = loadsNull ? null : model.newEntry(value, null);
    Entry old = model.live(key);
    if (entry != null) {
      inFlight = Map.of(key, entry);
    }
    AtomicInteger loads = new AtomicInteger();
    String got;
    try {
      got =
          table.computeIfAbsent(
              key,
              k -> {
                loads.incrementAndGet();
                return value;
              });
    } catch (CacheFullException e) {
      model.mayEvict();
      return cacheFull(key, old);
    }
    if (got != null && !got.equals(value)) { // a hit
      model.observe(key, got);
      model.accessed(key);
      if (loads.get() != 0) {
        throw new AssertionError("computeIfAbsent(" + key + ") hit, but ran its loader");
      }
      return "hit " + TableModel.abbreviate(got);
    }
    if (loads.get() != 1) {
      throw new AssertionError("computeIfAbsent(" + key + ") missed, loader ran " + loads);
    }
    if (old != null) {
      model.evicted(key, old);
    }
    if (got != null) {
      wrote(key, entry);
    }
    return "loaded " + TableModel.abbreviate(got);
  }

  /**
   * compute: a read, the function, a compare-and-set, again if the set failed. Each round's
   * function records the value it was given and says which write is in flight, so that a cut in any
   * round is judged against the write that round makes.
   */
  private String compute(String key, int pad, boolean removes) {
    String absentValue = nextValue(key, pad);
    Entry absentEntry = model.newEntry(absentValue, null);
    String presentValue = removes ? null : nextValue(key, pad);
    Entry presentEntry = removes ? null : model.newEntry(presentValue, null);
    Map<String, Entry> removal = new HashMap<>();
    removal.put(key, null);
    Entry old = model.live(key);
    model.mayEvict(); // a round may write: its room is made first
    List<String> given = new ArrayList<>();
    inFlight = Map.of(key, absentEntry);
    String got;
    try {
      got =
          table.compute(
              key,
              (k, v) -> {
                given.add(v);
                inFlight =
                    v == null
                        ? Map.of(key, absentEntry)
                        : removes ? removal : Map.of(key, presentEntry);
                return v == null ? absentValue : presentValue;
              });
    } catch (CacheFullException e) {
      if (!given.isEmpty() && given.getLast() != null) {
        model.observe(key, given.getLast());
        model.accessed(key); // the round's read was a hit, and its write was refused
        model.mayEvict();
      }
      return cacheFull(key, old);
    }
    if (given.isEmpty()) {
      throw new AssertionError("compute(" + key + ") returned without running its function");
    }
    for (String v : given) {
      if (v != null) {
        model.observe(key, v); // each round's read named a write the model allows
      }
      model.mayEvict(); // then the round's write made room, which may evict the key itself
    }
    String last = given.getLast();
    if (last == null) {
      if (old != null) {
        model.evicted(key, old);
      }
      if (!absentValue.equals(got)) {
        throw new AssertionError("compute(" + key + ") of an absent key returned " + got);
      }
      wrote(key, absentEntry);
      return "absent, put " + TableModel.abbreviate(got) + " (" + given.size() + " rounds)";
    }
    if (removes) {
      if (got != null) {
        throw new AssertionError("compute(" + key + ") to null returned " + got);
      }
      model.removed(key);
      return "removed " + TableModel.abbreviate(last) + " (" + given.size() + " rounds)";
    }
    if (!presentValue.equals(got)) {
      throw new AssertionError("compute(" + key + ") of a present key returned " + got);
    }
    wrote(key, presentEntry);
    return TableModel.abbreviate(last) + " -> " + TableModel.abbreviate(got);
  }

  private String clear() {
    Map<String, Entry> gone = new HashMap<>();
    model.entries().keySet().forEach(k -> gone.put(k, null));
    inFlight = gone;
    table.clear();
    model.cleared();
    return "done";
  }

  private String putTooLarge(String key) {
    Entry old = model.live(key);
    model.mayEvict(); // an insert grows the index first, which may make room
    try {
      table.put(key, ".".repeat((int) setup.budgetBytes() + 1));
    } catch (CacheFullException e) {
      // the insert grows the index first: with only pinned entries left, that room is refused
      return cacheFull(key, old);
    } catch (EntryTooLargeException e) {
      tooLarge++;
      String now = snapshot().get(key);
      if (now != null && (old == null || !now.equals(old.value()))) {
        throw new AssertionError("the refused write of " + key + " left " + now, e);
      }
      return "EntryTooLargeException";
    }
    throw new AssertionError("a put larger than the budget was taken");
  }

  // ------------------------------------------------------------------ whole-table checks

  /** The table's live entries, by its iterator: each key once. */
  private Map<String, String> snapshot() {
    Map<String, String> seen = new HashMap<>();
    for (Map.Entry<String, String> e : table) {
      if (seen.put(e.getKey(), e.getValue()) != null) {
        throw new AssertionError("the iterator returned " + e.getKey() + " twice");
      }
    }
    return seen;
  }

  /**
   * Iteration, size and verify agree with the model; every entry the model found missing is one the
   * cache counts as evicted (since it was opened: its counters start at zero).
   */
  private void checkTable() {
    model.settle();
    model.observeAll(snapshot());
    long inferred = (long) model.evictionsSeen() - evictionsBeforeOpen;
    if (inferred > table.stats().evictions()) {
      throw new AssertionError(
          inferred
              + " entries went missing, the table counts "
              + table.stats().evictions()
              + " evictions");
    }
    long size = table.size();
    model.checkSize("size()", size);
    long verified = cache.verify();
    if (verified != size) {
      throw new AssertionError("verify() checked " + verified + " entries, size() is " + size);
    }
  }

  private String keptOf(Set<String> keys) {
    Map<String, String> now = snapshot();
    List<String> kept = new ArrayList<>();
    for (String k : new TreeSet<>(keys)) {
      kept.add(k + "=" + TableModel.abbreviate(now.get(k)));
    }
    return kept.toString();
  }

  // ------------------------------------------------------------------ reopen and power loss

  private void reopen() {
    try {
      cache.close();
    } catch (RuntimeException e) {
      if (disk == null || !disk.isDown()) {
        throw e;
      }
      recover(); // the armed power loss struck the close's checkpoint
      return;
    }
    reopens++;
    openOrRecover();
    checkTable();
  }

  /** Opens the cache; if an armed power loss strikes the open, recovers from it instead. */
  private void openOrRecover() {
    try {
      open();
    } catch (RuntimeException e) {
      if (disk == null || !disk.isDown()) {
        throw e;
      }
      recover();
    }
  }

  /**
   * After a power loss: drops the cache as the process would, reboots the disk, reopens, and checks
   * that every acknowledged write holds, and that the write cut ({@link #inFlight}) is either way.
   */
  private void recover() {
    powerLosses++;
    disk.disarmCrash();
    try {
      cache.close();
    } catch (RuntimeException expected) {
      // the pile failed with the power: its close may say so
    }
    disk.reboot();
    open(); // a cut checkpoint after hints alone reopens too (CheckpointCutAfterHintsTest)
    model.settle();
    if (inFlight != null) {
      Map<String, Entry> before = new HashMap<>();
      inFlight.keySet().forEach(k -> before.put(k, model.live(k)));
      model.mayEvict(); // a cut write may have made room first
      model.resolveCut(before, inFlight, snapshot());
    }
    model.observeAll(snapshot()); // what the cut write evicted, the lost process counted
    evictionsBeforeOpen = model.evictionsSeen();
    checkTable();
  }

  @Override
  public void close() {
    try {
      cache.close();
    } catch (RuntimeException e) {
      if (disk == null || !disk.isDown()) {
        throw e;
      }
    }
  }
}
