package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.NIL;

import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Full-scan check of one stripe's invariants S1-S5 (see {@link Stripe}); run with every stripe
 * locked. Slow by design: it walks every block and every free list.
 */
final class PileVerifier {
  private final SegmentTable table;
  private final TagClock clock;
  private final Stripe stripe;

  private final Set<Long> freeBlocks = new HashSet<>();
  private final Map<Long, Integer> targets = new HashMap<>(); // address -> sealed tag field
  private final Map<Long, Long> links = new HashMap<>(); // link address -> target pointer
  private long objects;
  private long allocated;
  private long utilized;
  private long freeBytes;
  private long capacity;

  PileVerifier(SegmentTable table, TagClock clock, Stripe stripe) {
    this.table = table;
    this.clock = clock;
    this.stripe = stripe;
  }

  void verify() {
    for (NativeSegment segment : stripe.segments) {
      walk(segment);
    }
    checkLinks();
    checkFreeLists();
    check(
        stripe.objectCount == objects,
        "S5 objectCount=%d but the walk found %d",
        stripe.objectCount,
        objects);
    check(
        stripe.linkCount == links.size(),
        "S5 linkCount=%d but the walk found %d",
        stripe.linkCount,
        links.size());
    check(
        stripe.allocatedBytes == allocated,
        "S5 allocatedBytes=%d but the walk found %d",
        stripe.allocatedBytes,
        allocated);
    check(
        stripe.utilizedBytes == utilized,
        "S5 utilizedBytes=%d but the walk found %d",
        stripe.utilizedBytes,
        utilized);
    check(
        stripe.listedFreeBytes == freeBytes,
        "S5 listedFreeBytes=%d but the walk found %d",
        stripe.listedFreeBytes,
        freeBytes);
    long headers = (long) SEGMENT_HEADER_BYTES * stripe.segments.size();
    long accounted = allocated + freeBytes + stripe.bumpFreeBytes() + headers;
    check(
        accounted == capacity,
        "S5 live %d + free %d + bump %d + headers %d != capacity %d",
        allocated,
        freeBytes,
        stripe.bumpFreeBytes(),
        headers,
        capacity);
  }

  private void walk(NativeSegment segment) {
    int index = segment.index();
    check(table.segmentAt(index) == segment, "segment %d is not in the pile's table", index);
    check(table.ownerOf(index) == stripe, "segment %d is not owned by stripe %d", index, stripe.id);
    capacity += segment.sizeBytes();
    MemorySegment memory = segment.memory();
    boolean[] previousFree = {false};
    stripe.forEachBlock(
        segment,
        (offset, header) -> {
          long size = BlockLayout.sizeGranules(header);
          long bytes = size << Pointers.GRANULE_SHIFT;
          boolean free = BlockLayout.isFree(header);
          check(
              BlockLayout.isPrevFree(header) == previousFree[0],
              "S3 PREV_FREE bit wrong at segment=%d offset=%d",
              index,
              offset);
          if (free) {
            check(
                !previousFree[0],
                "S2 neighbouring free blocks at segment=%d offset=%d",
                index,
                offset);
            long footer = memory.get(WORD, offset + bytes - BlockLayout.FOOTER_LENGTH);
            check(
                footer == size,
                "free block footer %d != size %d at segment=%d offset=%d",
                footer,
                size,
                index,
                offset);
            freeBlocks.add(Pointers.address(index, offset));
            freeBytes += bytes;
          } else {
            allocated += bytes;
            long address = Pointers.address(index, offset);
            if (BlockLayout.isTarget(header)) {
              targets.put(address, BlockLayout.tag(header));
              utilized += checkedLength(memory, offset, header, index);
            } else {
              objects++;
              if (BlockLayout.kind(header) == BlockLayout.KIND_LINK) {
                links.put(address, memory.get(WORD, offset + HEADER_BYTES));
              } else {
                utilized += checkedLength(memory, offset, header, index);
              }
            }
          }
          if (segment == stripe.bumpSegment && offset + bytes == stripe.bumpStart) {
            check(
                !free,
                "S2 free block next to the bump region at segment=%d offset=%d",
                index,
                offset);
          }
          previousFree[0] = free;
        });
  }

  private long checkedLength(MemorySegment memory, long offset, long header, int index) {
    int length = BlockLayout.length(header, memory, offset);
    if (BlockLayout.slack(header) == BlockLayout.SLACK_IN_TRAILER) {
      int stored = memory.get(BlockLayout.INT, offset + BlockLayout.sizeBytes(header) - 4);
      check(
          stored == length,
          "trailer length %d out of range at segment=%d offset=%d",
          stored,
          index,
          offset);
    }
    return length;
  }

  private void checkLinks() {
    check(
        links.size() + stripe.pendingTargets == targets.size(),
        "S5 %d links and %d targets of open transactions, but %d link targets",
        links.size(),
        stripe.pendingTargets,
        targets.size());
    for (Map.Entry<Long, Long> link : links.entrySet()) {
      long target = link.getValue();
      Integer tag = targets.get(Pointers.addressOf(target));
      check(
          tag != null && tag == clock.seal(Pointers.tag(target), Pointers.addressOf(target)),
          "link at %s points to %s, which is not a live target of this stripe",
          Pointers.describe(link.getKey()),
          Pointers.describe(target));
    }
  }

  private void checkFreeLists() {
    for (int c = 0; c < SizeClasses.COUNT; c++) {
      long head = stripe.listHead(c);
      check(stripe.classMarkedNonEmpty(c) == (head != NIL), "S4 bitmap wrong for size class %d", c);
      long previous = NIL;
      for (long block = head; block != NIL; ) {
        check(
            freeBlocks.remove(block),
            "S4 listed block %s is not a free block of this stripe (or listed twice)",
            Pointers.describe(block));
        MemorySegment memory = table.segmentAt(Pointers.segment(block)).memory();
        long offset = Pointers.offsetBytes(block);
        long size = BlockLayout.sizeGranules(memory.get(WORD, offset));
        check(
            SizeClasses.classOf(size) == c, "S4 block of %d granules listed in class %d", size, c);
        check(
            memory.get(WORD, offset + BlockLayout.PREV_OFFSET) == previous,
            "S4 broken prev link at %s",
            Pointers.describe(block));
        previous = block;
        block = memory.get(WORD, offset + BlockLayout.NEXT_OFFSET);
      }
    }
    check(
        freeBlocks.isEmpty(),
        "S4 %d free blocks are in no free list, e.g. %s",
        freeBlocks.size(),
        freeBlocks.isEmpty() ? "" : Pointers.describe(freeBlocks.iterator().next()));
  }

  // AnnotateFormatMethod: @FormatMethod needs ErrorProne's annotations on the module path, which
  // Cairn does not depend on; every caller passes a literal format
  @SuppressWarnings("AnnotateFormatMethod")
  private static void check(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new PileCorruptionException(String.format(java.util.Locale.ROOT, format, args));
    }
  }
}
