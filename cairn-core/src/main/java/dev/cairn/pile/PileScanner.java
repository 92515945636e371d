package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_LINK;
import static dev.cairn.pile.BlockLayout.MIN_BLOCK_GRANULES;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Pile#scan}: walks every stripe's segments in address order, copying whole blocks a chunk
 * at a time into a buffer under the stripe's lock, and visits the copies with no lock held.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why copy: a visitor called under the stripe's lock could not use the pile (a put may wait for
 * other stripes' locks) and would stall the stripe's writers for as long as it runs. A copy of
 * CHUNK_BYTES takes tens of microseconds.
 *
 * Resuming: a chunk ends at a block boundary; the next one starts there if the segment saw no
 * merge in between (NativeSegment.merges, bumped by every free, the only operation that removes
 * boundaries; allocations only split blocks, adding boundaries). Otherwise the walk restarts
 * from the segment's first block to the first boundary at or after the old one.
 *
 * Exactly once: a value present throughout is in one block at one place for the whole scan
 * (updates rewrite it in place or move it behind a link, and the pointer's own block stays);
 * link targets are skipped and their values visited through the link, read by a get.
 * }</pre>
 */
final class PileScanner {

  /** Bytes of blocks copied under one hold of a stripe's lock. */
  static final int CHUNK_BYTES = 1 << 20;

  private final SegmentTable table;
  private final TagClock tags;
  private final ValueReads reads;
  private final ValueVisitor visitor;
  // long[]: headers are read with aligned 8-byte accesses, which a byte[] cannot promise
  private final MemorySegment staged = MemorySegment.ofArray(new long[CHUNK_BYTES / 8]);
  private final MemorySegment stagedView = staged.asReadOnly();

  // the chunk being visited: where it came from, and how many bytes of it are blocks
  private int segmentIndex;
  private long chunkStart;
  private long chunkEnd;

  PileScanner(SegmentTable table, TagClock tags, ValueReads reads, ValueVisitor visitor) {
    this.table = table;
    this.tags = tags;
    this.reads = reads;
    this.visitor = visitor;
  }

  void run(Stripe[] stripes) {
    for (Stripe stripe : stripes) {
      List<NativeSegment> owned;
      stripe.lock();
      try {
        table.checkOpen();
        owned = new ArrayList<>(stripe.segments);
      } finally {
        stripe.unlock();
      }
      for (NativeSegment segment : owned) {
        scanSegment(stripe, segment);
      }
    }
  }

  private void scanSegment(Stripe stripe, NativeSegment segment) {
    long offset = SEGMENT_HEADER_BYTES;
    long mergesSeen = -1;
    long end = segment.sizeBytes();
    while (offset < end) {
      MemorySegment large = null;
      stripe.lock();
      try {
        table.checkOpen();
        if (table.segmentAt(segment.index()) != segment
            || table.ownerOf(segment.index()) != stripe) {
          return; // emptied and released meanwhile: its values were all deleted
        }
        if (mergesSeen != -1 && segment.merges() != mergesSeen) {
          offset = firstBoundaryFrom(stripe, segment, offset);
        }
        mergesSeen = segment.merges();
        if (segment == stripe.bumpSegment && offset == stripe.bumpStart) {
          offset = stripe.bumpEnd; // untouched tail: no blocks
          continue;
        }
        if (offset >= end) {
          return;
        }
        MemorySegment memory = segment.memory();
        long at = offset;
        long limit =
            segment == stripe.bumpSegment && stripe.bumpStart > offset ? stripe.bumpStart : end;
        // the pages the chunk may span, checked against their checksums before any header on
        // them is believed (a segment born in memory, or already read, costs a bit test)
        reads.pages().requireIntactPages(segment, offset, Math.min(limit - offset, CHUNK_BYTES));
        while (at < limit) {
          reads.pages().requireIntactPages(segment, at, HEADER_BYTES);
          long size = blockBytes(segment, memory.get(WORD, at), at);
          if (at + size - offset > CHUNK_BYTES) {
            break;
          }
          at += size;
        }
        if (at == offset) { // one block larger than the buffer
          at = offset + blockBytes(segment, memory.get(WORD, offset), offset);
          reads.pages().requireIntactPages(segment, offset, at - offset);
          large = MemorySegment.ofArray(new long[Math.toIntExact((at - offset) / 8)]);
          MemorySegment.copy(memory, offset, large, 0, at - offset);
        } else {
          MemorySegment.copy(memory, offset, staged, 0, at - offset);
        }
        segmentIndex = segment.index();
        chunkStart = offset;
        chunkEnd = at;
        offset = at;
      } finally {
        stripe.unlock();
      }
      if (large != null) {
        visitBlocks(large, large.asReadOnly());
      } else {
        visitBlocks(staged, stagedView);
      }
    }
  }

  /** The first block boundary at or after {@code offset}, walking from the segment's start. */
  private static long firstBoundaryFrom(Stripe stripe, NativeSegment segment, long offset) {
    MemorySegment memory = segment.memory();
    long at = SEGMENT_HEADER_BYTES;
    while (at < offset) {
      if (segment == stripe.bumpSegment && at == stripe.bumpStart) {
        at = stripe.bumpEnd;
        continue;
      }
      at += blockBytes(segment, memory.get(WORD, at), at);
    }
    return at;
  }

  private static long blockBytes(NativeSegment segment, long header, long at) {
    long size = BlockLayout.sizeGranules(header);
    if (size < MIN_BLOCK_GRANULES || at + (size << GRANULE_SHIFT) > segment.sizeBytes()) {
      throw new PileCorruptionException(
          "S1 blocks must tile the segment: segment="
              + segment.index()
              + " offset="
              + at
              + " header=0x"
              + Long.toHexString(header));
    }
    return size << GRANULE_SHIFT;
  }

  /** Visits the live blocks of the chunk copied into {@code copy} (offset 0 is chunkStart). */
  private void visitBlocks(MemorySegment copy, MemorySegment view) {
    long length = chunkEnd - chunkStart;
    long at = 0;
    while (at < length) {
      long header = copy.get(WORD, at);
      long size = BlockLayout.sizeGranules(header) << GRANULE_SHIFT;
      if (!BlockLayout.isFree(header) && !BlockLayout.isTarget(header)) {
        long address = Pointers.address(segmentIndex, chunkStart + at);
        int tag = tags.seal(BlockLayout.tag(header), address); // sealing twice unseals
        long pointer = Pointers.pointer(tag, segmentIndex, chunkStart + at);
        int kind = BlockLayout.kind(header);
        if (kind == KIND_LINK) {
          visitLinked(pointer);
        } else {
          visitor.visit(
              pointer,
              ValueReads.valueKind(kind),
              view,
              at + HEADER_BYTES,
              BlockLayout.length(header, copy, at));
        }
      }
      at += size;
    }
  }

  /** A moved value: read through its link, as a get would. */
  private void visitLinked(long pointer) {
    ValueReads.Stored stored;
    try {
      stored = reads.stored(pointer);
    } catch (PointerException deletedMeanwhile) {
      return;
    }
    byte[] bytes = stored.bytes();
    visitor.visit(
        pointer, stored.kind(), MemorySegment.ofArray(bytes).asReadOnly(), 0, bytes.length);
  }
}
