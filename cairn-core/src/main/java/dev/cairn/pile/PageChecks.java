package dev.cairn.pile;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;

/**
 * The checks of a persistent pile's mapped pages against the checksums their files recorded at the
 * last checkpoint: a page is believed only once it matches (ValueReads R2). A segment born in
 * memory has no {@link PageCheck}, and a page already checked costs one bit test.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * A page is checked under the lock of its segment's owner, so that no write changes it while
 * its checksum is computed (PageCheck I2); if the segment changed owner, or was released,
 * meanwhile, the check is retried, or left to the read that asked, which finds that out
 * itself. Everything else takes no lock: any thread, any number at once.
 * }</pre>
 */
final class PageChecks {
  private final SegmentTable table;
  private final NativeSegment[] segments; // the table's slots (SegmentTable.slots)
  private final PersistenceHooks persistence;

  PageChecks(SegmentTable table, PersistenceHooks persistence) {
    this.table = table;
    this.segments = table.slots();
    this.persistence = persistence;
  }

  /**
   * -1 if every page of {@code [offset, offset + length)} of {@code segment} matches the checksum
   * its file recorded, checking those not checked yet; else the first damaged page. Pages of a
   * segment born in memory, or already checked, cost one bit test (see {@link PageCheck}).
   */
  long damagedPage(NativeSegment segment, long offset, long length) {
    PageCheck check = segment.pageCheck();
    if (check == null || check.allChecked(offset, length)) {
      return -1;
    }
    return checkPages(segment, check, offset, Math.min(length, segment.sizeBytes() - offset));
  }

  /** Checks pages under the lock of the segment's owner, so that no write changes them (R2). */
  private long checkPages(NativeSegment segment, PageCheck check, long offset, long length) {
    int index = segment.index();
    while (true) {
      Stripe owner = table.ownerOf(index);
      if (owner == null || segments[index] != segment) {
        return -1; // released meanwhile: the read that asked finds that out itself
      }
      owner.lock();
      try {
        if (table.ownerOf(index) == owner && segments[index] == segment) {
          return check.checkRange(offset, length);
        }
      } finally {
        owner.unlock();
      }
    }
  }

  /**
   * For walks over a segment's blocks (scan, forEach; the caller may hold the owner's lock): checks
   * the pages of {@code [offset, offset + length)} not checked yet.
   *
   * @throws CorruptValueException if one of them is damaged
   */
  void requireIntactPages(NativeSegment segment, long offset, long length) {
    long damaged = damagedPage(segment, offset, length);
    if (damaged >= 0) {
      throw new CorruptValueException(
          "page "
              + damaged
              + " of "
              + persistence.segmentName(segment)
              + " does not match the checksum its last checkpoint recorded: the file was damaged on"
              + " disk, and the blocks on that page cannot be walked. Gets of values on other pages"
              + " still work; `cairn verify` lists every damaged page");
    }
  }

  /**
   * For a participant's region (Regions): checks the pages of {@code [offset, offset + length)} of
   * the block {@code pointer} names not checked yet.
   *
   * @throws CorruptValueException if one of them is damaged, naming the value and the page
   */
  void requireIntactValue(long pointer, NativeSegment segment, long offset, long length) {
    long damaged = damagedPage(segment, offset, length);
    if (damaged >= 0) {
      throw damagedValue(pointer, segment, damaged);
    }
  }

  /**
   * Checks every page of every segment mapped from a file that no read has checked yet against its
   * checksum; all stripe locks held ({@link Pile#verify}).
   *
   * @throws dev.cairn.durability.CorruptFileException naming the file and the first damaged page
   */
  void checkEveryPage() {
    for (NativeSegment segment : segments) {
      PageCheck check = segment == null ? null : segment.pageCheck();
      if (check == null) {
        continue;
      }
      long pages = segment.sizeBytes() / NativeSegment.PAGE_BYTES;
      for (long page = 0; page < pages; page++) {
        if (!check.check(page)) {
          throw ((SegmentChecksums) check.source()).damaged(page);
        }
      }
    }
  }

  /** A read met a page whose bytes do not match the checksum its file recorded. */
  CorruptValueException damagedValue(long pointer, NativeSegment segment, long page) {
    String file = persistence.segmentName(segment);
    return new CorruptValueException(
        "the value at "
            + Pointers.describe(pointer)
            + " lies on page "
            + page
            + " (bytes "
            + page * NativeSegment.PAGE_BYTES
            + "-"
            + ((page + 1) * NativeSegment.PAGE_BYTES - 1)
            + ") of "
            + file
            + ", whose bytes do not match the checksum its last checkpoint recorded: the file was"
            + " damaged on disk. Values on other pages stay readable; `cairn verify` lists every"
            + " damaged page");
  }
}
