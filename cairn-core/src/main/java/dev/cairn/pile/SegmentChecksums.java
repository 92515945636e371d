package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The page checksums of one segment file ({@code seg-NNNNN.crc}, see {@link PileFiles}) and the
 * file's own pages, for the {@link PageCheck} of a segment mapped at open: read only when the first
 * page of the segment is checked, so an open reads no checksum file.
 */
final class SegmentChecksums implements PageCheck.Source {
  private final FileLayer layer;
  private final Path segmentFile;
  private final Path crcFile;
  private final int index;
  private final long pages;

  SegmentChecksums(FileLayer layer, Path directory, int index, long segmentBytes) {
    this.layer = layer;
    this.segmentFile = PileFiles.segmentFile(directory, index);
    this.crcFile = PileFiles.pageCrcFile(directory, index);
    this.index = index;
    this.pages = segmentBytes / NativeSegment.PAGE_BYTES;
  }

  /**
   * @throws CorruptFileException if the checksum file is missing, truncated or of another segment
   */
  @Override
  public int[] recordedCrcs() throws IOException {
    MemorySegment bytes =
        MemorySegment.ofArray(new byte[Math.toIntExact(PileFiles.pageCrcOffset(pages))]);
    try (FileHandle in = layer.open(crcFile, FileLayer.OpenMode.READ)) {
      long read = in.read(bytes, 0);
      if (read < bytes.byteSize()) {
        throw new CorruptFileException(
            crcFile,
            read,
            "page checksum file truncated: "
                + read
                + " of "
                + bytes.byteSize()
                + " bytes; the pages of "
                + segmentFile.getFileName()
                + " cannot be checked, so none of its values is returned");
      }
    } catch (NoSuchFileException e) {
      throw new CorruptFileException(
          crcFile,
          0,
          "page checksum file missing: the pages of "
              + segmentFile.getFileName()
              + " cannot be checked, so none of its values is returned",
          e);
    }
    PileFiles.checkPageCrcHeader(crcFile, bytes, index, pages);
    int[] crcs = new int[(int) pages];
    // one bulk copy: this runs once per segment, so in the interpreter, where a get per page
    // costs more than the file's read
    MemorySegment.copy(bytes, Journal.U32, PileFiles.pageCrcOffset(0), crcs, 0, crcs.length);
    return crcs;
  }

  @Override
  public void fileCrcs(long firstPage, int[] crcs) throws IOException {
    long bytes = (long) crcs.length * NativeSegment.PAGE_BYTES;
    long position = firstPage * NativeSegment.PAGE_BYTES;
    try (Arena arena = Arena.ofConfined();
        FileHandle in = layer.open(segmentFile, FileLayer.OpenMode.READ)) {
      MemorySegment pages = arena.allocate(bytes, NativeSegment.PAGE_BYTES);
      long read = in.read(pages, position);
      if (read < bytes) {
        throw new CorruptFileException(
            segmentFile,
            position + read,
            "segment file truncated inside page " + (firstPage + read / NativeSegment.PAGE_BYTES));
      }
      // one checksum object and one buffer for the whole read, moved page by page: up to 256
      // pages, at a reopen's first reads, in code still interpreted
      CRC32C crc = new CRC32C();
      ByteBuffer buffer = pages.asByteBuffer();
      for (int i = 0; i < crcs.length; i++) {
        int at = i * NativeSegment.PAGE_BYTES;
        crc.reset();
        crc.update(buffer.limit(at + NativeSegment.PAGE_BYTES).position(at));
        crcs[i] = (int) crc.getValue();
      }
    }
  }

  /** The exception for a damaged page, as {@link Pile#verify()} reports it. */
  CorruptFileException damaged(long page) {
    return new CorruptFileException(
        segmentFile,
        page * NativeSegment.PAGE_BYTES,
        "page "
            + page
            + " does not match its checksum in "
            + crcFile.getFileName()
            + ": the file was damaged"
            + " on disk; values on this page raise CorruptValueException, the rest stay readable");
  }
}
