package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.cache.index.IndexRecord;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.memory.ThreadStatePadding;
import dev.cairn.pile.InvalidPointerException;
import dev.cairn.pile.StalePointerException;
import dev.cairn.pile.ValueKind;
import dev.cairn.pile.participant.InPlaceReader;
import java.lang.foreign.MemorySegment;
import java.time.InstantSource;

/**
 * One thread's reusable state for cache operations: the key's bytes, the entry codec, the index
 * record, and the reader that checks a candidate entry against the key. Nothing here is allocated
 * per operation.
 *
 * <p>Not thread-safe: one per thread ({@link #get}). A loader or listener that calls the cache from
 * inside an operation reuses it: operations re-encode their key after calling user code.
 */
final class Scratch extends ThreadStatePadding
    implements HashIndex.KeyMatcher, InPlaceReader<Object> {
  private static final ThreadLocal<Scratch> CURRENT =
      new ThreadLocal<>() { // not withInitial(Scratch::new): see CacheCore, "Start-up"
        @Override
        protected Scratch initialValue() {
          return new Scratch();
        }
      };

  /** What a read found when the entry is expired. */
  static final Object EXPIRED = new Object();

  final KeyCodec.KeyBuffer key = new KeyCodec.KeyBuffer();
  int keyLength;

  /** Inserts on this thread, counted for CacheCore's check of retired regions. */
  int insertsSinceRetiredCheck;

  /** The bare form ({@link EntryLayout}) of the table whose key is in {@link #key}. */
  long bare = EntryLayout.NOT_BARE;

  final EntryCodec entry = new EntryCodec();
  final IndexRecord record = new IndexRecord();
  final CacheChanges changes = new CacheChanges();

  /** Removals for the listener, told at the end of the operation (CacheCore). */
  record Removal(String table, Object key, RemovalCause cause) {}

  final java.util.ArrayDeque<Removal> removals = new java.util.ArrayDeque<>();
  boolean delivering;

  /** getAll's prefetch: a window's hashes, then the pointers read (OffHeapTable.PREFETCH_KEYS). */
  final long[] prefetchWords = new long[OffHeapTable.PREFETCH_KEYS];

  /** The thread's buffer for {@link dev.cairn.time.CoarseClock} (CacheCore.writeMillis). */
  final MemorySegment timespec = dev.cairn.time.CoarseClock.timespec();

  /** What getAll's prefetch read, kept only so that the compiler keeps the reads. */
  long prefetchSink;

  // the lookup in progress
  private EntryLog log;
  private CodecRegistry codecs;
  private boolean decode;
  private InstantSource clock; // null once now is read, or when the caller gave it
  private long now;

  // what it found
  Object found;
  long foundPointer;

  // a read into the caller's array (getInto): set for the lookup only, cleared before user code
  private byte[] into;
  int valueLength;

  static Scratch get() {
    return CURRENT.get();
  }

  /**
   * Sets up a lookup of the key in {@link #key} at time {@code now}; {@code decode}: read the value
   * too.
   */
  Scratch lookup(EntryLog log, CodecRegistry codecs, boolean decode, long now) {
    this.log = log;
    this.codecs = codecs;
    this.decode = decode;
    this.clock = null;
    this.now = now;
    this.found = null;
    this.foundPointer = 0;
    return this;
  }

  /**
   * As {@link #lookup(EntryLog, CodecRegistry, boolean, long)}, reading {@code clock} only when
   * something asks the time ({@link #now}): a get of an entry that has no expiry never does.
   */
  Scratch lookup(EntryLog log, CodecRegistry codecs, boolean decode, InstantSource clock) {
    lookup(log, codecs, decode, 0L);
    this.clock = clock;
    return this;
  }

  /**
   * Makes the lookup set up last copy the value it finds into {@code into} (as many bytes as fit)
   * and note the value's length in {@link #valueLength}, instead of decoding it; null turns that
   * off. The caller clears it as soon as the lookup returns, before anything can call user code,
   * which may use this scratch for a lookup of its own.
   */
  void copyInto(byte[] into) {
    this.into = into;
  }

  /** The lookup's time in epoch milliseconds: read from its clock once, on the first call. */
  long now() {
    InstantSource source = clock;
    if (source != null) {
      now = source.millis();
      clock = null;
    }
    return now;
  }

  @Override
  public boolean matches(long pointer) {
    Object result;
    try {
      result = log.read(pointer, this);
    } catch (StalePointerException | InvalidPointerException e) {
      return false; // removed, or its slot is being reused: not this key's (HashIndex I2)
    }
    if (result == EntryCodec.NO_MATCH) {
      return false;
    }
    found = result;
    foundPointer = pointer;
    return true;
  }

  @Override
  public Object read(MemorySegment memory, long offset, int length, ValueKind kind, int mark) {
    long form = EntryLayout.form(mark, bare);
    if (kind != ValueKind.BYTES
        || !EntryCodec.keyMatches(memory, offset, length, form, key.segment(), keyLength)) {
      return EntryCodec.NO_MATCH;
    }
    entry.noteHeader(memory, offset, length, form);
    long expireAt = entry.readExpireAt;
    if (expireAt != 0 && now() >= expireAt) {
      return EXPIRED;
    }
    if (into != null) {
      valueLength = EntryCodec.copyValue(memory, offset, length, form, into);
      return EntryCodec.MATCH;
    }
    return decode ? EntryCodec.decodeValue(memory, offset, length, form, codecs) : EntryCodec.MATCH;
  }
}
