package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_LINK;
import static dev.cairn.pile.BlockLayout.KIND_OBJECT;
import static dev.cairn.pile.BlockLayout.KIND_STRING;
import static dev.cairn.pile.BlockLayout.PREV_FREE;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;
import static dev.cairn.pile.Pointers.NIL;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The pile's block writes: how a block is written, rewritten, turned into a link and freed, each
 * under the lock of the stripe that owns its segment. Which stripe a put allocates in is its {@link
 * StripeAllocator}'s choice.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * A write leaves its stripe locked for the caller, who ends it with Stripe.unlockAndLog in its
 * own context (WriteContext): a put, a transaction's allocation, a participant's record. On a
 * failure a write unlocks the stripe itself, logging what it undid as a plain operation.
 *
 * Concurrency:
 *   put     locks the calling thread's stripe (tryLock; on contention the thread moves to
 *           another stripe, as LongAdder cells do), allocates, writes, and returns it locked.
 *   update,
 *   delete  lock the stripe that owns the pointer's segment (lockOwner); changes that a reader
 *           could be in the middle of run in the segment's write section (NativeSegment's
 *           seqlock), so a reader retries (ValueReads R1).
 *   A thread holds one stripe lock at a time, except a commit or a checkpoint, which take them
 *   all in id order.
 *
 * Invariants:
 *   W1 a block's header is written, with its sealed tag, before the stripe's lock is released:
 *      no reader meets an allocated block without one;
 *   W2 a deleted block's header is stamped free at once (Stripe.free), so a stale pointer reads
 *      DELETED, or a new block's different tag;
 *   W3 a move allocates its target first and only then turns the original into a link: a full
 *      pile leaves the old value intact;
 *   W4 every segment byte a write changes is touched (Stripe.touch) for a persistent pile's
 *      journal.
 * }</pre>
 */
final class BlockWriter {

  private final SegmentTable table;
  private final NativeSegment[] segments; // the table's slots (SegmentTable.slots)
  private final long tagKey; // the clock's key (TagClock.key), copied: puts seal with no load
  private final ValueReads reads;
  private final Stripe[] stripes;
  private final StripeAllocator allocator;
  private final CodecRegistry codecs;
  private final WriteHooks writes;
  private final long maxPayloadBytes;

  BlockWriter(
      SegmentTable table,
      TagClock tags,
      ValueReads reads,
      Stripe[] stripes,
      CodecRegistry codecs,
      WriteHooks writes) {
    this.table = table;
    this.segments = table.slots();
    this.tagKey = tags.key();
    this.reads = reads;
    this.stripes = stripes;
    this.allocator = new StripeAllocator(table, stripes);
    this.codecs = codecs;
    this.writes = writes;
    this.maxPayloadBytes = table.segmentBytes() - SEGMENT_HEADER_BYTES - HEADER_BYTES;
  }

  /** The calling thread's stripe, for a write that allocates nothing (a participant's record). */
  Stripe homeStripe() {
    return allocator.homeStripe();
  }

  /** Whether the calling thread holds a stripe's lock (it is inside a write). */
  boolean holdsAnyStripeLock() {
    for (Stripe stripe : stripes) {
      if (stripe.isHeldByCurrentThread()) {
        return true;
      }
    }
    return false;
  }

  // =========================================================================================
  // allocating and writing a new block

  /**
   * Allocates a block for {@code value} and writes it; returns its stripe, still locked, with the
   * new pointer in {@link Stripe#lastPointer}: the caller ends the write with {@link
   * Stripe#unlockAndLog} in its own context. On a failure the stripe is unlocked, and what was
   * undone (a block freed again) is logged as a plain operation.
   */
  Stripe writeNew(Object value, int extraCapacityBytes) {
    return switch (value) {
      case byte[] bytes -> putRaw(KIND_BYTES, bytes, bytes.length, extraCapacityBytes);
      case String string -> {
        Scratch scratch = Scratch.forThread();
        int length = scratch.encode(string);
        yield putRaw(KIND_STRING, scratch.bytes, length, extraCapacityBytes);
      }
      default -> putObject(value, extraCapacityBytes);
    };
  }

  /**
   * {@link #writeNew(Object, int)} of a BYTES value whose payload, {@code length} bytes ({@link
   * #payloadSize}), {@code payload} writes into the block itself (a participant's value). A payload
   * that throws leaves no block behind.
   */
  Stripe writeNew(PayloadWriter payload, int length) {
    long granules = granulesFor(length, 0);
    int kind = payloadKind(payload);
    Scratch scratch = Scratch.forThread();
    // a small payload is composed before the stripe's lock is taken, so the lock covers a copy
    boolean staged = length <= Scratch.STAGING_BYTES;
    MemorySegment staging = null;
    if (staged) {
      staging = scratch.staging();
      payload.writeTo(staging, 0);
    }
    Stripe stripe = allocator.lockForAllocation(granules, scratch);
    boolean published = false;
    try {
      long address = stripe.lastAddress;
      NativeSegment segment = segments[Pointers.segment(address)];
      MemorySegment memory = segment.memory();
      long offset = Pointers.offsetBytes(address);
      if (staged) {
        MemorySegment.copy(staging, 0, memory, offset + HEADER_BYTES, length);
      } else {
        boolean success = false;
        try {
          compose(payload, memory, offset + HEADER_BYTES, length); // in place: it is large
          success = true;
        } finally {
          if (!success) { // as a throwing codec: the block goes back
            BlockLayout.writeLive(
                memory, offset, 0, KIND_BYTES, stripe.allocatedGranules, 0, false, 0);
            stripe.free(address);
          }
        }
      }
      publish(stripe, memory, segment.index(), offset, kind, length);
      published = true;
      return stripe;
    } finally {
      if (!published) {
        stripe.unlockAndLog(WriteContext.PLAIN);
      }
    }
  }

  /**
   * Has {@code payload} write its {@code length} bytes at {@code [at, at + length)} of {@code
   * memory}: composed in the thread's staging buffer and copied, up to {@link
   * Scratch#STAGING_BYTES}, so that a small write allocates nothing; a longer payload is written
   * through a view of the block bounded to it. Either way, bytes written past {@code length} never
   * reach a neighbour: they stay in the staging buffer, or throw IndexOutOfBoundsException.
   */
  private static void compose(PayloadWriter payload, MemorySegment memory, long at, int length) {
    if (length <= Scratch.STAGING_BYTES) {
      MemorySegment staging = Scratch.forThread().staging();
      payload.writeTo(staging, 0);
      MemorySegment.copy(staging, 0, memory, at, length);
    } else {
      payload.writeTo(memory.asSlice(at, length), 0);
    }
  }

  /** The size {@code payload} reports, checked: asked once per write. */
  static int payloadSize(PayloadWriter payload) {
    int length = payload.sizeBytes();
    if (length < 0) {
      throw new IllegalArgumentException(
          "a payload's size must not be negative: sizeBytes=" + length + " payload=" + payload);
    }
    return length;
  }

  /** The bytes a block for a payload of {@code payloadBytes} takes (ParticipantLog). */
  long allocatedBytesFor(int payloadBytes) {
    if (payloadBytes < 0) {
      throw new IllegalArgumentException(
          "a payload's size must not be negative: payloadBytes=" + payloadBytes);
    }
    return granulesFor(payloadBytes, 0) << GRANULE_SHIFT;
  }

  private Stripe putRaw(int kind, byte[] source, int length, int extra) {
    long granules = granulesFor(length, extra);
    Stripe stripe = allocator.lockForAllocation(granules);
    boolean success = false;
    try {
      long address = stripe.lastAddress;
      NativeSegment segment = segments[Pointers.segment(address)];
      MemorySegment memory = segment.memory();
      long offset = Pointers.offsetBytes(address);
      MemorySegment.copy(source, 0, memory, ValueLayout.JAVA_BYTE, offset + HEADER_BYTES, length);
      publish(stripe, memory, segment.index(), offset, kind, length);
      success = true;
      return stripe;
    } finally {
      if (!success) {
        stripe.unlockAndLog(WriteContext.PLAIN);
      }
    }
  }

  private <T> Stripe putObject(T value, int extra) {
    @SuppressWarnings("unchecked")
    Class<T> type = (Class<T>) value.getClass();
    int typeId = codecs.typeIdOf(type);
    Codec<T> codec = codecs.codecOf(typeId);
    int idBytes = TypeIds.length(typeId);
    int encoded = codec.encodedSize(value);
    if (encoded < 0) {
      throw new IllegalStateException(
          "codec returned a negative size: codec="
              + codec.getClass().getName()
              + " size="
              + encoded);
    }
    long length = (long) idBytes + encoded;
    long granules = granulesFor(length, extra);
    Stripe stripe = allocator.lockForAllocation(granules);
    boolean published = false;
    try {
      long address = stripe.lastAddress;
      NativeSegment segment = segments[Pointers.segment(address)];
      MemorySegment memory = segment.memory();
      long offset = Pointers.offsetBytes(address);
      boolean success = false;
      try {
        MemorySegment payload = memory.asSlice(offset + HEADER_BYTES, length);
        TypeIds.write(payload, typeId);
        codec.encode(value, payload, idBytes);
        success = true;
      } finally {
        if (!success) { // a throwing codec must not leak its block
          BlockLayout.writeLive(
              memory, offset, 0, KIND_BYTES, stripe.allocatedGranules, 0, false, 0);
          stripe.free(address);
        }
      }
      publish(stripe, memory, segment.index(), offset, KIND_OBJECT, (int) length);
      published = true;
      return stripe;
    } finally {
      if (!published) {
        stripe.unlockAndLog(WriteContext.PLAIN);
      }
    }
  }

  /** Writes the header of a freshly allocated block, counts it and returns its pointer. */
  private long publish(
      Stripe stripe, MemorySegment memory, int segment, long offset, int kind, int length) {
    int tag = stripe.nextTag();
    int sealed = TagClock.seal(tagKey, tag, Pointers.address(segment, offset));
    BlockLayout.writeLive(memory, offset, sealed, kind, stripe.allocatedGranules, length, false, 0);
    touchBlock(stripe, segments[segment], offset, stripe.allocatedGranules, length);
    stripe.objectCount++;
    stripe.utilizedBytes += length;
    long pointer = Pointers.pointer(tag, segment, offset);
    stripe.lastPointer = pointer;
    return pointer;
  }

  /** Marks a block's header, payload and trailer written, for a persistent pile's journal. */
  static void touchBlock(
      Stripe stripe, NativeSegment segment, long offset, long sizeGranules, int length) {
    if (stripe.journal == null) {
      return;
    }
    long blockBytes = sizeGranules << GRANULE_SHIFT;
    stripe.touch(segment, offset, HEADER_BYTES + length);
    if (blockBytes - HEADER_BYTES - length >= BlockLayout.SLACK_IN_TRAILER) {
      stripe.touch(segment, offset + blockBytes - 4, 4);
    }
  }

  /**
   * The granules of a block for {@code length} bytes and {@code extra} bytes of room. The segment
   * is checked first: a value no segment can hold is refused for that, whatever the durability, and
   * only one that fits a segment is refused for being larger than a log record (where durability
   * NONE is the way out).
   */
  private long granulesFor(long length, long extra) {
    long payload = length + extra;
    if (payload > maxPayloadBytes) {
      throw new ValueTooLargeException(
          "value larger than segment: size="
              + length
              + " extraCapacityBytes="
              + extra
              + " segmentBytes="
              + table.segmentBytes()
              + " (the largest value is "
              + maxPayloadBytes
              + " bytes; use larger segments)",
          payload,
          maxPayloadBytes,
          ValueTooLargeException.Limit.SEGMENT);
    }
    if (length > writes.maxValueBytes()) {
      throw new ValueTooLargeException(
          "value larger than a log record can hold: size="
              + length
              + " limit="
              + writes.maxValueBytes()
              + " (a pile with a log writes each value in one record;"
              + " use durability NONE for larger values)",
          length,
          writes.maxValueBytes(),
          ValueTooLargeException.Limit.LOG_RECORD);
    }
    return BlockLayout.granulesFor(payload);
  }

  // =========================================================================================
  // rewriting and freeing a pointer's block

  /** Locks and returns the stripe owning the pointer's segment, or throws for a dead pointer. */
  Stripe lockOwner(long pointer) {
    while (true) {
      table.checkOpen();
      NativeSegment segment = reads.segmentOf(pointer);
      Stripe owner = table.ownerOf(segment.index());
      if (owner == null) {
        continue; // segment released or being set up; segmentOf will tell which
      }
      owner.lock();
      if (segments[segment.index()] == segment
          && table.ownerOf(segment.index()) == owner
          && !table.isClosed()) {
        return owner;
      }
      owner.unlock();
      table.checkOpen();
    }
  }

  /**
   * Under the owner's lock: checks that {@code pointer} names a live value, as {@link
   * #deleteLocked} does first, and throws what it would.
   */
  void checkLive(long pointer) {
    NativeSegment segment = segments[Pointers.segment(pointer)];
    MemorySegment memory = segment.memory();
    lockedUserHeader(pointer, memory, ValueReads.blockOffset(pointer, memory));
  }

  /** Under the owner's lock: the header of the user block {@code pointer} names, or throws. */
  long lockedUserHeader(long pointer, MemorySegment memory, long offset) {
    long header = memory.get(WORD, offset);
    PointerProblem problem = reads.userBlockProblem(header, pointer, offset, memory.byteSize());
    if (problem != null) {
      throw reads.pointerProblem(pointer, problem);
    }
    return header;
  }

  /**
   * Frees the block of {@code pointer} (and its link target) under its stripe's lock; returns the
   * end LSN of the record that logs it, or 0 if the caller holds the lock already and logs the
   * whole operation (a commit, a rollback's run of frees).
   */
  long deleteLocked(long pointer) {
    Stripe stripe = lockOwner(pointer);
    long lsn;
    try {
      NativeSegment segment = segments[Pointers.segment(pointer)];
      MemorySegment memory = segment.memory();
      long offset = ValueReads.blockOffset(pointer, memory);
      long header = lockedUserHeader(pointer, memory, offset);
      segment.beginWrite();
      try {
        if (BlockLayout.kind(header) == KIND_LINK) {
          long target = memory.get(WORD, offset + HEADER_BYTES);
          stripe.utilizedBytes -= lengthAt(target);
          freeBlock(stripe, target);
          stripe.linkCount--;
        } else {
          stripe.utilizedBytes -= BlockLayout.length(header, memory, offset);
        }
        stripe.objectCount--;
        stripe.free(Pointers.addressOf(pointer));
      } finally {
        segment.endWrite();
      }
    } finally {
      lsn = stripe.unlockAndLog(WriteContext.PLAIN);
    }
    return lsn;
  }

  /**
   * Encodes {@code value} for a rewrite: its bytes, kind and length land in the thread's scratch.
   * Done before any lock or change, so a failing codec leaves the old value intact.
   */
  Scratch encodeForRewrite(Object value) {
    Scratch scratch = Scratch.forThread();
    switch (value) {
      case byte[] bytes -> {
        scratch.kind = KIND_BYTES;
        scratch.source = bytes;
        scratch.length = bytes.length;
      }
      case String string -> {
        scratch.kind = KIND_STRING;
        scratch.length = scratch.encode(string);
        scratch.source = scratch.bytes;
      }
      default -> {
        scratch.kind = KIND_OBJECT;
        scratch.length = scratch.encodeObject(value, codecs);
        scratch.source = scratch.bytes;
      }
    }
    granulesFor(scratch.length, 0); // size check before touching anything
    return scratch;
  }

  /**
   * Rewrites the value of {@code pointer} under its stripe's lock; returns the record's end LSN.
   */
  long updateLocked(long pointer, Object value) {
    Scratch scratch = encodeForRewrite(value);
    return rewriteLocked(pointer, scratch.kind, scratch.source, null, scratch.length);
  }

  /**
   * {@link #updateLocked(long, Object)} with a BYTES value that {@code payload} writes into the
   * pile's memory itself. A payload that throws while the value is rewritten in place (or in its
   * link target) leaves the bytes it wrote, logged as such; one that throws while the value moves
   * leaves it intact, the new block freed. {@code length} is the payload's size ({@link
   * #payloadSize}).
   */
  long updateLocked(long pointer, PayloadWriter payload, int length) {
    granulesFor(length, 0); // size check before touching anything
    return rewriteLocked(pointer, payloadKind(payload), null, payload, length);
  }

  /**
   * Rewrites the value of {@code pointer} with {@code length} bytes of {@code kind}, from {@code
   * source} or written by {@code payload} (one of them null), under its stripe's lock; returns the
   * record's end LSN.
   */
  private long rewriteLocked(
      long pointer, int kind, byte[] source, PayloadWriter payload, int length) {
    Stripe stripe = lockOwner(pointer);
    long lsn;
    try {
      NativeSegment segment = segments[Pointers.segment(pointer)];
      MemorySegment memory = segment.memory();
      long offset = ValueReads.blockOffset(pointer, memory);
      long header = lockedUserHeader(pointer, memory, offset);
      long capacity = BlockLayout.capacityBytes(header);
      boolean linked = BlockLayout.kind(header) == KIND_LINK;
      long oldTarget = linked ? memory.get(WORD, offset + HEADER_BYTES) : NIL;
      int oldLength = linked ? lengthAt(oldTarget) : BlockLayout.length(header, memory, offset);

      if (length <= capacity) { // fits the original block: write in place, drop any target
        segment.beginWrite();
        try {
          writePayload(stripe, segment, offset, source, payload, length);
          BlockLayout.writeLive(
              memory,
              offset,
              BlockLayout.tag(header),
              kind,
              BlockLayout.sizeGranules(header),
              length,
              false,
              header & PREV_FREE);
          touchBlock(stripe, segment, offset, BlockLayout.sizeGranules(header), length);
          if (linked) {
            freeBlock(stripe, oldTarget);
            stripe.linkCount--;
          }
        } finally {
          segment.endWrite();
        }
      } else if (linked && length <= capacityAt(oldTarget)) { // fits the current target
        NativeSegment targetSegment = segments[Pointers.segment(oldTarget)];
        MemorySegment targetMemory = targetSegment.memory();
        long targetOffset = Pointers.offsetBytes(oldTarget);
        long targetHeader = targetMemory.get(WORD, targetOffset);
        targetSegment.beginWrite();
        try {
          writePayload(stripe, targetSegment, targetOffset, source, payload, length);
          BlockLayout.writeLive(
              targetMemory,
              targetOffset,
              BlockLayout.tag(targetHeader),
              kind,
              BlockLayout.sizeGranules(targetHeader),
              length,
              true,
              targetHeader & PREV_FREE);
          touchBlock(
              stripe, targetSegment, targetOffset, BlockLayout.sizeGranules(targetHeader), length);
        } finally {
          targetSegment.endWrite();
        }
      } else { // move: allocate first, so that a full pile changes nothing
        long granules = BlockLayout.granulesFor(length);
        long address = stripe.allocate(granules, Stripe.Reach.GROW);
        if (address == NIL) {
          throw new PileFullException(
              "memory budget exhausted: update needs "
                  + (granules << GRANULE_SHIFT)
                  + " bytes to move the value; maxMemoryBytes="
                  + table.maxMemoryBytes()
                  + " (the old value is intact)");
        }
        // the allocation may have taken the free block just before this one and so cleared
        // this header's PREV_FREE bit: read the header again before rewriting it
        header = memory.get(WORD, offset);
        long target =
            payload == null
                ? writeTarget(stripe, address, kind, source, length)
                : writeTarget(stripe, address, kind, payload, length);
        becomeLink(stripe, segment, offset, header, target, oldTarget);
      }
      stripe.utilizedBytes += length - oldLength;
    } finally {
      lsn = stripe.unlockAndLog(WriteContext.PLAIN);
    }
    return lsn;
  }

  /**
   * Writes a value into the block at {@code address} that {@code stripe} just allocated, as a link
   * target (T), with a fresh tag; returns the target's pointer, for a link to name. Not in a write
   * section: a get reaches a target only through a link, and a stale pointer to its address meets a
   * free header or a T one (ValueReads R3).
   */
  long writeTarget(Stripe stripe, long address, int kind, byte[] source, int length) {
    NativeSegment targetSegment = segments[Pointers.segment(address)];
    MemorySegment targetMemory = targetSegment.memory();
    long targetOffset = Pointers.offsetBytes(address);
    int targetTag = stripe.nextTag();
    writePayload(targetMemory, targetOffset, source, length);
    BlockLayout.writeLive(
        targetMemory,
        targetOffset,
        TagClock.seal(tagKey, targetTag, address),
        kind,
        stripe.allocatedGranules,
        length,
        true,
        0);
    touchBlock(stripe, targetSegment, targetOffset, stripe.allocatedGranules, length);
    return Pointers.pointer(targetTag, targetSegment.index(), targetOffset);
  }

  /**
   * {@link #writeTarget(Stripe, long, int, byte[], int)} of a BYTES value {@code payload} writes;
   * if it throws, the block is freed again and the exception passes on.
   */
  private long writeTarget(
      Stripe stripe, long address, int kind, PayloadWriter payload, int length) {
    NativeSegment targetSegment = segments[Pointers.segment(address)];
    MemorySegment targetMemory = targetSegment.memory();
    long targetOffset = Pointers.offsetBytes(address);
    boolean success = false;
    try {
      compose(payload, targetMemory, targetOffset + HEADER_BYTES, length);
      success = true;
    } finally {
      if (!success) { // unreachable yet: freed as a throwing codec's block is
        BlockLayout.writeLive(
            targetMemory, targetOffset, 0, KIND_BYTES, stripe.allocatedGranules, 0, false, 0);
        freeBlock(stripe, address);
      }
    }
    int targetTag = stripe.nextTag();
    BlockLayout.writeLive(
        targetMemory,
        targetOffset,
        TagClock.seal(tagKey, targetTag, address),
        kind,
        stripe.allocatedGranules,
        length,
        true,
        0);
    touchBlock(stripe, targetSegment, targetOffset, stripe.allocatedGranules, length);
    return Pointers.pointer(targetTag, targetSegment.index(), targetOffset);
  }

  /**
   * A participant's payload is of kind BYTES, with the mark it asks for.
   *
   * @throws IllegalArgumentException if the mark is not 0-15
   */
  private static int payloadKind(PayloadWriter payload) {
    int mark = payload.mark();
    if ((mark & ~BlockLayout.MARK_MAX) != 0) {
      throw new IllegalArgumentException(
          "a payload's mark is 0 to " + BlockLayout.MARK_MAX + ", not " + mark);
    }
    return KIND_BYTES | mark << BlockLayout.MARK_IN_KIND;
  }

  /**
   * Writes a payload over a live block's (in its segment's write section): from {@code source}, or
   * by {@code payload}. If {@code payload} throws, the bytes it may have written are touched for
   * the journal before the exception passes on, so that the log holds what memory does.
   */
  private static void writePayload(
      Stripe stripe,
      NativeSegment segment,
      long offset,
      byte[] source,
      PayloadWriter payload,
      int length) {
    MemorySegment memory = segment.memory();
    if (payload == null) {
      writePayload(memory, offset, source, length);
      return;
    }
    boolean success = false;
    try {
      compose(payload, memory, offset + HEADER_BYTES, length);
      success = true;
    } finally {
      if (!success) {
        stripe.touch(segment, offset + HEADER_BYTES, length);
      }
    }
  }

  /**
   * Turns the live block at {@code offset} into a link to {@code target}, in the segment's write
   * section, and frees the block's previous target ({@code oldTarget}, or {@code NIL} if it held
   * its value itself).
   */
  void becomeLink(
      Stripe stripe, NativeSegment segment, long offset, long header, long target, long oldTarget) {
    MemorySegment memory = segment.memory();
    segment.beginWrite();
    try {
      memory.set(WORD, offset + HEADER_BYTES, target);
      BlockLayout.writeLive(
          memory,
          offset,
          BlockLayout.tag(header),
          KIND_LINK,
          BlockLayout.sizeGranules(header),
          Long.BYTES,
          false,
          header & PREV_FREE);
      touchBlock(stripe, segment, offset, BlockLayout.sizeGranules(header), Long.BYTES);
      if (oldTarget != NIL) {
        freeBlock(stripe, oldTarget);
      } else {
        stripe.linkCount++;
      }
    } finally {
      segment.endWrite();
    }
  }

  static void writePayload(MemorySegment memory, long offset, byte[] source, int length) {
    MemorySegment.copy(source, 0, memory, ValueLayout.JAVA_BYTE, offset + HEADER_BYTES, length);
  }

  /** Frees a link target (an address or pointer) inside its segment's write section. */
  void freeBlock(Stripe stripe, long target) {
    NativeSegment targetSegment = segments[Pointers.segment(target)];
    targetSegment.beginWrite();
    try {
      stripe.free(Pointers.addressOf(target));
    } finally {
      targetSegment.endWrite();
    }
  }

  int lengthAt(long target) {
    MemorySegment memory = segments[Pointers.segment(target)].memory();
    long offset = Pointers.offsetBytes(target);
    return BlockLayout.length(memory.get(WORD, offset), memory, offset);
  }

  private long capacityAt(long target) {
    MemorySegment memory = segments[Pointers.segment(target)].memory();
    return BlockLayout.capacityBytes(memory.get(WORD, Pointers.offsetBytes(target)));
  }

  /** A generous bound on the log record a write of {@code value} makes. */
  static long recordBytesFor(Object value) {
    long valueBytes =
        switch (value) {
          case byte[] bytes -> bytes.length;
          case String string -> 3L * string.length(); // UTF-8 takes at most 3 bytes per char
          default -> 16 * 1024;
        };
    return Journal.SMALL_RECORD_BYTES + valueBytes;
  }
}
