package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Names and small formats of a persistent pile's directory: the superblock payload ({@link
 * PilePayloadLayout}), the segment file header ({@link SegmentHeaderLayout}) and the page checksum
 * file ({@link PageCrcLayout}); the metadata file is {@link MetaLayout}'s. See docs/FORMAT.md,
 * "Persistent pile".
 *
 * <pre>
 * directory/
 *   cairn.lock          the owner's lock (DirectoryLock)
 *   pile.sb             superblock: two 4 KiB slots; its payload is {@link Geometry}
 *   pile-meta.0, .1     checkpoint metadata, written alternately: segment table, stripe state
 *   seg-NNNNN.dat       one file per segment, NNNNN its index
 *   wal/                the write-ahead log (absent while the pile never ran with a log)
 * </pre>
 */
final class PileFiles {
  static final String SUPERBLOCK = "pile.sb";
  static final String LOG_DIRECTORY = "wal";
  static final int FORMAT_VERSION = 1;

  private PileFiles() {}

  static Path segmentFile(Path directory, int index) {
    return directory.resolve(segmentName(index, ".dat"));
  }

  /**
   * {@code seg-NNNNN} and the suffix: the index zero-padded to five digits (indexes stay below
   * {@link Pointers#MAX_SEGMENTS}). Built by hand because a checkpoint names two files per dirty
   * segment, and {@code String.format} parses its pattern each time.
   */
  private static String segmentName(int index, String suffix) {
    String digits = Integer.toString(index);
    return "seg-" + "00000".substring(Math.min(5, digits.length())) + digits + suffix;
  }

  /** The segment index a file name stands for, or -1 if it names no segment file. */
  static int segmentIndexOf(Path file) {
    String name = file.getFileName().toString();
    if (!name.startsWith("seg-") || !name.endsWith(".dat") || name.length() != 13) {
      return -1;
    }
    try {
      return Integer.parseInt(name.substring(4, 9));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The page checksums of segment {@code index}: {@code seg-NNNNN.crc}. */
  static Path pageCrcFile(Path directory, int index) {
    return directory.resolve(segmentName(index, ".crc"));
  }

  /** The segment index a page checksum file stands for, or -1. */
  static int pageCrcIndexOf(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".crc")
        ? segmentIndexOf(file.resolveSibling(name.replace(".crc", ".dat")))
        : -1;
  }

  static Path metaFile(Path directory, int slot) {
    return directory.resolve("pile-meta." + slot);
  }

  static long magic(String text) {
    return MemorySegment.ofArray(text.getBytes(StandardCharsets.US_ASCII))
        .get(Journal.U64.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
  }

  static int crc(MemorySegment bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.asByteBuffer());
    return (int) crc.getValue();
  }

  // ---------------------------------------------------------------------------------------
  // segment header

  static void writeSegmentHeader(NativeSegment segment) {
    MemorySegment memory = segment.memory();
    memory.asSlice(0, SegmentHeaderLayout.HEADER_BYTES).fill((byte) 0);
    memory.set(Journal.U64, SegmentHeaderLayout.MAGIC_OFFSET, SegmentHeaderLayout.MAGIC);
    memory.set(
        Journal.U32, SegmentHeaderLayout.VERSION_OFFSET, SegmentHeaderLayout.VERSION_CURRENT);
    memory.set(Journal.U32, SegmentHeaderLayout.INDEX_OFFSET, segment.index());
    memory.set(Journal.U64, SegmentHeaderLayout.SEGMENT_BYTES_OFFSET, memory.byteSize());
    memory.set(
        Journal.U32,
        SegmentHeaderLayout.CRC_OFFSET,
        crc(memory.asSlice(0, SegmentHeaderLayout.CRC_OFFSET)));
  }

  /** Checks a mapped segment's header against what the metadata says it is. */
  static void checkSegmentHeader(Path file, MemorySegment memory, int index, long segmentBytes) {
    long magic = memory.get(Journal.U64, SegmentHeaderLayout.MAGIC_OFFSET);
    if (magic != SegmentHeaderLayout.MAGIC) {
      throw new CorruptFileException(
          file,
          SegmentHeaderLayout.MAGIC_OFFSET,
          magic == 0
              ? "segment header is zero (the file was never written by a checkpoint)"
              : "not a Cairn segment file (magic 0x" + Long.toHexString(magic) + ")");
    }
    // the checksum before any field it covers: a damaged version byte is damage, not a file of
    // a newer Cairn
    int crcOffset = SegmentHeaderLayout.CRC_OFFSET;
    if (memory.get(Journal.U32, crcOffset) != crc(memory.asSlice(0, crcOffset))) {
      throw new CorruptFileException(
          file,
          crcOffset,
          "segment header checksum mismatch:"
              + " the file's first "
              + crcOffset
              + " bytes were damaged on disk");
    }
    int version = memory.get(Journal.U32, SegmentHeaderLayout.VERSION_OFFSET);
    if (version != SegmentHeaderLayout.VERSION_CURRENT) {
      throw new FormatVersionException(file, version, SegmentHeaderLayout.VERSION_CURRENT);
    }
    int storedIndex = memory.get(Journal.U32, SegmentHeaderLayout.INDEX_OFFSET);
    long storedBytes = memory.get(Journal.U64, SegmentHeaderLayout.SEGMENT_BYTES_OFFSET);
    if (storedIndex != index || storedBytes != segmentBytes) {
      throw new CorruptFileException(
          file,
          SegmentHeaderLayout.INDEX_OFFSET,
          "segment header"
              + " names index "
              + storedIndex
              + " and size "
              + storedBytes
              + ", expected index "
              + index
              + " and size "
              + segmentBytes);
    }
  }

  // ---------------------------------------------------------------------------------------
  // page checksums

  /** The header of a page checksum file (see {@link PageCrcLayout}). */
  static MemorySegment pageCrcHeader(int index, long pages) {
    MemorySegment header = MemorySegment.ofArray(new byte[PageCrcLayout.HEADER_BYTES]);
    header.set(Journal.U64, PageCrcLayout.MAGIC_OFFSET, PageCrcLayout.MAGIC);
    header.set(Journal.U32, PageCrcLayout.VERSION_OFFSET, PageCrcLayout.VERSION_CURRENT);
    header.set(Journal.U32, PageCrcLayout.SEGMENT_OFFSET, index);
    header.set(Journal.U32, PageCrcLayout.PAGE_COUNT_OFFSET, (int) pages);
    header.set(
        Journal.U32,
        PageCrcLayout.HEADER_CRC_OFFSET,
        crc(header.asSlice(0, PageCrcLayout.HEADER_CRC_OFFSET)));
    return header;
  }

  static long pageCrcOffset(long page) {
    return PageCrcLayout.pageCrcOffset(page);
  }

  static void checkPageCrcHeader(Path file, MemorySegment bytes, int index, long pages) {
    long magic = bytes.get(Journal.U64, PageCrcLayout.MAGIC_OFFSET);
    if (magic != PageCrcLayout.MAGIC) {
      throw new CorruptFileException(
          file,
          PageCrcLayout.MAGIC_OFFSET,
          "not a Cairn page" + " checksum file (magic 0x" + Long.toHexString(magic) + ")");
    }
    int crcOffset = PageCrcLayout.HEADER_CRC_OFFSET;
    if (bytes.get(Journal.U32, crcOffset) != crc(bytes.asSlice(0, crcOffset))) {
      throw new CorruptFileException(
          file,
          crcOffset,
          "page checksum file header checksum"
              + " mismatch: its first "
              + crcOffset
              + " bytes were damaged on disk");
    }
    int version = bytes.get(Journal.U32, PageCrcLayout.VERSION_OFFSET);
    if (version != PageCrcLayout.VERSION_CURRENT) {
      throw new FormatVersionException(file, version, PageCrcLayout.VERSION_CURRENT);
    }
    int storedSegment = bytes.get(Journal.U32, PageCrcLayout.SEGMENT_OFFSET);
    int storedPages = bytes.get(Journal.U32, PageCrcLayout.PAGE_COUNT_OFFSET);
    if (storedSegment != index || storedPages != pages) {
      throw new CorruptFileException(
          file,
          PageCrcLayout.SEGMENT_OFFSET,
          "page checksum header"
              + " names segment "
              + storedSegment
              + " of "
              + storedPages
              + " pages, expected segment "
              + index
              + " of "
              + pages);
    }
  }

  // ---------------------------------------------------------------------------------------
  // superblock payload

  /**
   * What the superblock's payload holds ({@link PilePayloadLayout}): the pile's fixed geometry, its
   * tag key, where its tag clock started ({@code tagOrigin}, a random value in [1, 2^23) chosen at
   * creation) and which metadata file the checkpoint wrote. The payload's TagBound is not part of
   * the record: the store sets it in every payload it writes ({@link #withTagBound}).
   */
  record Geometry(
      int stripes,
      long segmentBytes,
      long tagKey,
      int metaSlot,
      int metaLength,
      int metaCrc,
      long checkpointMillis,
      long tagOrigin) {

    byte[] encode() {
      MemorySegment out = MemorySegment.ofArray(new byte[PilePayloadLayout.PAYLOAD_BYTES]);
      out.set(Journal.U32, PilePayloadLayout.VERSION_OFFSET, PilePayloadLayout.VERSION_CURRENT);
      out.set(Journal.U32, PilePayloadLayout.STRIPES_OFFSET, stripes);
      out.set(Journal.U64, PilePayloadLayout.SEGMENT_BYTES_OFFSET, segmentBytes);
      out.set(Journal.U64, PilePayloadLayout.TAG_KEY_OFFSET, tagKey);
      out.set(Journal.U32, PilePayloadLayout.META_SLOT_OFFSET, metaSlot);
      out.set(Journal.U32, PilePayloadLayout.META_LENGTH_OFFSET, metaLength);
      out.set(Journal.U32, PilePayloadLayout.META_CRC_OFFSET, metaCrc);
      out.set(Journal.U64, PilePayloadLayout.CHECKPOINT_MILLIS_OFFSET, checkpointMillis);
      out.set(Journal.U64, PilePayloadLayout.TAG_ORIGIN_OFFSET, tagOrigin);
      return (byte[])
          out.heapBase()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "a segment of a byte[] has that array as its heap base"));
    }

    static Geometry decode(Path file, byte[] payload) {
      if (payload.length < PilePayloadLayout.PAYLOAD_BYTES) {
        throw new CorruptFileException(
            file,
            dev.cairn.durability.file.SuperblockLayout.PAYLOAD_OFFSET,
            "superblock payload too short for a pile: "
                + payload.length
                + " bytes, expected "
                + PilePayloadLayout.PAYLOAD_BYTES);
      }
      MemorySegment in = MemorySegment.ofArray(payload);
      int version = in.get(Journal.U32, PilePayloadLayout.VERSION_OFFSET);
      if (version != PilePayloadLayout.VERSION_CURRENT) {
        throw new FormatVersionException(file, version, PilePayloadLayout.VERSION_CURRENT);
      }
      Geometry geometry =
          new Geometry(
              in.get(Journal.U32, PilePayloadLayout.STRIPES_OFFSET),
              in.get(Journal.U64, PilePayloadLayout.SEGMENT_BYTES_OFFSET),
              in.get(Journal.U64, PilePayloadLayout.TAG_KEY_OFFSET),
              in.get(Journal.U32, PilePayloadLayout.META_SLOT_OFFSET),
              in.get(Journal.U32, PilePayloadLayout.META_LENGTH_OFFSET),
              in.get(Journal.U32, PilePayloadLayout.META_CRC_OFFSET),
              in.get(Journal.U64, PilePayloadLayout.CHECKPOINT_MILLIS_OFFSET),
              in.get(Journal.U64, PilePayloadLayout.TAG_ORIGIN_OFFSET));
      int stripes = geometry.stripes;
      long segmentBytes = geometry.segmentBytes;
      long tagOrigin = geometry.tagOrigin;
      if (stripes < 1
          || stripes > 1024
          || Integer.bitCount(stripes) != 1
          || segmentBytes < PileOptions.MIN_SEGMENT_BYTES
          || segmentBytes > PileOptions.MAX_SEGMENT_BYTES
          || Long.bitCount(segmentBytes) != 1
          || (geometry.metaSlot & ~1) != 0
          || geometry.metaLength < 0
          || tagOrigin < 1
          || tagOrigin > Pointers.TAG_MASK) {
        throw new CorruptFileException(
            file,
            dev.cairn.durability.file.SuperblockLayout.PAYLOAD_OFFSET,
            "superblock payload out of range: " + geometry);
      }
      return geometry;
    }

    Geometry withMeta(int slot, int length, int crc, long millis) {
      return new Geometry(stripes, segmentBytes, tagKey, slot, length, crc, millis, tagOrigin);
    }

    /**
     * {@code payload} (a superblock payload) with its TagBound set to {@code bound}: every tag
     * clock value the pile has handed out is below it.
     */
    static byte[] withTagBound(byte[] payload, long bound) {
      byte[] out = payload.clone();
      MemorySegment.ofArray(out).set(Journal.U64, PilePayloadLayout.TAG_BOUND_OFFSET, bound);
      return out;
    }

    /** The TagBound of a superblock payload ({@link #decode} checked its length). */
    static long tagBoundOf(Path file, byte[] payload) {
      long bound =
          MemorySegment.ofArray(payload).get(Journal.U64, PilePayloadLayout.TAG_BOUND_OFFSET);
      if (bound < 0 || bound > Stripe.MAX_TAG_CLOCK) {
        throw new CorruptFileException(
            file,
            dev.cairn.durability.file.SuperblockLayout.PAYLOAD_OFFSET
                + PilePayloadLayout.TAG_BOUND_OFFSET,
            "superblock payload has an invalid tag bound: " + bound);
      }
      return bound;
    }

    /** The Flags word of a superblock payload. */
    static int flagsOf(byte[] payload) {
      return MemorySegment.ofArray(payload).get(Journal.U32, PilePayloadLayout.FLAGS_OFFSET);
    }

    /** {@code payload} with its Flags word set to {@code flags}, in place. */
    static byte[] withFlags(byte[] payload, int flags) {
      MemorySegment.ofArray(payload).set(Journal.U32, PilePayloadLayout.FLAGS_OFFSET, flags);
      return payload;
    }
  }
}
