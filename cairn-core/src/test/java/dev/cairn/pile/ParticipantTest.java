package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.participant.CounterTable;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.Participants;
import dev.cairn.pile.participant.PayloadWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The participant contract (dev.cairn.pile.participant) proven with {@link CounterTable}, a
 * structure outside the pile's package: its changes ride the pile's log records, its state the
 * pile's checkpoints, and after every power loss the table and the pile agree and nothing
 * acknowledged is lost. The kill -9 half is {@link ParticipantKillNineTest}.
 */
class ParticipantTest {

  private static final Path DIR = Path.of("/pile");
  private static final List<String> COUNTERS = List.of("a", "b", "c");

  @Test
  void aVolatilePile_appliesAttachments_andAThrowingOneUndoesItsPutOrDelete() {
    CounterTable table = new CounterTable(3);
    try (Pile pile = Participants.offHeap(PileOptions.defaults(), table)) {
      table.attachTo(pile);
      long first = table.add("a", item("a", 1));
      table.add("a", item("a", 2));
      table.remove("a", first);
      table.set("manual", 42);
      assertThat(table.snapshot()).isEqualTo(Map.of("a", 1L, "manual", 42L));
      long before = pile.stats().objectCount();
      assertThatThrownBy(
              () ->
                  Participants.log(pile, table)
                      .put(
                          item("a", 3),
                          1,
                          p -> {
                            throw new IllegalStateException("participant refused");
                          }))
          .hasMessage("participant refused");
      assertThat(pile.stats().objectCount()).isEqualTo(before);
      long kept = table.add("a", item("a", 4));
      Map<String, Long> counted = table.snapshot();
      assertThatThrownBy(
              () ->
                  Participants.log(pile, table)
                      .delete(
                          kept,
                          1,
                          p -> {
                            throw new IllegalStateException("participant refused the delete");
                          }))
          .hasMessage("participant refused the delete");
      assertThat(pile.getBytes(kept))
          .as("a refused delete leaves the value")
          .isEqualTo(item("a", 4));
      assertThat(table.snapshot()).isEqualTo(counted);
      table.remove("a", kept);
      assertThat(table.snapshot()).isEqualTo(Map.of("a", 1L, "manual", 42L));
      pile.verify();
    }
  }

  /**
   * A payload is composed in a staging buffer (up to 4 KiB) or in the block itself: either way one
   * that throws leaves no block behind, and bytes written past its size reach no neighbour.
   */
  @Test
  void aPayloadThatThrowsLeavesNoBlock_andBytesPastItsSizeReachNoNeighbour() {
    CounterTable table = new CounterTable(3);
    try (Pile pile = Participants.offHeap(PileOptions.defaults(), table)) {
      table.attachTo(pile);
      ParticipantLog log = Participants.log(pile, table);
      for (int size : new int[] {40, 4096, 4097, 20_000}) {
        long before = pile.stats().objectCount();
        assertThatThrownBy(() -> log.put(payload(size, true, false), 1, p -> MemorySegment.NULL))
            .as("size %d", size)
            .hasMessage("payload refused");
        assertThat(pile.stats().objectCount()).as("size %d", size).isEqualTo(before);
        long hole = pile.put(new byte[size]); // the payload's block: freed, reused whole
        long neighbour = pile.put(new byte[] {7, 7, 7});
        pile.delete(hole);
        long pointer;
        try {
          pointer = log.put(payload(size, false, true), 1, p -> MemorySegment.NULL);
        } catch (IndexOutOfBoundsException e) {
          pointer = 0; // written in the block: the view is bounded to the payload
        }
        if (pointer != 0) {
          byte[] stored = pile.getBytes(pointer);
          assertThat(stored).as("size %d", size).hasSize(size).containsOnly((byte) 1);
        }
        assertThat(pile.getBytes(neighbour)).isEqualTo(new byte[] {7, 7, 7});
        pile.verify();
      }
    }
  }

  @Test
  void aMarkedPayload_readsBackItsMark_throughAnUpdateInPlaceOrMoved_aCheckpointAndACrash()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    CounterTable table = new CounterTable(9);
    OffHeapPile pile = open(disk, table, "first");
    table.attachTo(pile);
    ParticipantLog log = Participants.log(pile, table);
    long marked = table.add("a", marked(40, (byte) 1, 1));
    long plain = table.add("a", marked(40, (byte) 2, 0));
    long inPlace = table.add("a", marked(40, (byte) 3, 0));
    long moved = table.add("a", marked(40, (byte) 4, 15));
    long highBits = table.add("a", marked(40, (byte) 8, 0b1010));
    assertThat(markOf(log, marked)).isEqualTo(1);
    assertThat(markOf(log, plain)).isZero();
    assertThat(markOf(log, moved)).isEqualTo(15);
    assertThat(markOf(log, highBits)).isEqualTo(0b1010);
    assertThat(pile.getBytes(moved)).as("the pile reads a marked value as bytes").hasSize(40);
    pile.checkpoint();
    table.rewrite("a", inPlace, marked(32, (byte) 5, 13)); // fits its block
    table.rewrite("a", moved, marked(400, (byte) 6, 6)); // moves to a link target
    assertThat(markOf(log, inPlace)).isEqualTo(13);
    assertThat(markOf(log, moved)).isEqualTo(6);
    long afterCheckpoint = table.add("a", marked(24, (byte) 7, 9));
    disk.processCrash(); // SYNC: every write above is in the log; replay rewrites those after it
    abandon(pile);
    CounterTable reopenedTable = new CounterTable(9);
    try (OffHeapPile again = open(disk, reopenedTable, "after a crash")) {
      ParticipantLog reopened = Participants.log(again, reopenedTable);
      assertThat(markOf(reopened, marked)).isEqualTo(1);
      assertThat(markOf(reopened, plain)).isZero();
      assertThat(markOf(reopened, inPlace)).isEqualTo(13);
      assertThat(markOf(reopened, moved)).isEqualTo(6);
      assertThat(markOf(reopened, highBits)).isEqualTo(0b1010);
      assertThat(markOf(reopened, afterCheckpoint)).isEqualTo(9);
      assertThat(again.getBytes(moved)).hasSize(400).containsOnly((byte) 6);
      assertThat(again.getBytes(afterCheckpoint)).hasSize(24).containsOnly((byte) 7);
      again.verify();
    }
  }

  @Test
  void aMarkOutsideFourBits_failsTheWrite_andLeavesNoBlock() {
    CounterTable table = new CounterTable(3);
    try (Pile pile = Participants.offHeap(PileOptions.defaults(), table)) {
      table.attachTo(pile);
      long before = pile.stats().objectCount();
      assertThatThrownBy(() -> table.add("a", marked(40, (byte) 1, 16)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("mark is 0 to 15, not 16");
      assertThat(pile.stats().objectCount()).isEqualTo(before);
      pile.verify();
    }
  }

  private static int markOf(ParticipantLog log, long pointer) {
    return log.read(pointer, (memory, offset, length, kind, mark) -> mark);
  }

  /** A payload of {@code size} bytes {@code fill}, with mark {@code mark}. */
  private static PayloadWriter marked(int size, byte fill, int mark) {
    return payload(size, fill, false, false, mark);
  }

  /**
   * A payload of {@code size} ones; {@code refuse}: throws instead; {@code over}: writes 64 more.
   */
  private static PayloadWriter payload(int size, boolean refuse, boolean over) {
    return payload(size, (byte) 1, refuse, over, 0);
  }

  private static PayloadWriter payload(
      int size, byte fill, boolean refuse, boolean over, int mark) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return size;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        if (refuse) {
          throw new IllegalStateException("payload refused");
        }
        target.asSlice(offset, size).fill(fill);
        if (over) {
          target.asSlice(offset + size, 64).fill((byte) 9);
        }
      }

      @Override
      public int mark() {
        return mark;
      }
    };
  }

  @Test
  void aReadInPlace_seesThePayloadWhereItLies_readOnly_andADeletedValueIsStale() {
    CounterTable table = new CounterTable(3);
    try (Pile pile = Participants.offHeap(PileOptions.defaults(), table)) {
      table.attachTo(pile);
      ParticipantLog log = Participants.log(pile, table);
      byte[] bytes = item("a", 1);
      long pointer = table.add("a", bytes);
      String read =
          log.read(
              pointer,
              (memory, offset, length, kind, mark) -> {
                assertThat(kind).isEqualTo(ValueKind.BYTES);
                assertThat(mark).isZero();
                assertThat(memory.isReadOnly()).isTrue();
                assertThat(memory.byteSize()).isGreaterThan(length);
                return new String(
                    memory.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8);
              });
      assertThat(read).isEqualTo("a:1");
      assertThatThrownBy(
              () ->
                  log.read(
                      pointer,
                      (memory, offset, length, kind, mark) -> {
                        memory.set(ValueLayout.JAVA_BYTE, offset, (byte) 0);
                        return null;
                      }))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("read-only");
      assertThat(pile.getBytes(pointer)).isEqualTo(bytes);
      table.remove("a", pointer);
      assertThatThrownBy(() -> log.read(pointer, (memory, offset, length, kind, mark) -> length))
          .isInstanceOf(StalePointerException.class);
    }
  }

  @Test
  void prefetch_readsAValuesFirstWord_andNeverThrows_forAStaleForeignOrClosedPointer() {
    CounterTable table = new CounterTable(3);
    Pile pile = Participants.offHeap(PileOptions.defaults(), table);
    table.attachTo(pile);
    ParticipantLog log = Participants.log(pile, table);
    long pointer = table.add("a", item("a", 1));
    assertThat(log.prefetch(pointer)).isNotZero(); // the block's header
    table.remove("a", pointer);
    log.prefetch(pointer); // stale: reads whatever word is there
    assertThat(log.prefetch(Pointers.pointer(1, Pointers.MAX_SEGMENTS - 1, 64))).isZero();
    assertThat(log.prefetch(Pointers.pointer(1, 0, Long.MAX_VALUE >>> 30))).isZero();
    pile.close();
    assertThat(log.prefetch(pointer)).isZero();
  }

  @Test
  void aParticipantRegisteredTwiceOrNotAtAll_isACallerError() {
    CounterTable table = new CounterTable(3);
    assertThatThrownBy(
            () -> Participants.offHeap(PileOptions.defaults(), table, new CounterTable(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two participants have id 3");
    assertThatThrownBy(() -> Participants.offHeap(PileOptions.defaults(), new CounterTable(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id=0");
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      assertThatThrownBy(() -> Participants.log(pile, table))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not opened with this participant");
    }
  }

  @Test
  void stateAndRecordsComeBackAtReopen_andAPlainOpenIsRefused() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions options = PileCrashTest.options(Durability.SYNC);
    CounterTable table = new CounterTable(9);
    OffHeapPile pile = open(disk, table, "first");
    table.attachTo(pile);
    for (int i = 0; i < 10; i++) {
      table.add("a", item("a", i));
    }
    pile.checkpoint(); // the state goes into the checkpoint's metadata
    table.add("b", item("b", 0));
    table.set("manual", 7);
    Transaction tx = pile.beginTransaction();
    table.addInTransaction(tx, "c", item("c", 0));
    tx.commit();
    Transaction rolledBack = pile.beginTransaction();
    table.addInTransaction(rolledBack, "c", item("c", 1));
    rolledBack.rollback();
    assertThat(table.snapshot()).isEqualTo(Map.of("a", 10L, "b", 1L, "c", 1L, "manual", 7L));
    disk.processCrash();
    abandon(pile);

    assertThatThrownBy(() -> PersistentStore.open(disk, DIR, options))
        .isInstanceOf(ParticipantRequiredException.class)
        .hasMessageContaining("participant 9");
    try (OffHeapPile readOnly = PersistentStore.open(disk, DIR, options, true)) {
      assertThat(readOnly.stats().objectCount()).as("read-only needs no participant").isEqualTo(12);
    }
    CounterTable reopened = new CounterTable(9);
    try (OffHeapPile again = open(disk, reopened, "reopen")) {
      assertThat(reopened.snapshot()).isEqualTo(Map.of("a", 10L, "b", 1L, "c", 1L, "manual", 7L));
      assertThat(reopened.replayed()).as("records after the checkpoint").isEqualTo(3);
      assertThat(itemsByCounter(again)).isEqualTo(Map.of("a", 10L, "b", 1L, "c", 1L));
    }
    assertThatThrownBy(() -> PersistentStore.open(disk, DIR, options))
        .as("its state is in the checkpoint now")
        .isInstanceOf(ParticipantRequiredException.class)
        .hasMessageContaining("checkpointed state");
    CounterTable afterCleanClose = new CounterTable(9);
    try (OffHeapPile again = open(disk, afterCleanClose, "after a clean close")) {
      assertThat(afterCleanClose.replayed()).as("a clean close checkpointed it all").isZero();
      assertThat(afterCleanClose.snapshot()).containsEntry("manual", 7L);
      assertThat(itemsByCounter(again)).isEqualTo(Map.of("a", 10L, "b", 1L, "c", 1L));
    }
  }

  /** A participant that owns its pile, keeping nothing: a state of one byte. */
  private static final class Owner implements dev.cairn.pile.participant.LogParticipant {
    int statesSeen;

    @Override
    public int id() {
      return 5;
    }

    @Override
    public boolean ownsItsPile() {
      return true;
    }

    @Override
    public void open(ParticipantLog log, byte[] state, long checkpointLsn) {
      statesSeen += state.length;
    }

    @Override
    public void replay(long lsn, int type, MemorySegment payload) {}

    @Override
    public byte[] checkpoint(long checkpointLsn) {
      return new byte[] {1};
    }
  }

  @Test
  void aParticipantThatOwnsItsPile_refusesAPlainPileWithValues_andChangesNothing()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions options = PileCrashTest.options(Durability.SYNC);
    long p;
    try (OffHeapPile plain = PersistentStore.open(disk, DIR, options)) {
      p = plain.put("mine");
    }
    assertThatThrownBy(() -> Participants.open(disk, DIR, options, new Owner()))
        .isInstanceOf(ForeignPileException.class)
        .hasMessageContainingAll("participant 5", "1 values", "left as they were");
    try (Pile readOnly = Participants.openReadOnly(disk, DIR, options, new Owner())) {
      assertThat(readOnly.getString(p)).as("a read-only open does not check").isEqualTo("mine");
    }
    try (OffHeapPile plain = PersistentStore.open(disk, DIR, options)) {
      assertThat(plain.getString(p)).as("still a plain pile").isEqualTo("mine");
      plain.delete(p);
    }
    Owner owner = new Owner();
    try (Pile emptied = Participants.open(disk, DIR, options, owner)) {
      assertThat(owner.statesSeen).as("an emptied pile is adopted").isZero();
      emptied.checkpoint();
    }
    Owner again = new Owner();
    try (Pile owned = Participants.open(disk, DIR, options, again)) {
      owned.put("the owner's now");
    }
    Owner third = new Owner();
    try (Pile owned = Participants.open(disk, DIR, options, third)) {
      assertThat(third.statesSeen).as("its state is in the checkpoint").isEqualTo(1);
      assertThat(owned.stats().objectCount()).isEqualTo(1);
    }
  }

  /**
   * The refusal writes nothing, even where the open would have: a plain pile whose checkpoint holds
   * a value, which then crashed with a transaction unfinished (whose undo an open logs), is refused
   * before its log is opened, and its files are byte for byte as the crash left them.
   */
  @Test
  void aForeignPile_isRefusedBeforeItsRecoveryWritesAnything() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions options = PileCrashTest.options(Durability.SYNC);
    OffHeapPile plain = PersistentStore.open(disk, DIR, options);
    long kept = plain.put("committed");
    plain.checkpoint();
    Transaction unfinished = plain.beginTransaction();
    unfinished.put("never committed");
    disk.processCrash();
    abandon(plain);
    Map<Path, byte[]> before = contents(disk, DIR);

    assertThatThrownBy(() -> Participants.open(disk, DIR, options, new Owner()))
        .isInstanceOf(ForeignPileException.class);
    Map<Path, byte[]> after = contents(disk, DIR);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    before.forEach((file, bytes) -> assertThat(after.get(file)).as("%s", file).isEqualTo(bytes));
    try (OffHeapPile again = PersistentStore.open(disk, DIR, options)) {
      assertThat(again.getString(kept)).isEqualTo("committed");
      assertThat(again.stats().objectCount()).as("the transaction undone by its own open").isOne();
    }
  }

  private static Map<Path, byte[]> contents(SimulatedDisk disk, Path directory) throws IOException {
    Map<Path, byte[]> files = new HashMap<>();
    for (Path path : disk.list(directory)) {
      if (disk.isDirectory(path)) {
        files.putAll(contents(disk, path));
      } else {
        files.put(path, disk.currentContent(path));
      }
    }
    return files;
  }

  /**
   * A put without waiting returns while the log's forces are held (a waited put would block until
   * they go on); power lost right after it may keep it or not, but whole: the table and the pile
   * agree, and what was acknowledged before it is there.
   */
  @Test
  void aPutWithoutWaiting_returnsBeforeItsForce_andALossKeepsItWholeOrNotAtAll() {
    for (long seed = 0; seed < 8; seed++) {
      String label = "seed " + seed;
      acrossPowerLoss(
          seed,
          (disk, table) -> {
            table.add("a", item("a", 0));
            disk.holdForces();
            assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> table.addWithoutWaiting("b", item("b", 0)), label);
          },
          (again, reopened) -> {
            Map<String, Long> counted = reopened.snapshot();
            assertThat(counted).as(label).containsEntry("a", 1L);
            assertThat(counted)
                .as(label + ": counters against items")
                .isEqualTo(itemsByCounter(again));
            again.verify();
          });
    }
  }

  /** A waited write after a put without waiting makes both durable: the log is forced in order. */
  @Test
  void aWaitedWriteAfterAPutWithoutWaiting_makesBothDurable() {
    for (long seed = 0; seed < 8; seed++) {
      String label = "seed " + seed;
      long[] unwaited = new long[1];
      acrossPowerLoss(
          seed,
          (disk, table) -> {
            unwaited[0] = table.addWithoutWaiting("b", item("b", 0));
            table.add("c", item("c", 0));
          },
          (again, reopened) -> {
            assertThat(reopened.snapshot()).as(label).isEqualTo(Map.of("b", 1L, "c", 1L));
            assertThat(itemsByCounter(again)).as(label).isEqualTo(Map.of("b", 1L, "c", 1L));
            assertThat(again.getBytes(unwaited[0])).as(label).isEqualTo(item("b", 0));
          });
    }
  }

  /**
   * Runs {@code writes} on a new SYNC pile with a {@link CounterTable}, loses power ({@code seed}
   * decides which unforced pages reach the disk), lets held forces go on, reopens, and runs {@code
   * check} on the recovered pile and table.
   */
  private static void acrossPowerLoss(
      long seed,
      BiConsumer<SimulatedDisk, CounterTable> writes,
      BiConsumer<OffHeapPile, CounterTable> check) {
    String label = "seed " + seed;
    SimulatedDisk disk = new SimulatedDisk();
    CounterTable table = new CounterTable(9);
    OffHeapPile pile = open(disk, table, label);
    table.attachTo(pile);
    try {
      writes.accept(disk, table);
      disk.powerLoss(seed);
    } finally {
      disk.releaseForces();
    }
    abandon(pile);
    disk.reboot();
    CounterTable reopened = new CounterTable(9);
    try (OffHeapPile again = open(disk, reopened, label + " reopen")) {
      check.accept(again, reopened);
    }
  }

  /**
   * Power lost at random moments of adds, removes, counter sets, transactions and checkpoints,
   * several times over one disk: after each recovery every counter equals the number of its items
   * in the pile, every acknowledged add and remove holds, and a set counter has its last
   * acknowledged value (or the one in flight).
   */
  @Test
  void afterEveryPowerLoss_theTableAndThePileAgree_andNothingAcknowledgedIsLost()
      throws IOException {
    long seed = PileTestSupport.seed("afterEveryPowerLoss_theTableAndThePileAgree");
    int disks = Integer.getInteger("cairn.crash.cycles", 40) / 4;
    for (int d = 0; d < Math.max(disks, 4); d++) {
      SplittableRandom random = new SplittableRandom(seed + d);
      SimulatedDisk disk = new SimulatedDisk();
      Map<Long, String> live = new HashMap<>(); // acknowledged items and their counter
      Set<Long> removed = new HashSet<>();
      long manual = 0;
      int seq = 0;
      for (int crash = 0; crash < 4; crash++) {
        String label = "seed " + seed + " disk " + d + " crash " + crash;
        CounterTable table = new CounterTable(5);
        OffHeapPile pile = open(disk, table, label);
        table.attachTo(pile);
        checkAgreement(pile, table, live, removed, manual, label);
        disk.crashAtOperation(disk.operationCount() + 10 + random.nextInt(300), random.nextLong());
        long inFlightSet = -1;
        long inFlightRemove = Pile.NULL;
        try {
          for (int op = 0; op < 5_000; op++) {
            int choice = random.nextInt(20);
            if (choice < 10 || live.isEmpty()) {
              String counter = COUNTERS.get(random.nextInt(COUNTERS.size()));
              long pointer = table.add(counter, item(counter, seq++));
              live.put(pointer, counter);
            } else if (choice < 16) {
              long pointer = new ArrayList<>(live.keySet()).get(random.nextInt(live.size()));
              inFlightRemove = pointer;
              table.remove(live.get(pointer), pointer);
              inFlightRemove = Pile.NULL;
              live.remove(pointer);
              removed.add(pointer);
            } else if (choice < 18) {
              long value = 1L + random.nextInt(1000);
              inFlightSet = value;
              table.set("manual", value);
              manual = value;
              inFlightSet = -1;
            } else if (choice < 19) {
              Transaction tx = pile.beginTransaction();
              String counter = COUNTERS.get(random.nextInt(COUNTERS.size()));
              table.addInTransaction(tx, counter, item(counter, seq++));
              tx.commit();
            } else {
              pile.checkpoint();
            }
          }
        } catch (RuntimeException crashed) {
          // the power went
        }
        disk.disarmCrash();
        abandon(pile);
        disk.reboot();
        if (inFlightSet >= 0 || inFlightRemove != Pile.NULL) { // cut by the crash: either way
          CounterTable peek = new CounterTable(5);
          try (OffHeapPile reopened = open(disk, peek, label)) {
            if (inFlightSet >= 0 && peek.get("manual") == inFlightSet) {
              manual = inFlightSet;
            }
            if (inFlightRemove != Pile.NULL) {
              try {
                reopened.sizeOf(inFlightRemove);
              } catch (PointerException gone) {
                live.remove(inFlightRemove);
                removed.add(inFlightRemove);
              }
            }
          }
        }
      }
    }
  }

  private static OffHeapPile open(SimulatedDisk disk, CounterTable table, String label) {
    try {
      return (OffHeapPile)
          Participants.open(disk, DIR, PileCrashTest.options(Durability.SYNC), table);
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(label + ": recovery failed", e);
    }
  }

  /** The table equals the pile's items per counter; acknowledged adds live, removes gone. */
  private static void checkAgreement(
      Pile pile,
      CounterTable table,
      Map<Long, String> live,
      Set<Long> removed,
      long manual,
      String label) {
    Map<String, Long> items = itemsByCounter(pile);
    Map<String, Long> counted = new HashMap<>(table.snapshot());
    assertThat(counted.remove("manual"))
        .as(label + ": manual")
        .isEqualTo(manual == 0 ? null : manual);
    assertThat(counted).as(label + ": counters against the pile's items").isEqualTo(items);
    for (Map.Entry<Long, String> item : live.entrySet()) {
      assertThat(new String(pile.getBytes(item.getKey()), StandardCharsets.UTF_8))
          .as(label + ": acknowledged add")
          .startsWith(item.getValue() + ":");
    }
    for (long pointer : removed) {
      assertThatThrownBy(() -> pile.getBytes(pointer))
          .as(label + ": acknowledged remove")
          .isInstanceOf(PointerException.class);
    }
    pile.verify();
  }

  static Map<String, Long> itemsByCounter(Pile pile) {
    Map<String, Long> items = new HashMap<>();
    pile.forEach(
        (pointer, kind, sizeBytes) -> {
          String text = new String(pile.getBytes(pointer), StandardCharsets.UTF_8);
          items.merge(text.substring(0, text.indexOf(':')), 1L, Long::sum);
        });
    return items;
  }

  static byte[] item(String counter, int seq) {
    return (counter + ":" + seq).getBytes(StandardCharsets.UTF_8);
  }

  private static void abandon(OffHeapPile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk crashed under it
    }
  }
}
