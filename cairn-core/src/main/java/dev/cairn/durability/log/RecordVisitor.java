package dev.cairn.durability.log;

import java.lang.foreign.MemorySegment;

/** Receives the records of a log scan, in LSN order. */
@FunctionalInterface
public interface RecordVisitor {
  /**
   * One valid record.
   *
   * @param lsn the record's start LSN
   * @param endLsn the LSN just after it: the next record's start, and what {@link
   *     WriteAheadLog#append} returned for it
   * @param type the record's type, 16-255
   * @param payload a read-only view of the payload, valid only during this call
   */
  void accept(long lsn, long endLsn, int type, MemorySegment payload);
}
