package dev.cairn.cache;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.participant.Attachment;
import dev.cairn.pile.participant.InPlaceReader;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;

/**
 * What the cache needs of its pile: writes whose index change is applied under the write's lock and
 * logged with it, reads, and the regions the index lives in. One implementation over a pile's
 * participant log ({@link PileEntryLog}); tests may use another.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
interface EntryLog extends dev.cairn.cache.index.RegionStore {

  /**
   * The cache's part of a write: {@link #apply} runs under the write's lock and returns the record
   * logged with it; {@link #logged} (the pile's call, once the record is logged, before the wait
   * for durability) or at the latest {@link #afterLog} (once the write returned or failed) releases
   * what apply took: the index shard's lock, HashIndex I4. Both idempotent.
   */
  interface Change extends Attachment {
    void afterLog();
  }

  /** Stores {@code payload} as a new value and applies {@code change}; returns its pointer. */
  long put(PayloadWriter payload, int type, Change change);

  /**
   * A {@link #put} that does not wait for durability: durable once a later write that waits is, or
   * at the log's next force (ParticipantLog#putWithoutWaiting). For what no acknowledged write
   * depends on until a later write does: an index region.
   */
  default long putWithoutWaiting(PayloadWriter payload, int type, Change change) {
    return put(payload, type, change);
  }

  /** Rewrites the value of {@code pointer} (same pointer) and applies {@code change}. */
  void update(long pointer, PayloadWriter payload, int type, Change change);

  /** Deletes the value of {@code pointer} and applies {@code change}. */
  void delete(long pointer, int type, Change change);

  /** A change of the cache's own, with no value written; returns its LSN (0 if unlogged). */
  long append(int type, Change change);

  /** Reads the value of {@code pointer} in place ({@link InPlaceReader}). */
  <R> R read(long pointer, InPlaceReader<R> reader);

  /** Reads the first word of the value of {@code pointer}, for its line alone (no check). */
  long prefetch(long pointer);

  /** Reads an entry's payload, given as a slice of exactly it, and its block's mark. */
  @FunctionalInterface
  interface SliceReader<R> {
    R read(MemorySegment payload, int mark);
  }

  /**
   * Reads the value of {@code pointer} as a slice of exactly its payload, for reads off the hot
   * path (a view is made per read).
   */
  default <R> R readSlice(long pointer, SliceReader<R> reader) {
    return read(
        pointer,
        (memory, offset, length, kind, mark) -> reader.read(memory.asSlice(offset, length), mark));
  }

  /** The payload bytes of the value of {@code pointer}. */
  default int payloadBytes(long pointer) {
    return read(pointer, (memory, offset, length, kind, mark) -> length);
  }

  /** The pile's bytes for a value of {@code payloadBytes}: header and rounding included. */
  long allocatedBytes(int payloadBytes);

  /** The codecs the pile uses, for values and keys other than bytes and strings. */
  CodecRegistry codecs();
}
