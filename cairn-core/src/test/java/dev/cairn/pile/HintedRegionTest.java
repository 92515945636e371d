package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.participant.LogParticipant;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.Participants;
import dev.cairn.pile.participant.PayloadWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hinted regions (ParticipantLog#hintedRegion, Regions RG6) after a checkpoint cut short: a region
 * whose bytes change with no record, between two values that share its pages. Each case changes the
 * hints, then cuts the next checkpoint at each of its first disk operations (power loss and process
 * crash, a few page-tearing seeds) and reopens.
 *
 * <p>A participant that views its hinted region in recovered(), as {@link
 * ParticipantLog#recoveredFromCutCheckpoint} asks, reopens with both values whole, verify clean,
 * and again after the open's checkpoint (the pages were recorded anew). One that waits for the
 * region's first use finds the pages it shares damaged, which is why the contract asks it.
 */
class HintedRegionTest {
  private static final Path DIR = Path.of("/pile");
  private static final int REGION_BYTES = 6000; // spans pages with both neighbours
  private static final byte[] BEFORE = filled(5000, (byte) 'b');
  private static final byte[] AFTER = filled(5000, (byte) 'a');

  @Test
  void aParticipantThatViewsItsHintedRegionsInRecovered_reopensAfterEveryCut() {
    Outcome o = cutEveryCheckpoint(true);
    assertThat(o.failures()).as("reopens that failed, of " + o.cuts() + " cuts").isEmpty();
    assertThat(o.cutRecoveries()).as("recoveries from a cut checkpoint").isPositive();
  }

  @Test
  void aParticipantThatViewsItsHintedRegionLater_findsItsNeighboursDamaged() {
    Outcome o = cutEveryCheckpoint(false);
    assertThat(o.failures())
        .as("of " + o.cuts() + " cuts, reopens whose values read as damaged")
        .isNotEmpty()
        .allMatch(f -> f.contains(CorruptValueException.class.getSimpleName()));
  }

  @Test
  void aCleanReopen_andAnOrdinaryCrash_areNotCutRecoveries() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    HintBoard board = new HintBoard(true);
    OffHeapPile pile = open(disk, board);
    board.create(pile);
    board.hint(1);
    pile.close();
    board = new HintBoard(true);
    pile = open(disk, board);
    assertThat(board.cutSeen).as("after a clean close").isFalse();
    board.hint(2);
    disk.powerLoss(7);
    abandon(pile);
    disk.reboot();
    board = new HintBoard(true);
    try (OffHeapPile again = open(disk, board)) {
      assertThat(board.cutSeen).as("after a power loss outside a checkpoint").isFalse();
      assertThat(again.getBytes(board.before)).isEqualTo(BEFORE);
    }
  }

  private record Outcome(int cuts, int cutRecoveries, List<String> failures) {}

  private static Outcome cutEveryCheckpoint(boolean viewInRecovered) {
    List<String> failures = new ArrayList<>();
    int cuts = 0;
    int cutRecoveries = 0;
    for (int operation = 1; operation <= 12; operation++) {
      for (long seed = 0; seed < 4; seed++) {
        for (boolean powerLoss : new boolean[] {true, false}) {
          SimulatedDisk disk = new SimulatedDisk();
          HintBoard board = new HintBoard(viewInRecovered);
          OffHeapPile pile = open(disk, board);
          board.create(pile);
          pile.checkpoint();
          board.hint(seed + 1);
          long at = disk.operationCount() + operation;
          if (powerLoss) {
            disk.crashAtOperation(at, seed);
          } else {
            disk.killAtOperation(at, seed);
          }
          boolean cut = false;
          try {
            pile.checkpoint();
          } catch (RuntimeException crashed) {
            cut = true;
          }
          disk.disarmCrash();
          abandon(pile);
          disk.reboot();
          if (!cut) {
            continue; // the checkpoint had fewer operations
          }
          cuts++;
          String label =
              (powerLoss ? "power loss" : "kill") + " at operation " + operation + " seed " + seed;
          long before = board.before;
          long after = board.after;
          try {
            board = new HintBoard(viewInRecovered);
            try (OffHeapPile again = open(disk, board)) {
              cutRecoveries += board.cutSeen ? 1 : 0;
              assertThat(again.getBytes(before)).as(label).isEqualTo(BEFORE);
              assertThat(again.getBytes(after)).as(label).isEqualTo(AFTER);
              board.view();
              again.verify();
              again.checkpoint(); // completes: the evidence of the cut is gone after it
            }
            board = new HintBoard(viewInRecovered);
            try (OffHeapPile third = open(disk, board)) {
              assertThat(third.getBytes(before)).as(label + ", then").isEqualTo(BEFORE);
              assertThat(third.getBytes(after)).as(label + ", then").isEqualTo(AFTER);
              board.view();
              third.verify();
            }
          } catch (RuntimeException | AssertionError e) {
            failures.add(label + ": " + e);
          }
        }
      }
    }
    assertThat(cuts).as("checkpoints cut").isGreaterThan(10);
    return new Outcome(cuts, cutRecoveries, failures);
  }

  private static OffHeapPile open(SimulatedDisk disk, HintBoard board) {
    try {
      return (OffHeapPile)
          Participants.open(disk, DIR, PileCrashTest.options(Durability.SYNC), board);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void abandon(OffHeapPile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk failed under it
    }
  }

  private static byte[] filled(int length, byte b) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, b);
    return bytes;
  }

  /**
   * A participant with one hinted region between two values it puts: the region's words are
   * counters changed by hints only (no record), as a cache's policy bits are. Its state is the
   * three pointers.
   */
  private static final class HintBoard implements LogParticipant {
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private final boolean viewInRecovered;
    private ParticipantLog log;
    // set by the test's thread, read by the checkpoint's
    private volatile long before;
    private volatile long region;
    private volatile long after;
    private MemorySegment view;
    private boolean cutSeen;

    HintBoard(boolean viewInRecovered) {
      this.viewInRecovered = viewInRecovered;
    }

    /** Puts the value before, the region, the value after, from one thread (one stripe). */
    void create(Pile pile) {
      before = pile.put(BEFORE);
      region = log.put(zeros(), 1, p -> MemorySegment.ofArray(new byte[8]));
      after = pile.put(AFTER);
      view();
    }

    /** Takes the region's view (its first use, if recovered() did not). */
    void view() {
      if (view == null) {
        view = log.hintedRegion(region);
      }
    }

    /** Adds {@code amount} to every word of the region, as hints. */
    void hint(long amount) {
      view();
      for (long at = 0; at + Long.BYTES <= REGION_BYTES; at += Long.BYTES) {
        view.set(U64, at, view.get(U64, at) + amount);
      }
      log.hinted(region, 0, REGION_BYTES - REGION_BYTES % Long.BYTES);
    }

    private static PayloadWriter zeros() {
      return new PayloadWriter() {
        @Override
        public int sizeBytes() {
          return REGION_BYTES;
        }

        @Override
        public void writeTo(MemorySegment target, long offset) {
          target.asSlice(offset, REGION_BYTES).fill((byte) 0);
        }
      };
    }

    @Override
    public int id() {
      return 9;
    }

    @Override
    public void open(ParticipantLog log, byte[] state, long checkpointLsn) {
      this.log = log;
      if (state.length == 24) {
        MemorySegment in = MemorySegment.ofArray(state);
        before = in.get(U64, 0);
        region = in.get(U64, 8);
        after = in.get(U64, 16);
      }
    }

    @Override
    public void replay(long lsn, int type, MemorySegment payload) {
      // the region's record carries nothing: its pointer is in every checkpoint's state
    }

    @Override
    public void recovered() {
      cutSeen = log.recoveredFromCutCheckpoint();
      if (cutSeen && viewInRecovered) {
        view();
      }
    }

    @Override
    public byte[] checkpoint(long checkpointLsn) {
      MemorySegment out = MemorySegment.ofArray(new byte[24]);
      out.set(U64, 0, before);
      out.set(U64, 8, region);
      out.set(U64, 16, after);
      return out.toArray(ValueLayout.JAVA_BYTE);
    }
  }
}
