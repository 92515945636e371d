package dev.cairn.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.zip.CRC32C;

/**
 * Which pages of a segment mapped from a file have been checked against the CRC32C the file's last
 * checkpoint recorded for them, and the check itself: a reopened pile checks each page the first
 * time anything reads it, so the open stays instant and no read returns bytes of a page damaged on
 * disk.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * State per page: unchecked, checked (matched its checksum) or damaged (did not). A page only
 * ever goes from unchecked to one of the other two; the bits are set with atomic ORs, so
 * readers may test them with plain loads (a stale 0 only sends a reader to the slow path).
 *
 * I1 A page is checked against the bytes the file holds for it: read from the file (I5), or
 *    from the segment's memory while the pile has not written the page since the open (the
 *    private mapping shows the file), else from the file itself (Source.fileCrc). The file
 *    changes only at a checkpoint, and a checkpoint checks a page before it writes it, so an
 *    unchecked page's file bytes are those the open mapped.
 * I2 The caller of check/checkRange keeps the page's bytes from changing meanwhile: it holds
 *    the lock of the stripe owning the segment (every write to a segment's bytes holds it,
 *    but a region write: I4), or it is the only thread (recovery at open). The checkpoint
 *    copies a segment's pages under that lock and writes them to the file after each was
 *    checked, so no page of the segment reaches its file between a check's test that the page
 *    is unchecked and its read.
 * I3 When every page is checked the segment drops this object (NativeSegment.pageCheck() is
 *    then null), so a reopened pile that has read everything pays nothing more.
 * I4 A participant's region (a block it writes in place, without the owner's lock, marking
 *    the pages dirty only after the bytes change) reaches its writers only once every page it
 *    spans is checked, or trusted by a replay that rewrites it (the pile's Regions, RG2). So
 *    no check ever reads a region page from memory after a region write changed it, and a
 *    page's dirty mark still tells whether the memory may differ from the file (I1).
 * I5 The first EXACT_READS checks of a segment (the first reads after a reopen: a restarted
 *    cache's first hits) read from the file, in one request: a page's aligned window of
 *    WINDOW_PAGES (64 KiB), a range of up to MAX_READ_PAGES (1 MiB, an index shard's region)
 *    from its first unchecked page's window to its last's; they check the window's other pages
 *    too (I6) and leave all of them in the page cache, where the read that asked then finds its
 *    page. Why: a fault through the mapping reads the kernel's read-ahead window around the page
 *    (the disk's read_ahead_kb: 128 KiB on many machines, 8 MiB on some), which made the first
 *    get after a reopen read 16 MiB here. Later checks read through the mapping: by then reads
 *    are filling the page cache, which the kernel's read-around does in the largest, overlapped
 *    requests (when every check read windows of 64 KiB to 1 MiB from the file, the random gets
 *    that follow a reopen took longer: the cache bench's ReopenProbe).
 * I6 Of a window's other pages, one becomes checked if it matches; one that does not stays
 *    unchecked, and is found damaged only when a read asks for it: a page that a recovery after
 *    a cut checkpoint rewrites may rightly differ from its checksum, and trust() takes only a
 *    page not found damaged. A neighbour's state is tested after the read, so one checked (and
 *    so maybe rewritten) meanwhile is left as it is.
 * }</pre>
 *
 * <p>Thread-safety: the queries are safe from any thread; {@link #check}, {@link #checkRange} and
 * {@link #trust} require I2.
 */
public final class PageCheck {
  private static final VarHandle BITS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int PAGE_SHIFT = 12;

  /** The aligned window of pages an exact read of one page reads from the file (I5): 64 KiB. */
  public static final int WINDOW_PAGES = 16;

  /** The largest range an exact read reads from the file (I5): 1 MiB. */
  public static final int MAX_READ_PAGES = 256;

  /** The checks of a segment that read from the file (I5); later ones fault through the mapping. */
  public static final int EXACT_READS = 4;

  /** Where the recorded checksums and the file's own pages come from. */
  public interface Source {
    /** The recorded CRC32C of every page of the segment, in page order. */
    int[] recordedCrcs() throws IOException;

    /**
     * The CRC32C of each page from {@code firstPage} to {@code firstPage + crcs.length - 1} as the
     * segment's file holds it now, into {@code crcs}: the pages read from the file in one request.
     */
    void fileCrcs(long firstPage, int[] crcs) throws IOException;

    /** The CRC32C of page {@code page} as the segment's file holds it now. */
    default int fileCrc(long page) throws IOException {
      int[] crc = new int[1];
      fileCrcs(page, crc);
      return crc[0];
    }
  }

  private final NativeSegment segment;
  private final Source source;
  private final long pageCount;
  private final long[] checked;
  private final long[] damaged;
  private long unchecked; // guarded by this
  private int exactReads; // checks that read from the file so far (I5)
  private volatile int[] recorded; // loaded on first use

  /** Starts with every page of {@code segment} unchecked, and attaches itself to the segment. */
  public static PageCheck attach(NativeSegment segment, Source source) {
    PageCheck check = new PageCheck(segment, source);
    segment.setPageCheck(check);
    return check;
  }

  private PageCheck(NativeSegment segment, Source source) {
    this.segment = segment;
    this.source = source;
    this.pageCount = segment.sizeBytes() >>> PAGE_SHIFT;
    int words = (int) ((pageCount + 63) >>> 6);
    this.checked = new long[words];
    this.damaged = new long[words];
    this.unchecked = pageCount;
  }

  /** The page holding byte {@code offset} of the segment. */
  public static long pageOf(long offset) {
    return offset >>> PAGE_SHIFT;
  }

  /** Whether {@code page} was checked and matched. */
  public boolean isChecked(long page) {
    return (checked[(int) (page >>> 6)] & (1L << page)) != 0;
  }

  /** Whether {@code page} was checked and did not match. */
  public boolean isDamaged(long page) {
    return (damaged[(int) (page >>> 6)] & (1L << page)) != 0;
  }

  /** Whether every page of {@code [offset, offset + length)} was checked and matched. */
  public boolean allChecked(long offset, long length) {
    long last = pageOf(offset + Math.max(length, 1) - 1);
    for (long page = pageOf(offset); page <= last; page++) {
      if (!isChecked(page)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Checks the pages of {@code [offset, offset + length)} not checked yet (I1, I2); returns the
   * first damaged page among them, or -1 if all match.
   *
   * @throws UncheckedIOException if the file could not be read
   */
  public long checkRange(long offset, long length) {
    long last = Math.min(pageOf(offset + Math.max(length, 1) - 1), pageCount - 1);
    long first = pageOf(offset);
    while (first <= last && isChecked(first)) {
      first++;
    }
    if (first > last) {
      return -1;
    }
    long from = first & -WINDOW_PAGES;
    long end = Math.min((last | (WINDOW_PAGES - 1)) + 1, pageCount);
    if (end - from <= MAX_READ_PAGES && takeExactRead()) { // I5
      return checkPages(from, (int) (end - from), first, last);
    }
    for (long page = first; page <= last; page++) {
      if (!checkInPlace(page)) {
        return page;
      }
    }
    return -1;
  }

  /**
   * Checks {@code page} if it was not checked yet (I1, I2): whether its bytes match the recorded
   * checksum. A page that does not is remembered as damaged.
   *
   * @throws UncheckedIOException if the file could not be read
   */
  public boolean check(long page) {
    if (isChecked(page)) {
      return true;
    }
    if (isDamaged(page)) {
      return false;
    }
    if (!takeExactRead()) {
      return checkInPlace(page);
    }
    long from = page & -WINDOW_PAGES; // I5
    long end = Math.min(from + WINDOW_PAGES, pageCount);
    while (from < page && isChecked(from)) {
      from++;
    }
    while (end - 1 > page && isChecked(end - 1)) {
      end--;
    }
    return checkPages(from, (int) (end - from), page, page) < 0;
  }

  /** Whether this check may read from the file (I5): one of the segment's first EXACT_READS. */
  private boolean takeExactRead() {
    int taken = exactReads; // a racy count: at worst a read more or less from the file
    if (taken >= EXACT_READS) {
      return false;
    }
    exactReads = taken + 1;
    return true;
  }

  /** Checks {@code page} through the mapping, or the file if the pile wrote it since (I1). */
  private boolean checkInPlace(long page) {
    if (isChecked(page)) {
      return true;
    }
    if (isDamaged(page)) {
      return false;
    }
    try {
      return record(page, segment.isDirty(page) ? source.fileCrc(page) : memoryCrc(page));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read page "
              + page
              + " of the segment's file to"
              + " check it against its recorded checksum",
          e);
    }
  }

  /**
   * Reads pages {@code [from, from + count)} from the file in one request and checks them: those of
   * {@code [first, last]} as asked (a mismatch is remembered as damage), the others as neighbours
   * (I6). Returns the first damaged page of {@code [first, last]} among them, or -1.
   */
  private long checkPages(long from, int count, long first, long last) {
    int[] crcs = new int[count];
    try {
      source.fileCrcs(from, crcs); // I1, I5
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read pages "
              + from
              + "-"
              + (from + count - 1)
              + " of the segment's file to check them against their recorded checksums",
          e);
    }
    long firstDamaged = -1;
    for (int i = 0; i < count; i++) {
      long page = from + i;
      if (isChecked(page)) {
        continue; // I6: checked meanwhile, maybe rewritten since: left as it is
      }
      if (page < first || page > last) {
        if (!isDamaged(page) && crcs[i] == recordedCrc(page)) {
          mark(checked, page); // I6: a neighbour only ever becomes checked here
        }
      } else if ((isDamaged(page) || !record(page, crcs[i])) && firstDamaged < 0) {
        firstDamaged = page;
      }
    }
    return firstDamaged;
  }

  private boolean record(long page, int actual) {
    if (actual == recordedCrc(page)) {
      mark(checked, page);
      return true;
    }
    BITS.getAndBitwiseOr(damaged, (int) (page >>> 6), 1L << page);
    return false;
  }

  /** Where the checksums come from. */
  public Source source() {
    return source;
  }

  /**
   * Checks {@code page} against the file's bytes, whatever the memory holds: safe without the
   * owner's lock (the file changes only at a checkpoint, whose thread calls this before it writes
   * the page). Returns whether it matches.
   *
   * @throws UncheckedIOException if the file could not be read
   */
  public boolean checkFile(long page) {
    if (isChecked(page)) {
      return true;
    }
    if (isDamaged(page)) {
      return false;
    }
    try {
      return record(page, source.fileCrc(page));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read page "
              + page
              + " of the segment's file to"
              + " check it against its recorded checksum",
          e);
    }
  }

  /**
   * Takes {@code page} as checked without reading it: a page recovery rewrote after a checkpoint
   * that a crash cut short, whose file bytes may rightly differ from their checksum (I2).
   */
  public void trust(long page) {
    if (!isChecked(page) && !isDamaged(page)) {
      mark(checked, page);
    }
  }

  /** The checksum the file records for {@code page}. */
  public int recordedCrc(long page) {
    int[] crcs = recorded;
    if (crcs == null) {
      crcs = load();
    }
    return crcs[(int) page];
  }

  /** Pages neither checked nor found damaged. */
  public synchronized long uncheckedPages() {
    return unchecked;
  }

  private synchronized int[] load() {
    if (recorded == null) {
      try {
        int[] crcs = source.recordedCrcs();
        if (crcs.length != pageCount) {
          throw new IllegalArgumentException(
              "recorded checksums for " + crcs.length + " pages, the segment has " + pageCount);
        }
        recorded = crcs;
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the page checksums recorded for the segment's " + pageCount + " pages", e);
      }
    }
    return recorded;
  }

  private int memoryCrc(long page) {
    MemorySegment bytes = segment.memory().asSlice(page << PAGE_SHIFT, 1L << PAGE_SHIFT);
    CRC32C crc = new CRC32C();
    crc.update(bytes.asByteBuffer());
    return (int) crc.getValue();
  }

  private void mark(long[] bits, long page) {
    long before = (long) BITS.getAndBitwiseOr(bits, (int) (page >>> 6), 1L << page);
    if ((before & (1L << page)) == 0) {
      boolean done;
      synchronized (this) {
        done = --unchecked == 0;
      }
      if (done) {
        segment.clearPageCheck(this); // I3
      }
    }
  }
}
