package dev.cairn.cache.index;

import java.lang.foreign.MemorySegment;

/**
 * Where the index's regions live: pile blocks the cache owns and writes in place, so that a
 * persistent pile checkpoints them with its values.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface RegionStore {

  /**
   * The writable bytes of region {@code region}: called when a region is made (inside the
   * attachment of the put that made it) and when the index is opened, never on a hot path.
   */
  MemorySegment view(long region);

  /** Tells the pile that {@code length} bytes at {@code offset} of {@code region} changed. */
  void written(long region, long offset, long length);

  /**
   * As {@link #written}, for a hint (a compare-and-set of a slot's meta word outside any lock and
   * any record): the pile's ParticipantLog.hinted.
   */
  void hinted(long region, long offset, long length);
}
