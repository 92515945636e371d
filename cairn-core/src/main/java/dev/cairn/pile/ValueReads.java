package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_LINK;
import static dev.cairn.pile.BlockLayout.KIND_STRING;
import static dev.cairn.pile.BlockLayout.MARK_IN_KIND;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import dev.cairn.memory.ThreadStatePadding;
import dev.cairn.pile.participant.InPlaceReader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * The pile's lock-free reads: the optimistic read protocol every get goes through, its fast paths,
 * and the checks that tell a live value's pointer from a stale or a foreign one.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Protocol (read): resolve the pointer to its segment and block (and a link to its target),
 * check each header, run a PayloadReader on the payload, then validate the write sequence of
 * every segment it read (NativeSegment's seqlock); if a writer intervened, retry. A reader may
 * see torn bytes and even fail on them: only a result, or a failure, that validates counts.
 *
 * Invariants:
 *   R1 a value is returned, or a problem reported, only after every segment it came from
 *      validates: a torn read is retried, never seen;
 *   R2 a header is believed only once its page matches its file's checksum (PageChecks); a page
 *      is checked under its owner's lock, so no write changes it meanwhile (PageCheck I2);
 *   R3 a block answers a pointer only if it is live, a block start, not a link target, within
 *      its segment, and holds the pointer's tag sealed with its address (TagClock.seal);
 *   R4 a segment released under a reader fails it with the FFM runtime's closed-scope
 *      exception, which becomes PileClosedException if the pile is closed, else
 *      StalePointerException: never stray memory.
 *
 * Problems: a pointer that fails R3 or names no segment gets a PointerProblem, which says
 * whether it is stale (the pile's, its value gone) or invalid (never the pile's); a tag the
 * clock never handed out makes it invalid whatever else is wrong.
 *
 * Allocation: the readers are constants, given what they need as a typed context (the codecs,
 * the caller's ValueReader, a copy target); a read into the caller's memory uses the thread's
 * CopyTargets, which carry the destination in and the length and whether it fit out. So a read
 * allocates what it returns, and the views the FFM API needs for a ValueReader or a
 * ByteBuffer; no reader, no boxed length.
 *
 * Concurrency: no locks, except a page check (R2). Any thread, any number at once.
 * }</pre>
 */
final class ValueReads {

  private static final ThreadLocal<CopyTargets> TARGETS =
      new ThreadLocal<>() { // not withInitial(CopyTargets::new): see OffHeapPile, "Start-up"
        @Override
        protected CopyTargets initialValue() {
          return new CopyTargets();
        }
      };

  /** Bytes of the thread's staging memory for {@link #transferTo}; larger values get their own. */
  private static final int STAGING_BYTES = 64 * 1024;

  private static final long NOT_PLAIN = BlockLayout.FREE | BlockLayout.TARGET;

  private final SegmentTable table;
  private final NativeSegment[] segments; // the table's slots (SegmentTable.slots)
  private final TagClock tags;
  private final long tagKey; // the clock's key (TagClock.key), copied: gets seal with no load
  private final CodecRegistry codecs;
  private final PageChecks pages;

  ValueReads(
      SegmentTable table, TagClock tags, CodecRegistry codecs, PersistenceHooks persistence) {
    this.table = table;
    this.segments = table.slots();
    this.tags = tags;
    this.tagKey = tags.key();
    this.codecs = codecs;
    this.pages = new PageChecks(table, persistence);
  }

  /** The checks of mapped pages against their files' checksums (R2). */
  PageChecks pages() {
    return pages;
  }

  // =========================================================================================
  // readers

  /**
   * What a read does with a payload that passed every check, at {@code [at, at + length)} of {@code
   * memory}, of block kind {@code kind} (with the block's mark above it: {@link
   * BlockLayout#MARK_IN_KIND}), given {@code context}: where to copy it, or what turns it into a
   * value. Called inside the optimistic read: it may see torn bytes, and its result, or failure,
   * counts only once the read validates (R1).
   */
  private interface PayloadReader<C, R> {
    R read(MemorySegment memory, long at, int length, int kind, C context);
  }

  // The readers are classes, not lambdas: a lambda is spun at the class's first use, and the
  // eleven of them cost a fresh JVM's first get, or its open of a persistent pile, 12-18 ms.

  private static final PayloadReader<Void, byte[]> COPY =
      new PayloadReader<>() {
        @Override
        public byte[] read(MemorySegment memory, long at, int length, int kind, Void none) {
          return copy(memory, at, length);
        }
      };

  private static final PayloadReader<CodecRegistry, Object> DECODE =
      new PayloadReader<>() {
        @Override
        public Object read(
            MemorySegment memory, long at, int length, int kind, CodecRegistry codecs) {
          return decode(memory, at, length, kind, codecs);
        }
      };

  private static final PayloadReader<Void, ValueKind> KIND =
      new PayloadReader<>() {
        @Override
        public ValueKind read(MemorySegment memory, long at, int length, int kind, Void none) {
          return valueKind(kind);
        }
      };

  private static final PayloadReader<Void, Stored> STORED =
      new PayloadReader<>() {
        @Override
        public Stored read(MemorySegment memory, long at, int length, int kind, Void none) {
          return new Stored(valueKind(kind), copy(memory, at, length));
        }
      };

  // memory is read-only (the segment's readOnlyMemory)
  private static final PayloadReader<ValueReader<?>, Object> USER =
      new PayloadReader<>() {
        @Override
        public Object read(
            MemorySegment memory, long at, int length, int kind, ValueReader<?> reader) {
          return reader.read(valueKind(kind), memory.asSlice(at, length));
        }
      };

  private static final PayloadReader<InPlaceReader<?>, Object> IN_PLACE =
      new PayloadReader<>() {
        @Override
        public Object read(
            MemorySegment memory, long at, int length, int kind, InPlaceReader<?> reader) {
          return reader.read(memory, at, length, valueKind(kind), kind >>> MARK_IN_KIND);
        }
      };

  private static final PayloadReader<ArrayTarget, ArrayTarget> INTO_ARRAY =
      new PayloadReader<>() {
        @Override
        public ArrayTarget read(
            MemorySegment memory, long at, int length, int kind, ArrayTarget target) {
          return target.take(memory, at, length);
        }
      };

  private static final PayloadReader<BufferTarget, BufferTarget> INTO_BUFFER =
      new PayloadReader<>() {
        @Override
        public BufferTarget read(
            MemorySegment memory, long at, int length, int kind, BufferTarget target) {
          return target.take(memory, at, length);
        }
      };

  private static final PayloadReader<SegmentTarget, SegmentTarget> INTO_SEGMENT =
      new PayloadReader<>() {
        @Override
        public SegmentTarget read(
            MemorySegment memory, long at, int length, int kind, SegmentTarget target) {
          return target.take(memory, at, length);
        }
      };

  private static final PayloadReader<CopyTarget, CopyTarget> LENGTH =
      new PayloadReader<>() {
        @Override
        public CopyTarget read(
            MemorySegment memory, long at, int length, int kind, CopyTarget target) {
          return target.measure(length);
        }
      };

  /** A value's kind and stored bytes, read together (for a scan meeting a moved value). */
  record Stored(ValueKind kind, byte[] bytes) {}

  // =========================================================================================
  // the reads of the Pile API

  /** {@link Pile#get(long)}. */
  Object get(long pointer) {
    return read(pointer, DECODE, codecs);
  }

  /** {@link Pile#getBytes(long)}. */
  byte[] getBytes(long pointer) {
    // fast path: a plain block, no writer about; anything else takes the general read
    NativeSegment segment = segments[Pointers.segment(pointer)];
    if (segment != null) {
      try {
        MemorySegment memory = segment.memory();
        long offset = Pointers.offsetBytes(pointer);
        long sequence = segment.sequenceAcquire();
        int length = plainLength(tagKey, segment, memory, offset, pointer);
        if (length >= 0 && (sequence & 1) == 0) {
          byte[] bytes = new byte[length];
          MemorySegment.copy(
              memory, ValueLayout.JAVA_BYTE, offset + HEADER_BYTES, bytes, 0, length);
          if (segment.validate(sequence)) {
            return bytes;
          }
        }
      } catch (IllegalStateException | IndexOutOfBoundsException raced) {
        // released or closed meanwhile: the general read reports it properly
      }
    }
    return read(pointer, COPY, null);
  }

  /**
   * The fast path of {@link Pile#getBytes(long, byte[], int)} (the caller checked {@code offset};
   * if this returns -1, {@link #getBytesGeneral}): a plain block with no writer about, copied into
   * {@code dst}; -1 when the general read must decide. Static, over the table's slots and the
   * clock's key as the caller keeps them, so that a get through the pile loads no reader object
   * first: that one more dependent load cost a hot get into a reused array 13% (JMH
   * PileBenchmark.getBytesHot_reusedArray, against the pile before the reader was its own class).
   */
  static int getBytesPlain(
      NativeSegment[] segments, long tagKey, long pointer, byte[] dst, int offset) {
    NativeSegment segment = segments[Pointers.segment(pointer)];
    if (segment != null) {
      try {
        MemorySegment memory = segment.memory();
        long at = Pointers.offsetBytes(pointer);
        long sequence = segment.sequenceAcquire();
        int length = plainLength(tagKey, segment, memory, at, pointer);
        if (length >= 0 && length <= dst.length - offset && (sequence & 1) == 0) {
          MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, at + HEADER_BYTES, dst, offset, length);
          if (segment.validate(sequence)) {
            return length;
          }
        }
      } catch (IllegalStateException | IndexOutOfBoundsException raced) {
        // released or closed meanwhile: the general read reports it properly
      }
    }
    return -1;
  }

  /**
   * {@link Pile#getBytes(long, byte[], int)} by the general read, where {@link #getBytesPlain}
   * cannot decide: a block being written, a link, a page not checked yet, a bad pointer, a small
   * buffer.
   */
  int getBytesGeneral(long pointer, byte[] dst, int offset) {
    ArrayTarget target = TARGETS.get().array;
    target.array = dst;
    target.offset = offset;
    try {
      read(pointer, INTO_ARRAY, target);
    } finally {
      target.array = null; // the caller's memory is not the thread's to keep
    }
    if (!target.fitted) {
      throw new IllegalArgumentException(
          "buffer too small: size=" + target.length + " available=" + (dst.length - offset));
    }
    return target.length;
  }

  /** {@link Pile#read(long, ByteBuffer)}; the caller checked that {@code dst} is writable. */
  int read(long pointer, ByteBuffer dst) {
    BufferTarget target = TARGETS.get().buffer;
    target.buffer = dst;
    try {
      read(pointer, INTO_BUFFER, target);
    } finally {
      target.buffer = null;
    }
    if (!target.fitted) {
      throw new BufferOverflowException();
    }
    dst.position(dst.position() + target.length);
    return target.length;
  }

  /** {@link Pile#transferTo}. */
  long transferTo(long pointer, WritableByteChannel channel) throws IOException {
    // One validated copy of the whole value into native staging memory, then plain writes: the
    // channel never sees torn bytes, and gets them from a direct buffer, with no heap array.
    // Values up to 64 KiB use the thread's staging segment; larger ones a confined arena.
    CopyTargets targets = TARGETS.get();
    MemorySegment staging = targets.staging();
    SegmentTarget target = targets.segment;
    readInto(pointer, target, staging);
    if (target.fitted) {
      return writeFully(staging.asSlice(0, target.length), channel);
    }
    while (true) {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment large = arena.allocate(target.length);
        readInto(pointer, target, large);
        if (target.fitted) {
          return writeFully(large.asSlice(0, target.length), channel);
        }
      } // the value grew between the two reads: try again with its new size
    }
  }

  private void readInto(long pointer, SegmentTarget target, MemorySegment segment) {
    target.segment = segment;
    try {
      read(pointer, INTO_SEGMENT, target);
    } finally {
      target.segment = null;
    }
  }

  private static long writeFully(MemorySegment bytes, WritableByteChannel channel)
      throws IOException {
    ByteBuffer buffer = bytes.asByteBuffer();
    long written = 0;
    while (buffer.hasRemaining()) {
      written += channel.write(buffer);
    }
    return written;
  }

  /** {@link Pile#read(long, ValueReader)}. */
  <R> R read(long pointer, ValueReader<R> reader) {
    @SuppressWarnings("unchecked") // USER returns what reader returns
    R result = (R) read(pointer, USER, reader);
    return result;
  }

  /** {@link dev.cairn.pile.participant.ParticipantLog#read}. */
  <R> R read(long pointer, InPlaceReader<R> reader) {
    @SuppressWarnings("unchecked") // IN_PLACE returns what reader returns
    R result = (R) read(pointer, IN_PLACE, reader);
    return result;
  }

  /** {@link Pile#sizeOf}. */
  int sizeOf(long pointer) {
    return read(pointer, LENGTH, TARGETS.get().length).length;
  }

  /** {@link Pile#kindOf}. */
  ValueKind kindOf(long pointer) {
    return read(pointer, KIND, null);
  }

  /** A value's kind and bytes, read together. */
  Stored stored(long pointer) {
    return read(pointer, STORED, null);
  }

  /** The kind of block kind {@code kind}; a mark ({@link BlockLayout#MARK_IN_KIND}) is left out. */
  static ValueKind valueKind(int kind) {
    return switch (kind & BlockLayout.KIND_BITS_MASK) {
      case KIND_BYTES -> ValueKind.BYTES;
      case KIND_STRING -> ValueKind.STRING;
      default -> ValueKind.OBJECT;
    };
  }

  private static byte[] copy(MemorySegment memory, long at, int length) {
    byte[] bytes = new byte[length];
    MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, at, bytes, 0, length);
    return bytes;
  }

  private static Object decode(
      MemorySegment memory, long at, int length, int kind, CodecRegistry codecs) {
    switch (kind & BlockLayout.KIND_BITS_MASK) {
      case KIND_BYTES -> {
        return copy(memory, at, length);
      }
      case KIND_STRING -> {
        return Scratch.forThread().decodeString(memory, at, length);
      }
      default -> {
        MemorySegment payload = memory.asSlice(at, length);
        int typeId = TypeIds.read(payload);
        int idBytes = TypeIds.length(typeId);
        return codecs.codecOf(typeId).decode(payload, idBytes, length - idBytes);
      }
    }
  }

  // =========================================================================================
  // the protocol

  /**
   * The optimistic read every get goes through: resolve the pointer (and its link), check the
   * header, run {@code reader} on the payload, and return its result only if no writer touched the
   * segments meanwhile (R1); otherwise retry.
   */
  private <C, R> R read(long pointer, PayloadReader<C, R> reader, C context) {
    table.checkOpen();
    try {
      while (true) {
        NativeSegment segment = segmentOf(pointer);
        MemorySegment memory = segment.memory();
        long offset = blockOffset(pointer, memory);
        long sequence = segment.sequenceAcquire();
        if ((sequence & 1) != 0) {
          Thread.onSpinWait();
          continue;
        }
        long damaged = pages.damagedPage(segment, offset, HEADER_BYTES);
        long header = memory.get(WORD, offset);
        PointerProblem problem =
            damaged >= 0 ? null : userBlockProblem(header, pointer, offset, memory.byteSize());
        if (problem == null && damaged < 0) {
          damaged = pages.damagedPage(segment, offset, BlockLayout.sizeBytes(header));
        }
        if (problem != null || damaged >= 0) {
          if (segment.validate(sequence)) {
            throw damaged >= 0
                ? pages.damagedValue(pointer, segment, damaged)
                : pointerProblem(pointer, problem);
          }
          continue;
        }
        NativeSegment dataSegment = segment;
        long dataOffset = offset;
        long dataHeader = header;
        long dataSequence = sequence;
        if (BlockLayout.kind(header) == KIND_LINK) {
          long target = memory.get(WORD, offset + HEADER_BYTES);
          dataSegment = segments[Pointers.segment(target)];
          dataOffset = Pointers.offsetBytes(target);
          dataSequence = dataSegment == null ? 1 : dataSegment.sequenceAcquire();
          String linkProblem =
              dataSegment == null || (dataSequence & 1) != 0
                  ? "link target segment missing"
                  : targetProblem(dataSegment, dataOffset, target);
          if (linkProblem != null) {
            if (segment.validate(sequence)
                && dataSegment != null
                && (dataSequence & 1) == 0
                && dataSegment.validate(dataSequence)) {
              long damagedTarget = pages.damagedPage(dataSegment, dataOffset, HEADER_BYTES);
              throw damagedTarget >= 0
                  ? pages.damagedValue(pointer, dataSegment, damagedTarget)
                  : new PileCorruptionException(
                      "broken link at " + Pointers.describe(pointer) + ": " + linkProblem);
            }
            Thread.onSpinWait();
            continue;
          }
          dataHeader = dataSegment.memory().get(WORD, dataOffset);
          if (BlockLayout.isFree(dataHeader)
              || !BlockLayout.isTarget(dataHeader)
              || dataOffset + BlockLayout.sizeBytes(dataHeader) > dataSegment.sizeBytes()) {
            // changed since targetProblem checked it: a writer is at work (read on, its size
            // could be anything up to 1 GiB, and a reader would allocate that much)
            Thread.onSpinWait();
            continue;
          }
          long damagedTarget =
              pages.damagedPage(dataSegment, dataOffset, BlockLayout.sizeBytes(dataHeader));
          if (damagedTarget >= 0) {
            if (segment.validate(sequence) && dataSegment.validate(dataSequence)) {
              throw pages.damagedValue(pointer, dataSegment, damagedTarget);
            }
            continue;
          }
        }
        MemorySegment dataMemory = dataSegment.readOnlyMemory(); // readers only read
        R result;
        try {
          // inside the try: a link target's header is read again after targetProblem checked
          // it, so under a racing writer its size may be garbage and the trailer read go astray
          int length = BlockLayout.length(dataHeader, dataMemory, dataOffset);
          result =
              reader.read(
                  dataMemory,
                  dataOffset + HEADER_BYTES,
                  length,
                  BlockLayout.kindAndMark(dataHeader),
                  context);
        } catch (RuntimeException e) {
          if (e instanceof IllegalStateException && !segment.memory().scope().isAlive()) {
            throw e;
          }
          if (dataSegment.validate(dataSequence) && segment.validate(sequence)) {
            throw e instanceof IndexOutOfBoundsException
                ? new CorruptValueException("stored value does not decode: " + e.getMessage())
                : e;
          }
          continue; // torn read made the reader fail; the retry sees a consistent value
        }
        if (dataSegment.validate(dataSequence) && segment.validate(sequence)) {
          return result;
        }
      }
    } catch (IllegalStateException e) {
      throw scopeClosed(pointer, e);
    }
  }

  /** R4: a read's segment was released under it. */
  private RuntimeException scopeClosed(long pointer, IllegalStateException e) {
    if (table.isClosed()) {
      return new PileClosedException(e);
    }
    return PointerProblem.RELEASED_DURING_READ.exception(pointer);
  }

  // =========================================================================================
  // pointer checks (also for writers, under the owning stripe's lock)

  /**
   * The first word of the block {@code pointer} names, with no check but that it lies in a segment
   * ({@link dev.cairn.pile.participant.ParticipantLog#prefetch}); 0 if it does not.
   */
  long prefetch(long pointer) {
    NativeSegment segment = segments[Pointers.segment(pointer)];
    if (segment == null) {
      return 0;
    }
    try {
      MemorySegment memory = segment.memory();
      long offset = Pointers.offsetBytes(pointer);
      return offset + Long.BYTES <= memory.byteSize() ? memory.get(WORD, offset) : 0;
    } catch (IllegalStateException e) { // the segment's arena closed under the call
      return 0;
    }
  }

  /**
   * The segment {@code pointer} names.
   *
   * @throws PointerException if the table holds none at its index
   * @throws PileClosedException if the pile is closed
   */
  NativeSegment segmentOf(long pointer) {
    int index = Pointers.segment(pointer);
    NativeSegment segment = segments[index];
    if (segment == null) {
      table.checkOpen();
      PointerProblem foreign = foreignProblem(pointer);
      if (foreign != null) {
        throw foreignPointer(pointer, foreign);
      }
      int bound = table.indexBound();
      if (index >= bound) {
        throw PointerProblem.SEGMENT_NEVER_USED.exception(pointer, index, bound);
      }
      throw PointerProblem.SEGMENT_RELEASED.exception(pointer, index);
    }
    return segment;
  }

  /**
   * The offset of the block {@code pointer} names in its segment's {@code memory}.
   *
   * @throws InvalidPointerException if no block can start there
   */
  static long blockOffset(long pointer, MemorySegment memory) {
    long offset = Pointers.offsetBytes(pointer);
    if (offset < SEGMENT_HEADER_BYTES || offset + BlockLayout.MIN_BLOCK_BYTES > memory.byteSize()) {
      throw PointerProblem.OFFSET_OUT_OF_RANGE.exception(pointer);
    }
    return offset;
  }

  /**
   * The payload length of the block at {@code offset} if it is a live, unlinked user block with
   * {@code pointer}'s tag, else -1: the checks of {@link #userBlockProblem} in a few instructions,
   * for the fast read paths. Must be validated against the segment's sequence.
   */
  private static int plainLength(
      long tagKey, NativeSegment segment, MemorySegment memory, long offset, long pointer) {
    if (offset < SEGMENT_HEADER_BYTES) {
      return -1;
    }
    PageCheck check = segment.pageCheck();
    if (check != null && !check.isChecked(PageCheck.pageOf(offset))) {
      return -1; // the header's page is not checked yet: the general read checks it (R2)
    }
    long header = memory.get(WORD, offset);
    long size = BlockLayout.sizeGranules(header);
    if ((header & NOT_PLAIN) != 0
        || BlockLayout.kind(header) == KIND_LINK
        || BlockLayout.tag(header)
            != TagClock.seal(tagKey, Pointers.tag(pointer), Pointers.addressOf(pointer))
        || size < BlockLayout.MIN_BLOCK_GRANULES
        || offset + (size << GRANULE_SHIFT) > memory.byteSize()
        || (check != null && !check.allChecked(offset, size << GRANULE_SHIFT))) {
      return -1;
    }
    return BlockLayout.length(header, memory, offset);
  }

  /** Why {@code header} is not the live user block {@code pointer} names (R3), or null if it is. */
  PointerProblem userBlockProblem(long header, long pointer, long offset, long segmentEnd) {
    if (BlockLayout.isFree(header)) {
      return PointerProblem.DELETED;
    }
    if (BlockLayout.tag(header)
        != TagClock.seal(tagKey, Pointers.tag(pointer), Pointers.addressOf(pointer))) {
      return PointerProblem.TAG_MISMATCH;
    }
    if (BlockLayout.isTarget(header)) {
      return PointerProblem.NOT_A_BLOCK_START;
    }
    long size = BlockLayout.sizeGranules(header);
    if (size < BlockLayout.MIN_BLOCK_GRANULES || offset + (size << GRANULE_SHIFT) > segmentEnd) {
      return PointerProblem.SIZE_OUT_OF_RANGE;
    }
    return null;
  }

  /**
   * Why the block at {@code offset} of {@code segment} is not the live link target {@code target}
   * names, in words for a corruption message; null if it is.
   */
  String targetProblem(NativeSegment segment, long offset, long target) {
    MemorySegment memory = segment.memory();
    if (offset < SEGMENT_HEADER_BYTES || offset + BlockLayout.MIN_BLOCK_BYTES > memory.byteSize()) {
      return "target offset out of range";
    }
    long damaged = pages.damagedPage(segment, offset, HEADER_BYTES);
    if (damaged >= 0) {
      return "target page " + damaged + " is damaged";
    }
    long header = memory.get(WORD, offset);
    if (BlockLayout.isFree(header) || !BlockLayout.isTarget(header)) {
      return "target is not a live link target";
    }
    if (BlockLayout.tag(header)
        != TagClock.seal(tagKey, Pointers.tag(target), Pointers.addressOf(target))) {
      return "target tag mismatch";
    }
    if (offset + BlockLayout.sizeBytes(header) > memory.byteSize()
        || BlockLayout.kind(header) == KIND_LINK) {
      return "target header corrupt";
    }
    return null;
  }

  /**
   * The exception for {@code pointer}, whose block has {@code problem}: the foreign-pointer one if
   * its tag says it was never this pile's, else the problem's own.
   */
  PointerException pointerProblem(long pointer, PointerProblem problem) {
    PointerProblem foreign = foreignProblem(pointer);
    return foreign != null ? foreignPointer(pointer, foreign) : problem.exception(pointer);
  }

  /**
   * The problem of {@code pointer} if it cannot be one this pile handed out, as far as its tag
   * tells: tag 0, or a tag the clock never reached. Null if it may be one.
   */
  private PointerProblem foreignProblem(long pointer) {
    int tag = Pointers.tag(pointer);
    if (tag == 0) {
      return PointerProblem.TAG_ZERO;
    }
    if (!tags.handedOut(tag)) {
      return PointerProblem.TAG_NEVER_HANDED_OUT;
    }
    return null;
  }

  private static PointerException foreignPointer(long pointer, PointerProblem problem) {
    return problem == PointerProblem.TAG_NEVER_HANDED_OUT
        ? problem.exception(pointer, Pointers.tag(pointer))
        : problem.exception(pointer);
  }

  // =========================================================================================
  // copy targets

  /**
   * Where a copying read puts the payload, and what the attempt found: its length, and whether it
   * fit the destination and was copied. The attempt that validates writes them last, so after the
   * read they are its (R1). One of each kind per thread ({@link CopyTargets}); a read aims it at
   * the caller's memory and drops that reference after.
   */
  private static class CopyTarget {
    int length;
    boolean fitted;

    CopyTarget measure(int length) {
      this.length = length;
      this.fitted = true;
      return this;
    }
  }

  private static final class ArrayTarget extends CopyTarget {
    byte[] array;
    int offset;

    ArrayTarget take(MemorySegment memory, long at, int length) {
      this.length = length;
      fitted = length <= array.length - offset;
      if (fitted) {
        MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, at, array, offset, length);
      }
      return this;
    }
  }

  private static final class BufferTarget extends CopyTarget {
    ByteBuffer buffer;

    BufferTarget take(MemorySegment memory, long at, int length) {
      this.length = length;
      fitted = length <= buffer.remaining();
      if (fitted) {
        MemorySegment.copy(memory, at, MemorySegment.ofBuffer(buffer), 0, length);
      }
      return this;
    }
  }

  private static final class SegmentTarget extends CopyTarget {
    MemorySegment segment;

    SegmentTarget take(MemorySegment memory, long at, int length) {
      this.length = length;
      fitted = length <= segment.byteSize();
      if (fitted) {
        MemorySegment.copy(memory, at, segment, 0, length);
      }
      return this;
    }
  }

  /** A thread's copy targets, and its staging memory for {@link #transferTo}. */
  private static final class CopyTargets extends ThreadStatePadding {
    final ArrayTarget array = new ArrayTarget();
    final BufferTarget buffer = new BufferTarget();
    final SegmentTarget segment = new SegmentTarget();
    final CopyTarget length = new CopyTarget();
    private MemorySegment staging;

    MemorySegment staging() {
      if (staging == null) { // native memory, freed once the thread and its targets are gone
        staging = Arena.ofAuto().allocate(STAGING_BYTES);
      }
      return staging;
    }
  }
}
