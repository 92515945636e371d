package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Names and small formats of a persistent pile's directory: the superblock payload, the
 * segment file header and the checkpoint metadata file. See docs/FORMAT.md, "Persistent pile".
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

  static final long SEGMENT_MAGIC = magic("CAIRN-SG");
  static final long META_MAGIC = magic("CAIRN-PM");

  /** Segment header: Magic:u64, Version:u32, Index:u32, SegmentBytes:u64, Zero[36], Crc32c:u32. */
  static final int SEGMENT_CRC_OFFSET = 60;

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
        ? segmentIndexOf(file.resolveSibling(name.replace(".crc", ".dat"))) : -1;
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
    memory.asSlice(0, BlockLayout.SEGMENT_HEADER_BYTES).fill((byte) 0);
    memory.set(Journal.U64, 0, SEGMENT_MAGIC);
    memory.set(Journal.U32, 8, FORMAT_VERSION);
    memory.set(Journal.U32, 12, segment.index());
    memory.set(Journal.U64, 16, memory.byteSize());
    memory.set(Journal.U32, SEGMENT_CRC_OFFSET, crc(memory.asSlice(0, SEGMENT_CRC_OFFSET)));
  }

  /** Checks a mapped segment's header against what the metadata says it is. */
  static void checkSegmentHeader(Path file, MemorySegment memory, int index, long segmentBytes) {
    long magic = memory.get(Journal.U64, 0);
    if (magic != SEGMENT_MAGIC) {
      throw new CorruptFileException(file, 0, magic == 0
          ? "segment header is zero (the file was never written by a checkpoint)"
          : "not a Cairn segment file (magic 0x" + Long.toHexString(magic) + ")");
    }
    // the checksum before any field it covers: a damaged version byte is damage, not a file of
    // a newer Cairn
    int stored = memory.get(Journal.U32, SEGMENT_CRC_OFFSET);
    if (stored != crc(memory.asSlice(0, SEGMENT_CRC_OFFSET))) {
      throw new CorruptFileException(file, SEGMENT_CRC_OFFSET, "segment header checksum mismatch:"
          + " the file's first " + SEGMENT_CRC_OFFSET + " bytes were damaged on disk");
    }
    int version = memory.get(Journal.U32, 8);
    if (version != FORMAT_VERSION) {
      throw new FormatVersionException(file, version, FORMAT_VERSION);
    }
    if (memory.get(Journal.U32, 12) != index || memory.get(Journal.U64, 16) != segmentBytes) {
      throw new CorruptFileException(file, 12, "segment header names index "
          + memory.get(Journal.U32, 12) + " and size " + memory.get(Journal.U64, 16)
          + ", expected index " + index + " and size " + segmentBytes);
    }
  }

  // ---------------------------------------------------------------------------------------
  // page checksums

  static final long PAGE_CRC_MAGIC = magic("CAIRN-PC");
  static final int PAGE_CRC_HEADER_BYTES = 24;

  /** Where the page checksum file's header keeps the CRC32C of the header bytes before it. */
  static final int PAGE_CRC_HEADER_CRC_OFFSET = 20;

  /**
   * The header of a page checksum file; the CRC32C of page {@code p} follows at {@link
   * #pageCrcOffset}.
   *
   * <pre>
   * PageCrcFile --> Magic:u64 ("CAIRN-PC"), Version:u32, Segment:u32, PageCount:u32,
   *                 HeaderCrc32c:u32 (of the 20 bytes before it),
   *                 Crc32c:u32 ^ PageCount          each of one 4 KiB page of the segment file
   * </pre>
   */
  static MemorySegment pageCrcHeader(int index, long pages) {
    MemorySegment header = MemorySegment.ofArray(new byte[PAGE_CRC_HEADER_BYTES]);
    header.set(Journal.U64, 0, PAGE_CRC_MAGIC);
    header.set(Journal.U32, 8, FORMAT_VERSION);
    header.set(Journal.U32, 12, index);
    header.set(Journal.U32, 16, (int) pages);
    header.set(Journal.U32, PAGE_CRC_HEADER_CRC_OFFSET,
        crc(header.asSlice(0, PAGE_CRC_HEADER_CRC_OFFSET)));
    return header;
  }

  static long pageCrcOffset(long page) {
    return PAGE_CRC_HEADER_BYTES + 4 * page;
  }

  static void checkPageCrcHeader(Path file, MemorySegment bytes, int index, long pages) {
    if (bytes.get(Journal.U64, 0) != PAGE_CRC_MAGIC) {
      throw new CorruptFileException(file, 0, "not a Cairn page checksum file (magic 0x"
          + Long.toHexString(bytes.get(Journal.U64, 0)) + ")");
    }
    if (bytes.get(Journal.U32, PAGE_CRC_HEADER_CRC_OFFSET)
        != crc(bytes.asSlice(0, PAGE_CRC_HEADER_CRC_OFFSET))) {
      throw new CorruptFileException(file, PAGE_CRC_HEADER_CRC_OFFSET, "page checksum file"
          + " header checksum mismatch: its first " + PAGE_CRC_HEADER_CRC_OFFSET + " bytes were"
          + " damaged on disk");
    }
    int version = bytes.get(Journal.U32, 8);
    if (version != FORMAT_VERSION) {
      throw new FormatVersionException(file, version, FORMAT_VERSION);
    }
    if (bytes.get(Journal.U32, 12) != index || bytes.get(Journal.U32, 16) != pages) {
      throw new CorruptFileException(file, 12, "page checksum header names segment "
          + bytes.get(Journal.U32, 12) + " of " + bytes.get(Journal.U32, 16)
          + " pages, expected segment " + index + " of " + pages);
    }
  }

  // ---------------------------------------------------------------------------------------
  // superblock payload

  /**
   * What the superblock's payload holds: the pile's fixed geometry, its tag key, and which
   * metadata file the checkpoint wrote.
   *
   * <pre>
   * Geometry --> Version:u32, Stripes:u32, SegmentBytes:u64, TagKey:u64,
   *              MetaSlot:u32, MetaLength:u32, MetaCrc32c:u32, Flags:u32, CheckpointMillis:u64,
   *              [TagBound:u64, [TagOrigin:u64]]
   * </pre>
   *
   * <p>{@code TagBound} is not part of the record: the store adds it to every payload it writes
   * ({@link #withTagBound}), and files of earlier builds end before it (read as 0, "none").
   * {@code TagOrigin} is where the pile's tag clock started, a random value in [1, 2^23) chosen
   * at creation (0, or absent in files of earlier builds: unknown).
   */
  record Geometry(
      int stripes, long segmentBytes, long tagKey, int metaSlot, int metaLength, int metaCrc,
      long checkpointMillis, long tagOrigin) {
    /** The bytes every payload has; TagBound and TagOrigin follow in files of this build. */
    static final int BYTES = 48;
    static final int TAG_ORIGIN_OFFSET = BYTES + 8;
    static final int ENCODED_BYTES = TAG_ORIGIN_OFFSET + 8;

    byte[] encode() {
      MemorySegment out = MemorySegment.ofArray(new byte[ENCODED_BYTES]);
      out.set(Journal.U32, 0, FORMAT_VERSION);
      out.set(Journal.U32, 4, stripes);
      out.set(Journal.U64, 8, segmentBytes);
      out.set(Journal.U64, 16, tagKey);
      out.set(Journal.U32, 24, metaSlot);
      out.set(Journal.U32, 28, metaLength);
      out.set(Journal.U32, 32, metaCrc);
      out.set(Journal.U64, 40, checkpointMillis);
      out.set(Journal.U64, TAG_ORIGIN_OFFSET, tagOrigin);
      return (byte[]) out.heapBase().orElseThrow(() -> new IllegalStateException(
          "a segment of a byte[] has that array as its heap base"));
    }

    static Geometry decode(Path file, byte[] payload) {
      if (payload.length < BYTES) {
        throw new CorruptFileException(file, 40, "superblock payload too short for a pile: "
            + payload.length + " bytes");
      }
      MemorySegment in = MemorySegment.ofArray(payload);
      int version = in.get(Journal.U32, 0);
      if (version != FORMAT_VERSION) {
        throw new FormatVersionException(file, version, FORMAT_VERSION);
      }
      long tagOrigin = payload.length >= ENCODED_BYTES ? in.get(Journal.U64, TAG_ORIGIN_OFFSET) : 0;
      Geometry geometry = new Geometry(in.get(Journal.U32, 4), in.get(Journal.U64, 8),
          in.get(Journal.U64, 16), in.get(Journal.U32, 24), in.get(Journal.U32, 28),
          in.get(Journal.U32, 32), in.get(Journal.U64, 40), tagOrigin);
      int stripes = geometry.stripes;
      long segmentBytes = geometry.segmentBytes;
      if (stripes < 1 || stripes > 1024 || Integer.bitCount(stripes) != 1
          || segmentBytes < PileOptions.MIN_SEGMENT_BYTES
          || segmentBytes > PileOptions.MAX_SEGMENT_BYTES || Long.bitCount(segmentBytes) != 1
          || (geometry.metaSlot & ~1) != 0 || geometry.metaLength < 0
          || tagOrigin < 0 || tagOrigin > Pointers.TAG_MASK) {
        throw new CorruptFileException(file, 40, "superblock payload out of range: " + geometry);
      }
      return geometry;
    }

    Geometry withMeta(int slot, int length, int crc, long millis) {
      return new Geometry(stripes, segmentBytes, tagKey, slot, length, crc, millis, tagOrigin);
    }

    /** Where the optional TagBound field lives in the payload. */
    static final int TAG_BOUND_OFFSET = BYTES;

    /**
     * {@code payload} (a superblock payload) with its TagBound set to {@code bound}: every tag
     * clock value the pile has handed out is below it. A payload of an earlier build is
     * lengthened to hold it.
     */
    static byte[] withTagBound(byte[] payload, long bound) {
      byte[] out = Arrays.copyOf(payload, Math.max(payload.length, TAG_BOUND_OFFSET + 8));
      MemorySegment.ofArray(out).set(Journal.U64, TAG_BOUND_OFFSET, bound);
      return out;
    }

    /** The TagBound of a superblock payload; 0 if it has none (a file of an earlier build). */
    static long tagBoundOf(Path file, byte[] payload) {
      if (payload.length < TAG_BOUND_OFFSET + 8) {
        return 0;
      }
      long bound = MemorySegment.ofArray(payload).get(Journal.U64, TAG_BOUND_OFFSET);
      if (bound < 0 || bound > Stripe.MAX_TAG_CLOCK) {
        throw new CorruptFileException(file, 40 + TAG_BOUND_OFFSET,
            "superblock payload has an invalid tag bound: " + bound);
      }
      return bound;
    }
  }

  // ---------------------------------------------------------------------------------------
  // checkpoint metadata

  /**
   * Bytes of a metadata file for {@code tableCount} segments and {@code stripes} stripes.
   *
   * <pre>
   * MetaFile --> Magic:u64 ("CAIRN-PM"), Version:u32, Stripes:u32, SegmentBytes:u64,
   *              CheckpointLsn:u64, TableCount:u32, Zero:u32,
   *              (Segment:u32, Owner:u32)^TableCount,                 owner = stripe + 1
   *              (StripeState[80], Head:u64 ^ SizeClasses.COUNT)^Stripes,
   *              Crc32c:u32                                         of all bytes before it
   * </pre>
   */
  static long metaBytes(int tableCount, int stripes) {
    return META_HEADER_BYTES + 8L * tableCount + (long) stripes * META_STRIPE_BYTES + 4;
  }

  static final int META_HEADER_BYTES = 40;
  static final int META_STRIPE_BYTES = Stripe.STATE_BYTES + 8 * SizeClasses.COUNT;
}
