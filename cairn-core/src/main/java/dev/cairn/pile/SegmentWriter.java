package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.log.WriteAheadLog;
import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.OsMemory;
import dev.cairn.memory.PageCheck;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * Writes a persistent pile's segments into their files at checkpoints, with the page checksum files
 * beside them, and checks those checksums for {@code verify}. Used by the checkpointing thread only
 * (one checkpoint at a time).
 *
 * <p>A segment without a file yet gets one of zeros first, with the zero page's checksum for every
 * page, and then only its dirty pages, as any segment. Why that is whole: a segment is born zeroed
 * (fresh memory, or a replay's), and every write since, replay's included, marked its pages dirty;
 * a write of it that fails marks them all dirty again, since it may have cleared some. Why not copy
 * every page: a new 64 MiB segment would then cost 64 MiB copied under its stripe's lock and 64 MiB
 * checksummed, the longest work of a checkpoint, with puts waiting behind its batches.
 *
 * <p>Pages are copied under the owning stripe's lock in batches of {@link #PAGES_PER_HOLD} (writers
 * wait for one batch at most), into a native staging buffer of {@link #STAGING_PAGES}; the log is
 * forced up to where it was when the pages were copied before they are written (the write-ahead
 * rule), so no page reaches a file before the records that made it.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * The pages' marks are shared with participants' region writes, which hold another stripe's
 * lock than the owner's (NativeSegment D1-D3, the pile's Regions):
 *   SW1 A page's mark is cleared before the page is copied, both under the owner's lock (and
 *       a page still to check is checked before its mark goes: PageCheck reads the mark). A
 *       region write racing the copy is in the copy, or leaves the page marked for the next
 *       checkpoint (NativeSegment D2); copying first and clearing after would lose a write
 *       landing between the two, in memory and in no later checkpoint (SlotTableTest).
 *   SW2 The write-ahead rule for region writes: a copied page may hold a region write whose
 *       record is not yet in the log (its attachment runs under stripe A's lock, the page is
 *       stripe B's, and the record is appended as A's lock is released). So when the pile has
 *       participants, the LSN forced before the pages are written is taken after every stripe
 *       lock has been taken and released once since the copy (attachedWrites): every write
 *       the copy may hold was then logged.
 *   SW3 Without a log (snapshot) the copy is made under every stripe lock, when no attachment
 *       runs: one instant's state, marks cleared before each copy as in SW1. A checkpoint that
 *       fails before it changes a file marks the copied pages again (Snapshot.markAgain), and
 *       a new segment's failed first write marks it all dirty: both only set bits (D1), so a
 *       region write's mark set meanwhile stays.
 * }</pre>
 */
final class SegmentWriter {
  private static final int PAGE = NativeSegment.PAGE_BYTES;
  static final int PAGES_PER_HOLD = 256;
  static final int STAGING_PAGES = 4096;

  /**
   * Pages checksummed, or written, between two {@code Thread.yield()}s (256 KiB). Why: a
   * checkpoint's thread otherwise ran for up to 4.6 ms at a stretch while the writers it had woken
   * waited for its core ({@code perf sched timehist}: the scheduler let it finish its slice).
   */
  static final int PAGES_PER_TURN = 64;

  private final FileLayer layer;
  private final Path directory;
  private final WriteAheadLog log; // null without a log
  // SW2: takes and releases every stripe lock once; null when the pile has no participants
  private final Runnable attachedWrites;
  // tests: called after each page a logged checkpoint copies, under the owner's lock
  private volatile PageCopyHook pageCopyHook;
  private Arena stagingArena;
  private MemorySegment staging;
  private ByteBuffer stagingView; // of staging, for page checksums
  private final CRC32C pageCrc = new CRC32C();
  // kept from one write to the next, like the staging buffer: made anew, they were most of a
  // checkpoint's garbage, whose collections paused writers (CheckpointAllocationTest)
  private final long[] stagedPages = new long[STAGING_PAGES];
  private MemorySegment pageCrcs = MemorySegment.ofArray(new byte[4 * STAGING_PAGES]);
  private Arena keptSnapshotArena;
  private MemorySegment keptSnapshot;

  /**
   * Snapshots up to this size copy into a native buffer kept from one checkpoint to the next
   * (grown, with headroom, as snapshots grow); larger ones take memory of their own for the
   * checkpoint. Why: a snapshot is copied under every stripe lock, and memory allocated for it anew
   * was zeroed, faulted in page by page and unmapped again each time, all while writers waited
   * (JFR: puts waited 2-5 ms on the stripe locks at each checkpoint a second apart).
   */
  static final long KEPT_SNAPSHOT_MAX_BYTES = 16L << 20;

  /**
   * @param attachedWrites waits until every pile write under way has been logged (SW2), or null if
   *     no region write can be under way (a pile without participants)
   */
  SegmentWriter(FileLayer layer, Path directory, WriteAheadLog log, Runnable attachedWrites) {
    this.layer = layer;
    this.directory = directory;
    this.log = log;
    this.attachedWrites = attachedWrites;
  }

  /** What a test does after a page is copied (see {@link #onPageCopied}). */
  @FunctionalInterface
  interface PageCopyHook {
    /** Page {@code page} of {@code segment} was just copied; its owner's lock is held. */
    void copied(NativeSegment segment, long page);
  }

  /**
   * Tests: {@code hook} runs after each page a checkpoint with a log copies, under the owner's
   * lock, so that a test can land a region write between the copy and the rest (SW1); null removes
   * it.
   */
  void onPageCopied(PageCopyHook hook) {
    this.pageCopyHook = hook;
  }

  /**
   * Copies the dirty pages of one segment into its file, in batches, each staged under the owner's
   * lock and written after the log covers it. Returns whether the file was created.
   */
  boolean write(NativeSegment segment, Stripe owner) throws IOException {
    boolean fresh = !segment.hasFile();
    if (!fresh && segment.dirtyPageCount() == 0) {
      return false;
    }
    try {
      writePages(segment, owner, fresh);
    } catch (IOException | RuntimeException | Error e) {
      if (fresh) { // the pages this write copied are no longer marked, and the file is not kept
        owner.lock();
        try {
          segment.markAllDirty();
        } finally {
          owner.unlock();
        }
      }
      throw e;
    }
    segment.setHasFile(true);
    return fresh;
  }

  /** The segment's file and its checksum file, open for writing. */
  private record SegmentFiles(FileHandle pages, FileHandle checksums) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      try (pages) {
        checksums.close();
      }
    }
  }

  /**
   * Opens the files of {@code segment}; for a segment without a file yet, lays them out as zeros
   * with the zero page's checksum throughout (see the class comment).
   */
  private SegmentFiles open(NativeSegment segment, boolean fresh) throws IOException {
    long segmentBytes = segment.sizeBytes();
    FileHandle handle =
        layer.open(PileFiles.segmentFile(directory, segment.index()), FileLayer.OpenMode.CREATE);
    SegmentFiles files;
    try {
      files =
          new SegmentFiles(
              handle,
              layer.open(
                  PileFiles.pageCrcFile(directory, segment.index()), FileLayer.OpenMode.CREATE));
    } catch (IOException | RuntimeException e) {
      handle.close();
      throw e;
    }
    if (fresh) {
      try {
        handle.truncate(0); // what an earlier segment of this index left
        files.checksums().truncate(0);
        files.checksums().write(PileFiles.pageCrcHeader(segment.index(), segmentBytes / PAGE), 0);
        // every block reserved now (fallocate, or zeros written): no holes, so later in-place
        // writes never need new blocks
        handle.reserve(segmentBytes);
        writeZeroPageCrcs(files.checksums(), segmentBytes / PAGE);
      } catch (IOException | RuntimeException e) {
        files.close();
        throw e;
      }
    }
    return files;
  }

  @SuppressWarnings("ThreadPriorityCheck") // Thread.yield() is measured: see its comment below
  private void writePages(NativeSegment segment, Stripe owner, boolean fresh) throws IOException {
    MemorySegment stage = staging();
    long segmentBytes = segment.sizeBytes();
    long[] pages = stagedPages;
    checkBeforeWriting(segment);
    try (SegmentFiles files = open(segment, fresh)) {
      FileHandle handle = files.pages();
      FileHandle checksums = files.checksums();
      long next = 0;
      boolean done = false;
      while (!done) {
        int staged = 0;
        long coveredLsn = 0;
        while (!done && staged < STAGING_PAGES) {
          owner.lock();
          try {
            for (int n = 0; n < PAGES_PER_HOLD && staged < STAGING_PAGES; n++) {
              long page = segment.nextDirtyPage(next);
              if (page < 0 || page * PAGE >= segmentBytes) {
                done = true;
                break;
              }
              PageCheck check = segment.pageCheck();
              if (check != null) {
                check.check(page); // written since checkBeforeWriting: its file bytes, now
              }
              segment.clearDirty(page); // SW1: before the copy
              MemorySegment.copy(segment.memory(), page * PAGE, stage, (long) staged * PAGE, PAGE);
              PageCopyHook hook = pageCopyHook;
              if (hook != null) {
                hook.copied(segment, page);
              }
              pages[staged++] = page;
              next = page + 1;
            }
            if (log != null) {
              coveredLsn = log.endLsn();
            }
          } finally {
            owner.unlock();
          }
          // let a writer just woken (by this unlock, or by anything) have the core: with one
          // checkpoint a second at 100K puts/s, puts that overlapped one waited 1.5-1.75 ms at
          // p99.9 with this, 2.8-4.2 ms without (alternating runs of cairn bench
          // --latency-during-checkpoint)
          Thread.yield();
        }
        if (log != null) {
          if (attachedWrites != null) { // SW2: region writes in the copies are logged by now
            attachedWrites.run();
            coveredLsn = log.endLsn();
          }
          log.syncTo(coveredLsn); // WAL rule: the records behind these pages are durable first
        }
        writeStaged(segment, handle, checksums, stage, stagingView, pages, 0, staged);
      }
      handle.force();
      checksums.force();
    }
  }

  /**
   * Checks every dirty page of a segment mapped from its file that is not checked yet against its
   * checksum, from the file (PageCheck I1), before a checkpoint overwrites it: once written, the
   * file would hold the page's new bytes and their checksum, and damage among its bytes the pile
   * never rewrote would pass for data. Done before taking the owner's lock, which the copy then
   * holds for less; a page written meanwhile is checked under it.
   */
  private static void checkBeforeWriting(NativeSegment segment) {
    PageCheck check = segment.pageCheck();
    if (check == null) {
      return;
    }
    long limit = segment.sizeBytes() / PAGE;
    // the dirty marks are read without the owner's lock: one missed here is checked under it
    for (long page = segment.nextDirtyPage(0);
        page >= 0 && page < limit;
        page = segment.nextDirtyPage(page + 1)) {
      check.checkFile(page);
    }
  }

  /**
   * The checksum to record for a page written from {@code copy}: its CRC32C, unless the page was
   * found damaged, whose old checksum is kept so that the damage stays visible after a reopen (the
   * page's other values are unreadable either way).
   */
  private int pageCrcToRecord(NativeSegment segment, long page, ByteBuffer copy) {
    PageCheck check = segment.pageCheck();
    if (check != null && check.isDamaged(page)) {
      return check.recordedCrc(page);
    }
    pageCrc.reset();
    pageCrc.update(copy);
    return (int) pageCrc.getValue();
  }

  /** The CRC32C of a page of zeros. */
  private static final int ZERO_PAGE_CRC = PileFiles.crc(MemorySegment.ofArray(new byte[PAGE]));

  private static void writeZeroPageCrcs(FileHandle checksums, long pages) throws IOException {
    int perWrite = 16_384;
    MemorySegment crcs = MemorySegment.ofArray(new byte[4 * (int) Math.min(pages, perWrite)]);
    for (long i = 0; i < crcs.byteSize() / 4; i++) {
      crcs.set(Journal.U32, 4 * i, ZERO_PAGE_CRC);
    }
    for (long page = 0; page < pages; page += perWrite) {
      long n = Math.min(perWrite, pages - page);
      checksums.write(crcs.asSlice(0, 4 * n), PileFiles.pageCrcOffset(page));
    }
  }

  /**
   * Writes {@code count} staged pages in runs of neighbours, and their CRC32Cs into the checksum
   * file: the copy of page {@code pages[from + i]} is page {@code i} of {@code stage} (whose buffer
   * view is {@code view}).
   */
  @SuppressWarnings("ThreadPriorityCheck") // Thread.yield() is measured: see PAGES_PER_TURN
  private void writeStaged(
      NativeSegment segment,
      FileHandle handle,
      FileHandle checksums,
      MemorySegment stage,
      ByteBuffer view,
      long[] pages,
      int from,
      int count)
      throws IOException {
    if (pageCrcs.byteSize() < 4L * count) { // a snapshot's segment: up to all its pages
      pageCrcs = MemorySegment.ofArray(new byte[4 * count]); // byte[]: writable to a file
    }
    MemorySegment crcs = pageCrcs;
    // one checksum object and one view for every page: a checkpoint of a new 64 MiB segment
    // otherwise made three objects per page, 16,384 pages, as garbage for writers to pay for
    for (int i = 0; i < count; i++) {
      view.limit((i + 1) * PAGE).position(i * PAGE);
      crcs.set(Journal.U32, 4L * i, pageCrcToRecord(segment, pages[from + i], view));
      if ((i + 1) % PAGES_PER_TURN == 0) {
        Thread.yield();
      }
    }
    int run = 0;
    int sinceYield = 0;
    while (run < count) {
      int end = run + 1;
      while (end < count
          && end - run < PAGES_PER_TURN
          && pages[from + end] == pages[from + end - 1] + 1) {
        end++;
      }
      handle.write(
          stage.asSlice((long) run * PAGE, (long) (end - run) * PAGE), pages[from + run] * PAGE);
      checksums.write(
          crcs.asSlice(4L * run, 4L * (end - run)), PileFiles.pageCrcOffset(pages[from + run]));
      sinceYield += end - run;
      if (sinceYield >= PAGES_PER_TURN) {
        Thread.yield(); // see PAGES_PER_TURN
        sinceYield = 0;
      }
      run = end;
    }
  }

  // ---------------------------------------------------------------------------------------
  // one instant's copy, for checkpoints without a log

  /**
   * The dirty pages of every segment of a checkpoint image, copied at one instant (under every
   * stripe lock), so that a checkpoint without a log can write one consistent state after letting
   * writers go on. Confined to the checkpointing thread.
   */
  static final class Snapshot implements AutoCloseable {
    private final Arena arena; // null: the copies are in the writer's kept buffer
    private final MemorySegment copies; // page i of it is the copy of pages[i]
    private final NativeSegment[] segments;
    private final Stripe[] owners;
    private final boolean[] fresh;
    private final int[] first; // segment i's copies are first[i] .. first[i + 1] - 1
    private final long[] pages;

    private Snapshot(
        Arena arena,
        MemorySegment copies,
        NativeSegment[] segments,
        Stripe[] owners,
        boolean[] fresh,
        int[] first,
        long[] pages) {
      this.arena = arena;
      this.copies = copies;
      this.segments = segments;
      this.owners = owners;
      this.fresh = fresh;
      this.first = first;
      this.pages = pages;
    }

    /** Whether it holds pages of a segment that already has a file: writes in place. */
    boolean writesInPlace() {
      for (int i = 0; i < segments.length; i++) {
        if (!fresh[i] && first[i + 1] > first[i]) {
          return true;
        }
      }
      return false;
    }

    /**
     * Marks the copied pages dirty again, and the segments written whole all dirty: for a
     * checkpoint that failed before any file the pile uses was changed, so the next one writes
     * them. Takes each owner's lock.
     */
    void markAgain() {
      for (int i = 0; i < segments.length; i++) {
        Stripe owner = owners[i];
        owner.lock();
        try {
          if (fresh[i]) {
            segments[i].markAllDirty();
          } else {
            for (int c = first[i]; c < first[i + 1]; c++) {
              segments[i].markDirty(pages[c] * PAGE, PAGE);
            }
          }
        } finally {
          owner.unlock();
        }
      }
    }

    @Override
    public void close() {
      if (arena != null) {
        arena.close();
      }
    }
  }

  /**
   * Copies the dirty pages of every segment of {@code image} and clears their marks; the caller
   * holds every stripe lock. Returns null, having changed nothing, if they come to more than {@code
   * maxBytes}: the checkpoint then writes with the locks held throughout.
   */
  Snapshot snapshot(MetaImage image, long maxBytes) {
    int count = image.segmentCount();
    long total = 0;
    for (int i = 0; i < count; i++) {
      total += image.segment(i).dirtyPageCount();
    }
    if (total * PAGE > maxBytes) {
      return null;
    }
    NativeSegment[] segments = new NativeSegment[count];
    Stripe[] owners = new Stripe[count];
    boolean[] fresh = new boolean[count];
    int[] first = new int[count + 1];
    long[] pages = new long[(int) total];
    long bytes = Math.max(1, total) * PAGE;
    Arena arena = null; // the kept buffer's is the writer's
    MemorySegment copies;
    if (bytes <= KEPT_SNAPSHOT_MAX_BYTES) {
      copies = keptSnapshotBuffer(bytes);
    } else {
      arena = Arena.ofConfined();
      copies = arena.allocate(bytes, PAGE);
    }
    int c = 0;
    for (int i = 0; i < count; i++) {
      NativeSegment segment = image.segment(i);
      segments[i] = segment;
      owners[i] = image.owner(i);
      fresh[i] = !segment.hasFile();
      first[i] = c;
      long limit = segment.sizeBytes() / PAGE;
      PageCheck check = segment.pageCheck();
      for (long page = segment.nextDirtyPage(0);
          page >= 0 && page < limit;
          page = segment.nextDirtyPage(page + 1)) {
        if (check != null) {
          check.checkFile(page); // see checkBeforeWriting
        }
        segment.clearDirty(page); // SW1, SW3
        MemorySegment.copy(segment.memory(), page * PAGE, copies, (long) c * PAGE, PAGE);
        pages[c++] = page;
      }
    }
    first[count] = c;
    return new Snapshot(
        arena, copies.asSlice(0, (long) c * PAGE), segments, owners, fresh, first, pages);
  }

  /**
   * Writes segment {@code i} of {@code snapshot} into its files, from the copies: no lock is taken,
   * and no log consulted (a checkpoint without a log). Returns whether the file was created.
   */
  boolean write(Snapshot snapshot, int i) throws IOException {
    NativeSegment segment = snapshot.segments[i];
    boolean fresh = snapshot.fresh[i];
    int from = snapshot.first[i];
    int count = snapshot.first[i + 1] - from;
    if (!fresh && count == 0) {
      return false;
    }
    try (SegmentFiles files = open(segment, fresh)) {
      MemorySegment stage = snapshot.copies.asSlice((long) from * PAGE, (long) count * PAGE);
      writeStaged(
          segment,
          files.pages(),
          files.checksums(),
          stage,
          stage.asByteBuffer(),
          snapshot.pages,
          from,
          count);
      files.pages().force();
      files.checksums().force();
    }
    segment.setHasFile(true);
    return fresh;
  }

  /**
   * Checks every page of every segment file against its CRC32C (for {@link PileDirectory#verify}),
   * reading the files, not the pile's memory. A page the log replay of this open changed is
   * skipped: a checkpoint cut by a crash may have written it without its checksum, and its bytes
   * come from the log anyway.
   *
   * @param segments the pile's live segment at an index, or null
   * @return the number of pages checked
   * @throws CorruptFileException naming the segment file and the page's offset
   */
  long verifyPageChecksums(IntFunction<NativeSegment> segments) throws IOException {
    long checked = 0;
    MemorySegment page = Arena.ofAuto().allocate(PAGE);
    for (int index = 0; index < Pointers.MAX_SEGMENTS; index++) {
      NativeSegment segment = segments.apply(index);
      if (segment == null || !segment.hasFile()) {
        continue;
      }
      Path file = PileFiles.segmentFile(directory, index);
      Path crcFile = PileFiles.pageCrcFile(directory, index);
      long pages = segment.sizeBytes() / PAGE;
      MemorySegment crcs =
          MemorySegment.ofArray(new byte[Math.toIntExact(PileFiles.pageCrcOffset(pages))]);
      try (FileHandle in = layer.open(crcFile, FileLayer.OpenMode.READ)) {
        if (in.read(crcs, 0) < crcs.byteSize()) {
          throw new CorruptFileException(crcFile, in.size(), "page checksum file truncated");
        }
      } catch (NoSuchFileException e) {
        throw new CorruptFileException(crcFile, 0, "page checksum file missing", e);
      }
      PileFiles.checkPageCrcHeader(crcFile, crcs, index, pages);
      try (FileHandle in = layer.open(file, FileLayer.OpenMode.READ)) {
        for (long p = 0; p < pages; p++) {
          if (segment.isDirty(p)) {
            continue;
          }
          if (in.read(page, p * PAGE) < PAGE) {
            throw new CorruptFileException(file, p * PAGE, "segment file truncated");
          }
          if (PileFiles.crc(page) != crcs.get(Journal.U32, PileFiles.pageCrcOffset(p))) {
            throw new CorruptFileException(
                file,
                p * PAGE,
                "page " + p + " does not match its checksum in " + crcFile.getFileName());
          }
          checked++;
        }
      }
    }
    return checked;
  }

  private MemorySegment staging() {
    if (staging == null) {
      stagingArena = Arena.ofShared(); // native: copied into under stripe locks, so no GC
      staging = scratch(stagingArena, (long) STAGING_PAGES * PAGE);
      stagingView = staging.asByteBuffer();
    }
    return staging;
  }

  /** The kept snapshot buffer, at least {@code bytes} long (at most the kept maximum). */
  private MemorySegment keptSnapshotBuffer(long bytes) {
    if (keptSnapshot == null || keptSnapshot.byteSize() < bytes) {
      // twice what is asked: the next checkpoint's dirty pages are rarely fewer, and growing
      // again costs fresh memory under the locks (a 980-page copy took 5.2 ms into memory zeroed
      // anew, against 0.6-1.0 ms into a buffer already there)
      long size =
          Math.min(
              KEPT_SNAPSHOT_MAX_BYTES,
              Math.max(2 * bytes, keptSnapshot == null ? 0 : 2 * keptSnapshot.byteSize()));
      if (keptSnapshotArena != null) {
        keptSnapshotArena.close();
      }
      keptSnapshotArena = Arena.ofShared(); // checkpoints run on whichever pooled thread
      keptSnapshot = scratch(keptSnapshotArena, size);
    }
    return keptSnapshot;
  }

  /**
   * Page-aligned memory for copies in {@code arena}. Where {@link OsMemory} is available it is an
   * anonymous mapping whose pages the OS zeroes when first touched, so only the pages a checkpoint
   * uses become resident and nothing is zeroed up front (the 16 MiB staging buffer was zeroed whole
   * at a pile's first checkpoint, on the checkpointing thread, however few pages it staged); else
   * {@link Arena#allocate}, zeroed now.
   */
  private static MemorySegment scratch(Arena arena, long bytes) {
    return OsMemory.available() ? OsMemory.mapAnonymous(bytes, arena) : arena.allocate(bytes, PAGE);
  }

  /** Frees the staging buffer. */
  void close() {
    if (keptSnapshotArena != null) {
      keptSnapshotArena.close();
      keptSnapshotArena = null;
      keptSnapshot = null;
    }
    if (stagingArena != null) {
      stagingArena.close();
      stagingArena = null;
      staging = null;
      stagingView = null;
    }
  }
}
