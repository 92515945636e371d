package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.memory.NativeSegment;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * What a checkpoint captured under all locks: the encoded metadata file (segment table, every
 * stripe's counters and free-list heads; layout in {@link MetaLayout}), the segments to write with
 * their owners, and the segments retired before it, to release once it is durable.
 */
final class MetaImage {
  private final MemorySegment bytes;
  private final NativeSegment[] segments;
  private final Stripe[] owners;
  private final List<NativeSegment> releasable;
  private long logEndAtCapture;

  private MetaImage(
      MemorySegment bytes,
      NativeSegment[] segments,
      Stripe[] owners,
      List<NativeSegment> releasable) {
    this.bytes = bytes;
    this.segments = segments;
    this.owners = owners;
    this.releasable = releasable;
  }

  /**
   * Encodes the state of {@code stripes}; the caller holds every stripe lock and the table lock,
   * and passes the segments in table order.
   */
  static MetaImage capture(
      Stripe[] stripes,
      NativeSegment[] segments,
      Stripe[] owners,
      long segmentBytes,
      long checkpointLsn,
      List<NativeSegment> releasable,
      byte[] roots,
      byte[] states) {
    MemorySegment out =
        header(
            segments.length,
            stripes.length,
            segmentBytes,
            checkpointLsn,
            roots.length,
            states.length);
    long at = MetaLayout.HEADER_BYTES;
    for (int i = 0; i < segments.length; i++, at += MetaLayout.TABLE_ENTRY_BYTES) {
      out.set(Journal.U32, at, segments[i].index());
      out.set(Journal.U32, at + MetaLayout.TABLE_OWNER_OFFSET, owners[i].id + 1);
    }
    for (Stripe stripe : stripes) {
      stripe.writeState(out, at);
      for (int c = 0; c < SizeClasses.COUNT; c++) {
        out.set(Journal.U64, at + Stripe.STATE_BYTES + 8L * c, stripe.listHead(c));
      }
      at += MetaLayout.STRIPE_BYTES;
    }
    MemorySegment.copy(MemorySegment.ofArray(roots), 0, out, at, roots.length);
    MemorySegment.copy(MemorySegment.ofArray(states), 0, out, at + roots.length, states.length);
    seal(out);
    return new MetaImage(out, segments, owners, releasable);
  }

  /** The metadata of a new pile: no segments, every stripe empty. */
  static MemorySegment empty(int stripes, long segmentBytes) {
    MemorySegment out = header(0, stripes, segmentBytes, 0, 0, 0);
    long at = MetaLayout.HEADER_BYTES;
    for (int s = 0; s < stripes; s++, at += MetaLayout.STRIPE_BYTES) {
      out.set(Journal.U64, at, -1); // no bump segment
      // TagClock stays 0: the stripe takes its first tags from the pile's clock
      for (int c = 0; c < SizeClasses.COUNT; c++) {
        out.set(Journal.U64, at + Stripe.STATE_BYTES + 8L * c, Pointers.NIL);
      }
    }
    seal(out);
    return out;
  }

  private static MemorySegment header(
      int tableCount,
      int stripes,
      long segmentBytes,
      long checkpointLsn,
      int rootsBytes,
      int statesBytes) {
    MemorySegment out =
        MemorySegment.ofArray(
            new byte[(int) MetaLayout.fileBytes(tableCount, stripes, rootsBytes, statesBytes)]);
    out.set(Journal.U64, MetaLayout.MAGIC_OFFSET, MetaLayout.MAGIC);
    out.set(Journal.U32, MetaLayout.VERSION_OFFSET, MetaLayout.VERSION_CURRENT);
    out.set(Journal.U32, MetaLayout.STRIPES_OFFSET, stripes);
    out.set(Journal.U64, MetaLayout.SEGMENT_BYTES_OFFSET, segmentBytes);
    out.set(Journal.U64, MetaLayout.CHECKPOINT_LSN_OFFSET, checkpointLsn);
    out.set(Journal.U32, MetaLayout.TABLE_COUNT_OFFSET, tableCount);
    out.set(Journal.U32, MetaLayout.ROOTS_BYTES_OFFSET, rootsBytes);
    out.set(Journal.U32, MetaLayout.STATES_BYTES_OFFSET, statesBytes);
    return out;
  }

  private static void seal(MemorySegment out) {
    long end = out.byteSize() - MetaLayout.CRC_LENGTH;
    out.set(Journal.U32, end, PileFiles.crc(out.asSlice(0, end)));
  }

  /** Checks a metadata file read back: kind, version, geometry and size. */
  static void check(Path file, MemorySegment in, PileFiles.Geometry geometry, long checkpointLsn) {
    if (in.byteSize() < MetaLayout.HEADER_BYTES + MetaLayout.CRC_LENGTH) {
      throw new CorruptFileException(file, 0, "metadata file too short: " + in.byteSize());
    }
    if (in.get(Journal.U64, MetaLayout.MAGIC_OFFSET) != MetaLayout.MAGIC) {
      throw new FormatVersionException(
          file, "not a Cairn pile metadata file", MetaLayout.VERSION_CURRENT);
    }
    int version = in.get(Journal.U32, MetaLayout.VERSION_OFFSET);
    if (version != MetaLayout.VERSION_CURRENT) {
      throw new FormatVersionException(file, version, MetaLayout.VERSION_CURRENT);
    }
    int stripes = in.get(Journal.U32, MetaLayout.STRIPES_OFFSET);
    long segmentBytes = in.get(Journal.U64, MetaLayout.SEGMENT_BYTES_OFFSET);
    int tableCount = in.get(Journal.U32, MetaLayout.TABLE_COUNT_OFFSET);
    int rootsBytes = in.get(Journal.U32, MetaLayout.ROOTS_BYTES_OFFSET);
    int statesBytes = in.get(Journal.U32, MetaLayout.STATES_BYTES_OFFSET);
    if (stripes != geometry.stripes()
        || segmentBytes != geometry.segmentBytes()
        || tableCount < 0
        || tableCount > Pointers.MAX_SEGMENTS
        || rootsBytes < 0
        || rootsBytes > RootDirectory.MAX_SECTION_BYTES
        || statesBytes < 0
        || statesBytes > ParticipantRegistry.MAX_SECTION_BYTES
        || MetaLayout.fileBytes(tableCount, stripes, rootsBytes, statesBytes) != in.byteSize()) {
      throw new CorruptFileException(
          file,
          MetaLayout.STRIPES_OFFSET,
          "metadata does not match"
              + " the superblock: stripes="
              + stripes
              + " segmentBytes="
              + segmentBytes
              + " segments="
              + tableCount
              + " rootsBytes="
              + rootsBytes
              + " statesBytes="
              + statesBytes
              + " bytes="
              + in.byteSize());
    }
    long metaLsn = in.get(Journal.U64, MetaLayout.CHECKPOINT_LSN_OFFSET);
    if (metaLsn != checkpointLsn) {
      throw new CorruptFileException(
          file,
          MetaLayout.CHECKPOINT_LSN_OFFSET,
          "metadata is of"
              + " checkpoint LSN "
              + metaLsn
              + ", the superblock's is "
              + checkpointLsn);
    }
    long at = MetaLayout.HEADER_BYTES;
    for (int i = 0; i < tableCount; i++, at += MetaLayout.TABLE_ENTRY_BYTES) {
      int index = in.get(Journal.U32, at);
      int owner = in.get(Journal.U32, at + MetaLayout.TABLE_OWNER_OFFSET);
      if (index < 0 || index >= Pointers.MAX_SEGMENTS || owner < 1 || owner > stripes) {
        throw new CorruptFileException(
            file, at, "segment table entry out of range: segment=" + index + " owner=" + owner);
      }
    }
  }

  /**
   * The log's end once the image was captured: every root and participant state in it was logged
   * before this, so the log must be durable up to it before the image is (WAL rule).
   */
  long logEndAtCapture() {
    return logEndAtCapture;
  }

  void logEndAtCapture(long lsn) {
    logEndAtCapture = lsn;
  }

  MemorySegment bytes() {
    return bytes;
  }

  int segmentCount() {
    return segments.length;
  }

  NativeSegment segment(int i) {
    return segments[i];
  }

  Stripe owner(int i) {
    return owners[i];
  }

  List<NativeSegment> releasable() {
    return releasable;
  }

  boolean anyDirty() {
    for (NativeSegment segment : segments) {
      if (!segment.hasFile() || segment.dirtyPageCount() > 0) {
        return true;
      }
    }
    return false;
  }
}
