package dev.cairn.pile;

import java.lang.foreign.MemorySegment;

/**
 * Reads a stored value in place through a bounded, read-only view, without copying it first.
 *
 * <p>Reads are optimistic, as with {@link java.util.concurrent.locks.StampedLock}: if the value is
 * updated or deleted while the reader runs, the pile calls the reader again on the new state (or
 * throws {@link StalePointerException} if the value is gone), and discards the first result. So a
 * reader must have no side effects besides its return value, and must not keep the view.
 */
@FunctionalInterface
public interface ValueReader<R> {
  /**
   * Reads the value; {@link Pile#read} returns what this returns.
   *
   * @param kind how the value is stored
   * @param payload a read-only view of exactly the stored bytes; valid only during this call
   */
  R read(ValueKind kind, MemorySegment payload);
}
