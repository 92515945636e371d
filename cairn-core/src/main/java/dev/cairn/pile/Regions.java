package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;

import dev.cairn.memory.NativeSegment;
import dev.cairn.memory.PageCheck;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Participants' regions ({@link dev.cairn.pile.participant.ParticipantLog#region}): values of kind
 * BYTES that a participant writes in place, a view of the payload handed out once, and each write
 * reported ({@link #written}) so that the next checkpoint takes its pages.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * A region is an ordinary block: put by the participant, found through its pointer, freed by a
 * delete. What differs is who writes its payload: the participant, inside an Attachment, under
 * the lock of the pile write the attachment belongs to (stripe A), while the block's segment may
 * be stripe B's. The pile itself never writes a live region's payload (it writes the header's
 * PREV_FREE bit when a neighbour changes, never a payload byte).
 *
 * Invariants:
 *   RG1 A region's payload changes only inside an attachment, some stripe's lock held and the
 *       record appended before it is released, or during replay (one thread). So a checkpoint
 *       without a log, copying under every stripe lock, sees no region write half done, and
 *       one with a log finds every region write its copy holds logged once it has taken each
 *       stripe's lock once (SegmentWriter SW2).
 *   RG2 region() checks every page of the block against its recorded checksum, under the
 *       owner's lock, before it returns the view (PageCheck I2, I4): a region write, which
 *       changes bytes before it marks them and holds no lock of the owner's, never meets an
 *       unchecked page. Exception: in a replay after a checkpoint cut short while it wrote pages
 *       in place (trustRewritten, as RedoReplay), a page may rightly differ from its checksum
 *       until the records rewrite it. There region() defers the block's check, written() takes
 *       the pages a record rewrites as they are (PageCheck.trust: they were dirty at the cut
 *       checkpoint, so records after its LSN rewrite them), and replayEnded() checks the rest
 *       from memory, which still shows the file for them, before any writer runs.
 *   RG3 written() marks the pages after the bytes changed, with an atomic OR (NativeSegment
 *       markWritten, D2): a checkpoint copying the page meanwhile has the bytes, or leaves the
 *       mark for the next one.
 *   RG4 region() takes the owner's lock (RG2), so it refuses a thread holding another stripe's
 *       lock (an attachment): a thread holds one stripe lock at a time (BlockWriter). The
 *       owner's own lock it takes again (reentrant): so the attachment of the put that made a
 *       region, which runs under the lock of the stripe owning the new block, may view it.
 *   RG5 written() takes no lock and reads the block's header without the seqlock: a live
 *       region's header changes only in its PREV_FREE bit, a deleted one's reads free (stale),
 *       and a header word is written whole.
 *   RG6 A region viewed with hints (ParticipantLog.hintedRegion) may also change outside
 *       attachments, with no record: bits its participant accepts in any state. Such a write is
 *       marked as RG3 says, so the next checkpoint takes its page; if that checkpoint is cut
 *       short, the page matches neither its checksum nor a record after the checkpoint the
 *       replay starts from. So after a recovery from such a cut (cutRecovery: set with
 *       trustRewritten, kept after the replay until the participants' recovered() returns) a
 *       hinted region's unchecked pages are trusted as they are, instead of checked; the
 *       records rewrite what they logged, and the hinted bytes stay in whichever state reached
 *       the disk. The trusted pages are also marked written, so that the next checkpoint
 *       records their checksums anew: else, once it completes (and the evidence of the cut is
 *       gone), a later open would check them against the stale ones. Trusting takes the
 *       owner's lock, as a check does (PageCheck I2).
 *       Why every hinted region must be viewed in recovered() (ParticipantLog
 *       recoveredFromCutCheckpoint), not at its first use: a value of another owner may share
 *       a page with a hinted region, and a read of it checks the page; and the open's own
 *       checkpoint, requested once recovered() returns, must find the trusted pages marked, or
 *       it completes, the evidence of the cut goes, and their stale checksums stay. So the
 *       trust ends there (participantsRecovered): a hinted region first viewed later is checked.
 *       And hinted() marks the pile in use before its first hint after a clean reopen
 *       (WriteHooks.hintWritten), so that a cut checkpoint after hints alone is recovered as a
 *       crash, not taken for a clean close whose pages must match their checksums.
 *
 * Lifecycle: a persistent pile is replaying from its construction until the open calls
 * replayEnded(); a volatile pile never is. During the replay only the opening thread calls in.
 * }</pre>
 */
final class Regions {

  /** A region whose page checks wait for the end of the replay (RG2). */
  private record Deferred(NativeSegment segment, long offset, long length) {}

  private final SegmentTable table;
  private final ValueReads reads;
  private final BlockWriter writer;
  private final WriteHooks writes;
  private volatile boolean replaying;
  private boolean trustRewritten; // replay only: the opening thread's
  private volatile boolean cutRecovery; // RG6: trust hinted regions (until recovered() returns)
  private volatile boolean recoveredFromCut; // this open recovered from a cut checkpoint
  private final List<Deferred> deferred = new ArrayList<>(); // replay only

  Regions(
      SegmentTable table,
      ValueReads reads,
      BlockWriter writer,
      WriteHooks writes,
      boolean replaying) {
    this.table = table;
    this.reads = reads;
    this.writer = writer;
    this.writes = writes;
    this.replaying = replaying;
  }

  /**
   * Set before the replay: whether the checkpoint after the one recovery starts from was cut short
   * while it wrote pages in place (see {@link RedoReplay#trustRewrittenPages}).
   */
  void trustRewrittenPages(boolean trust) {
    trustRewritten = trust;
    cutRecovery = trust;
    recoveredFromCut = trust;
  }

  /** Whether this open recovered from a cut checkpoint (see {@link #trustRewrittenPages}). */
  boolean recoveredFromCutCheckpoint() {
    return recoveredFromCut;
  }

  /**
   * The participants' recovered() returned: hinted regions viewed from now on are checked (RG6), as
   * every region they hint was viewed and trusted by then.
   */
  void participantsRecovered() {
    cutRecovery = false;
  }

  /**
   * The replay is over: checks the pages of regions whose check was deferred (RG2), each damaged
   * one remembered as such (reported by the next region() of its value, by reads of values on it
   * and by verify), and from now on checks at once.
   */
  void replayEnded() {
    for (Deferred region : deferred) {
      NativeSegment segment = region.segment();
      PageCheck check = segment.pageCheck();
      if (check != null && table.segmentAt(segment.index()) == segment) {
        check.checkRange(region.offset(), region.length()); // one thread: PageCheck I2
      }
    }
    deferred.clear();
    trustRewritten = false;
    replaying = false;
  }

  /**
   * See {@link dev.cairn.pile.participant.ParticipantLog#region} and {@link
   * dev.cairn.pile.participant.ParticipantLog#hintedRegion} ({@code hinted}).
   */
  MemorySegment region(long pointer, boolean hinted) {
    table.checkOpen();
    if (writer.holdsAnyStripeLock() && !holdsOwnerOf(pointer)) { // RG4
      throw new IllegalStateException(
          "region() takes the lock of the stripe owning the block,"
              + " so it must not be called while the thread holds a pile lock (inside an"
              + " Attachment): take the region's view before the write, or in replay; pointer="
              + Pointers.describe(pointer));
    }
    Stripe owner = writer.lockOwner(pointer);
    try {
      NativeSegment segment = table.segmentAt(Pointers.segment(pointer));
      MemorySegment memory = segment.memory();
      long offset = ValueReads.blockOffset(pointer, memory);
      boolean defer = replaying && trustRewritten;
      boolean trustAll = hinted && cutRecovery; // RG6
      if (!defer && !trustAll) {
        reads
            .pages()
            .requireIntactValue(pointer, segment, offset, HEADER_BYTES); // R2: then the header
      }
      long header = writer.lockedUserHeader(pointer, memory, offset);
      requireBytes(pointer, header);
      long blockBytes = BlockLayout.sizeBytes(header);
      if (trustAll) {
        trustRewritten(segment, offset, blockBytes); // RG6
        segment.markWritten(offset, blockBytes); // RG6: the next checkpoint records them anew
      } else if (defer) {
        deferred.add(new Deferred(segment, offset, blockBytes));
      } else {
        reads.pages().requireIntactValue(pointer, segment, offset, blockBytes); // RG2
      }
      return memory.asSlice(offset + HEADER_BYTES, BlockLayout.length(header, memory, offset));
    } finally {
      owner.unlock();
    }
  }

  /** Whether this thread holds the lock of the stripe owning {@code pointer}'s block. */
  private boolean holdsOwnerOf(long pointer) {
    Stripe owner = table.ownerOf(reads.segmentOf(pointer).index());
    return owner != null && owner.isHeldByCurrentThread();
  }

  /** See {@link dev.cairn.pile.participant.ParticipantLog#written}. */
  void written(long pointer, long offset, long length) {
    table.checkOpen();
    try {
      NativeSegment segment = reads.segmentOf(pointer);
      MemorySegment memory = segment.memory();
      long block = ValueReads.blockOffset(pointer, memory);
      long header = memory.get(WORD, block); // RG5
      PointerProblem problem = reads.userBlockProblem(header, pointer, block, memory.byteSize());
      if (problem != null) {
        throw reads.pointerProblem(pointer, problem);
      }
      requireBytes(pointer, header);
      Objects.checkFromIndexSize(offset, length, BlockLayout.length(header, memory, block));
      long at = block + HEADER_BYTES + offset;
      if (replaying && trustRewritten) {
        trustRewritten(segment, at, length);
      }
      segment.markWritten(at, length); // RG3
    } catch (IllegalStateException e) { // the segment's arena closed under the call
      if (table.isClosed()) {
        throw new PileClosedException(e);
      }
      throw PointerProblem.RELEASED_DURING_READ.exception(pointer);
    }
  }

  /**
   * See {@link dev.cairn.pile.participant.ParticipantLog#hinted}: the pile is marked in use first
   * (RG6), then the bytes as {@link #written} marks them.
   */
  void hinted(long pointer, long offset, long length) {
    writes.hintWritten();
    written(pointer, offset, length);
  }

  /** Replay after a cut checkpoint: the pages a record rewrites are taken as they are (RG2). */
  private static void trustRewritten(NativeSegment segment, long at, long length) {
    PageCheck check = segment.pageCheck();
    if (check == null || length <= 0) {
      return;
    }
    long last = PageCheck.pageOf(at + length - 1);
    for (long page = PageCheck.pageOf(at); page <= last; page++) {
      if (!segment.isDirty(page)) { // a dirty page was checked or trusted when first rewritten
        check.trust(page);
      }
    }
  }

  private static void requireBytes(long pointer, long header) {
    int kind = BlockLayout.kind(header);
    if (kind != KIND_BYTES) {
      throw new IllegalArgumentException(
          "a region is a value of kind BYTES in a block of its"
              + " own (put by ParticipantLog.put, never updated): pointer="
              + Pointers.describe(pointer)
              + " kind="
              + switch (kind) {
                case BlockLayout.KIND_STRING -> "string";
                case BlockLayout.KIND_OBJECT -> "object";
                default -> "link (moved by an update)";
              });
    }
  }
}
