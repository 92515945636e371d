package dev.cairn.pile;

/**
 * Counters of a pile at one moment.
 *
 * @param objectCount live user values
 * @param linkCount values that moved on update and are reached through a link from their original
 *     block
 * @param segmentCount native segments held. A persistent pile's segments emptied since its last
 *     checkpoint are not counted: they hold their memory until the next checkpoint releases them
 *     (so that a clean close and reopen shows the same figures)
 * @param capacityBytes bytes of all segments held (what the pile takes from the OS)
 * @param allocatedBytes bytes of all live blocks, headers and link targets included
 * @param utilizedBytes payload bytes of all live values (what the caller stored)
 * @param overheadBytes {@code capacityBytes - utilizedBytes - freeBytes}: block headers, alignment,
 *     preallocated room, links and segment headers
 * @param freeBytes bytes in free blocks, ready to be reused
 * @param largestFreeBlockBytes the largest contiguous free extent
 * @param availability the share of a request for all {@code freeBytes}, made in pieces of up to
 *     {@link #AVAILABILITY_PIECE_BYTES}, that free extents at least that large could serve whole:
 *     the share of free bytes lying in extents of 64 KiB or more. 1.0 when free space is
 *     contiguous, towards 0.0 as it fragments into small holes (1.0 when nothing is free)
 */
public record PileStats(
    long objectCount,
    long linkCount,
    int segmentCount,
    long capacityBytes,
    long allocatedBytes,
    long utilizedBytes,
    long overheadBytes,
    long freeBytes,
    long largestFreeBlockBytes,
    double availability) {

  /** The piece size behind {@link #availability()}: 64 KiB. */
  public static final int AVAILABILITY_PIECE_BYTES = 64 * 1024;
}
