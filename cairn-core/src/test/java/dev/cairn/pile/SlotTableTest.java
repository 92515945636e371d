package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.file.Superblock;
import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.participant.LogParticipant;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.Participants;
import dev.cairn.pile.participant.PayloadWriter;
import dev.cairn.pile.participant.SlotTable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Regions ({@link ParticipantLog#region}, {@link ParticipantLog#written}) and the participant's
 * payload writes, proven with {@link SlotTable}: a participant whose state is 8-byte slots in pile
 * blocks it writes in place, from attachments of writes on any stripe. After every power loss (with
 * writers on more threads than cores and checkpoints running) every slot holds a live pointer to
 * the value recorded, every acknowledged change is there, nothing removed comes back, and the pile
 * verifies; a region write landing after a checkpoint copied its page reaches the next checkpoint.
 * The kill -9 half is {@link SlotKillNineTest}.
 */
class SlotTableTest {

  private static final Path DIR = Path.of("/pile");
  private static final int ID = 7;
  private static final int SLOTS = 2048; // 16 KiB regions: five pages each
  private static final int REGIONS = 2;

  static PileOptions options(Durability durability) {
    return PileOptions.builder()
        .segmentBytes(256 << 10)
        .stripes(4)
        .durability(durability)
        .logFileBytes(1 << 20)
        .logFileCount(4)
        .build();
  }

  // =========================================================================================
  // the API

  @Test
  void aVolatilePile_keepsSlotsInRegions_andChecksWhatItIsGiven() {
    PileOptions options = PileOptions.builder().codecs(CodecRegistry.builtIn()).build();
    SlotTable table = new SlotTable(ID, 512);
    try (Pile pile = Participants.offHeap(options, table)) {
      ParticipantLog log = Participants.log(pile, table);
      assertThat(log).as("the log open() got").isSameAs(table.log());
      assertThat(log.codecs()).isSameAs(options.codecs());
      int r = table.addRegion();
      long region = table.regionPointer(r);
      assertThat(pile.kindOf(region)).isEqualTo(ValueKind.BYTES);
      assertThat(log.region(region).byteSize()).isEqualTo(512 * 8);

      long a = table.put(r, 3, bytes("a"));
      assertThat(table.get(r, 3)).isEqualTo(a);
      table.move(r, 3, r, 9);
      assertThat(table.get(r, 3)).isZero();
      assertThat(table.get(r, 9)).isEqualTo(a);
      byte[] big = SlotModel.value(0, 1, 5000);
      table.update(r, 9, big, true); // moves: through the pile's link
      assertThat(pile.getBytes(a)).isEqualTo(big);
      assertThat(pile.stats().linkCount()).isEqualTo(1);
      table.update(r, 9, bytes("small again"), false);
      assertThat(pile.getBytes(a)).isEqualTo(bytes("small again"));
      table.delete(r, 9);
      assertThat(table.get(r, 9)).isZero();
      assertThatThrownBy(() -> pile.getBytes(a)).isInstanceOf(StalePointerException.class);
      try (Transaction tx = pile.beginTransaction()) {
        table.putInTransaction(tx, r, 4, bytes("rolled back"));
        tx.rollback();
      }
      assertThat(table.get(r, 4)).as("a rolled back attachment is never applied").isZero();

      assertThatThrownBy(() -> log.written(region, 512 * 8 - 4, 8))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> log.written(region, -1, 8))
          .isInstanceOf(IndexOutOfBoundsException.class);
      long text = pile.put("text");
      assertThatThrownBy(() -> log.region(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("kind=string");
      assertThatThrownBy(() -> log.written(text, 0, 1))
          .isInstanceOf(IllegalArgumentException.class);
      pile.delete(text);
      assertThatThrownBy(() -> log.region(text)).isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> log.written(text, 0, 1)).isInstanceOf(StalePointerException.class);
      // inside an attachment, region() refuses a block of another stripe than the one held (a
      // lock-order inversion) and takes the held one's again (RG4): which this append holds
      // depends on the thread, so either may happen here
      try {
        log.append(1, ignored -> log.region(region).asSlice(0, 0));
      } catch (IllegalStateException refused) {
        assertThat(refused).hasMessageContaining("inside an Attachment");
      }
      long made =
          log.put(
              new PayloadWriter() {
                @Override
                public int sizeBytes() {
                  return 64;
                }

                @Override
                public void writeTo(MemorySegment target, long offset) {
                  target.asSlice(offset, 64).fill((byte) 0);
                }
              },
              1,
              p -> {
                log.region(p)
                    .set(ValueLayout.JAVA_LONG, 0, 7L); // the put's own block: its owner held
                log.written(p, 0, 8);
                return MemorySegment.NULL;
              });
      assertThat(log.region(made).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(7L);

      assertThat(log.allocatedBytes(0)).isEqualTo(32); // the smallest block
      assertThat(log.allocatedBytes(100)).isEqualTo(112); // 8 + 100, rounded to 8
      long before = pile.stats().allocatedBytes();
      log.put(payload(new byte[100]), 2, p -> MemorySegment.ofArray(new byte[0]));
      assertThat(pile.stats().allocatedBytes() - before).isEqualTo(log.allocatedBytes(100));
      assertThatThrownBy(() -> log.allocatedBytes(-1)).isInstanceOf(IllegalArgumentException.class);

      long objects = pile.stats().objectCount();
      assertThatThrownBy(() -> log.put(payload(-1), 2, p -> MemorySegment.NULL))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("sizeBytes=-1");
      assertThatThrownBy(() -> log.put(throwing(64), 2, p -> MemorySegment.NULL))
          .hasMessage("payload refused");
      assertThat(pile.stats().objectCount())
          .as("a throwing payload leaves no value")
          .isEqualTo(objects);
      pile.verify();
    }
  }

  /**
   * Values whose bytes a participant writes itself: put, updated in place, moved through a link,
   * with a payload or an attachment that throws; all of it survives a crash exactly as memory held
   * it (what a payload that threw in place wrote included: memory and log agree).
   */
  @Test
  void payloadWrites_areBytesValues_andACrashKeepsThemAsMemoryHeldThem() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    SlotTable table = new SlotTable(ID, 256);
    OffHeapPile pile = open(disk, table, Durability.SYNC, "first");
    ParticipantLog log = table.log();
    long small = log.put(payload(bytes("small")), 2, p -> MemorySegment.ofArray(new byte[0]));
    long grows = log.put(payload(bytes("grows")), 2, p -> MemorySegment.ofArray(new byte[0]));
    long inPlace =
        log.put(payload(SlotModel.value(1, 1, 300)), 2, p -> MemorySegment.ofArray(new byte[0]));
    log.update(small, payload(bytes("smaller")), 2, null);
    log.update(
        grows, payload(SlotModel.value(1, 2, 3000)), 2, p -> MemorySegment.ofArray(new byte[0]));
    assertThat(pile.stats().linkCount()).isEqualTo(1);
    ValueKind kind = pile.read(grows, (found, bytes) -> found);
    assertThat(kind).isEqualTo(ValueKind.BYTES);

    assertThatThrownBy(() -> log.update(small, throwing(5000), 2, null))
        .hasMessage("payload refused");
    assertThat(pile.getBytes(small))
        .as("a value that was to move is intact")
        .isEqualTo(bytes("smaller"));
    assertThatThrownBy(() -> log.update(inPlace, throwing(200), 2, null))
        .hasMessage("payload refused");
    byte[] halfWritten = pile.getBytes(inPlace);
    assertThatThrownBy(
            () ->
                log.update(
                    small,
                    payload(bytes("kept")),
                    2,
                    p -> {
                      throw new IllegalStateException("attachment refused");
                    }))
        .hasMessage("attachment refused");
    assertThat(pile.getBytes(small)).as("the update stays").isEqualTo(bytes("kept"));
    assertThatThrownBy(() -> log.update(small, payload(bytes("x")), 256, p -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("type=256");
    assertThat(pile.getBytes(small)).as("a bad type is refused first").isEqualTo(bytes("kept"));
    // the failed writes were logged, not waited for: an acknowledged write forces them too
    log.put(payload(bytes("forces the log")), 2, p -> MemorySegment.ofArray(new byte[0]));
    pile.verify();

    disk.processCrash();
    abandon(pile);
    SlotTable again = new SlotTable(ID, 256);
    try (OffHeapPile reopened = open(disk, again, Durability.SYNC, "reopen")) {
      assertThat(reopened.getBytes(small)).isEqualTo(bytes("kept"));
      assertThat(reopened.getBytes(grows)).isEqualTo(SlotModel.value(1, 2, 3000));
      assertThat(reopened.getBytes(inPlace))
          .as("what the throwing payload left, as logged")
          .isEqualTo(halfWritten);
      reopened.verify();
    }
  }

  /** A point, stored with the object codec: its type id lives in the pile's catalog. */
  record Point(int x, int y) {}

  /**
   * The codecs a participant composes payloads with are the pile's own, with its catalog: a value
   * encoded by type id in one process decodes in the next.
   */
  @Test
  void codecs_areThePilesOwn_withItsTypeCatalog() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(256 << 10)
            .durability(Durability.SYNC)
            .codecs(CodecRegistry.builder().allow(Point.class).build())
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    SlotTable table = new SlotTable(ID, 64);
    long pointer;
    try (Pile pile = Participants.open(disk, DIR, options, table)) {
      CodecRegistry codecs = table.log().codecs();
      assertThat(codecs).as("wrapped with the pile's catalog").isNotSameAs(options.codecs());
      int typeId = codecs.typeIdOf(Point.class);
      Codec<Point> codec = codecs.codecOf(typeId);
      Point point = new Point(3, -4);
      int size = codec.encodedSize(point);
      pointer =
          table
              .log()
              .put(
                  new PayloadWriter() {
                    @Override
                    public int sizeBytes() {
                      return 4 + size;
                    }

                    @Override
                    public void writeTo(MemorySegment target, long offset) {
                      target.set(ValueLayout.JAVA_INT_UNALIGNED, offset, typeId);
                      codec.encode(point, target, offset + 4);
                    }
                  },
                  2,
                  p -> MemorySegment.ofArray(new byte[0]));
      assertThat(pile.kindOf(pointer)).isEqualTo(ValueKind.BYTES);
    }
    SlotTable again = new SlotTable(ID, 64);
    try (Pile pile = Participants.open(disk, DIR, options, again)) {
      Point read =
          pile.read(
              pointer,
              (kind, bytes) -> {
                int typeId = bytes.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                Codec<Point> codec = again.log().codecs().codecOf(typeId);
                return codec.decode(bytes, 4, (int) bytes.byteSize() - 4);
              });
      assertThat(read).isEqualTo(new Point(3, -4));
    }
  }

  /**
   * While the pile is being opened (open, replay, recovered) a participant's log takes no write:
   * each throws IllegalStateException, saying why.
   */
  @Test
  void whileThePileIsBeingOpened_theLogTakesNoWrites() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    Probe first = new Probe();
    OffHeapPile pile = (OffHeapPile) Participants.open(disk, DIR, options(Durability.SYNC), first);
    assertThat(first.refusals).as("a new pile: open and recovered").hasSize(2 * 4);
    first.log.awaitDurable(first.log.append(1, ignored -> MemorySegment.ofArray(new byte[1])));
    disk.processCrash();
    abandon(pile);
    Probe second = new Probe();
    try (Pile reopened = Participants.open(disk, DIR, options(Durability.SYNC), second)) {
      assertThat(second.refusals).as("open, one replay, recovered").hasSize(3 * 4);
      assertThat(second.refusals)
          .allSatisfy(
              e ->
                  assertThat(e)
                      .isInstanceOf(IllegalStateException.class)
                      .hasMessageContaining("being opened"));
      second.log.append(1, ignored -> MemorySegment.ofArray(new byte[1])); // open now
      assertThat(reopened.stats().objectCount()).as("nothing the refused writes made").isZero();
    }
  }

  /** Tries every write at each step of the open; keeps what was thrown. */
  private static final class Probe implements LogParticipant {
    final List<RuntimeException> refusals = new ArrayList<>();
    ParticipantLog log;

    @Override
    public int id() {
      return 9;
    }

    @Override
    public void open(ParticipantLog log, byte[] state, long checkpointLsn) {
      this.log = log;
      tryWrites();
    }

    @Override
    public void replay(long lsn, int type, MemorySegment payload) {
      tryWrites();
    }

    @Override
    public void recovered() {
      tryWrites();
    }

    private void tryWrites() {
      List<Runnable> writes =
          List.of(
              () -> log.put("x", 1, p -> MemorySegment.ofArray(new byte[0])),
              () -> log.put(payload(new byte[8]), 1, p -> MemorySegment.ofArray(new byte[0])),
              () -> log.append(1, p -> MemorySegment.ofArray(new byte[0])),
              () -> log.delete(1L << 40, 1, p -> MemorySegment.ofArray(new byte[0])));
      for (Runnable write : writes) {
        try {
          write.run();
        } catch (RuntimeException e) {
          refusals.add(e);
        }
      }
    }

    @Override
    public byte[] checkpoint(long checkpointLsn) {
      return new byte[0];
    }
  }

  /**
   * Region writes reach the segment files only through a checkpoint: the segments are mapped
   * copy-on-write (or anonymous), so the kernel never writes them back in between.
   */
  @Test
  void regionWrites_reachTheFilesOnlyAtACheckpoint(@TempDir Path temp) throws IOException {
    Path directory = temp.resolve("pile");
    SlotTable table = new SlotTable(ID, 512);
    try (Pile pile = Participants.open(directory, options(Durability.SYNC), table)) {
      table.addRegion();
      pile.checkpoint(); // the region's segment has its file
      long region = table.regionPointer(0);
      long at = Pointers.offsetBytes(region) + BlockLayout.HEADER_BYTES + 5L * Long.BYTES;
      Path file = PileFiles.segmentFile(directory, Pointers.segment(region));
      long pointer = table.put(0, 5, bytes("in memory only"));
      assertThat(fileWord(file, at)).as("before a checkpoint").isZero();
      pile.checkpoint();
      assertThat(fileWord(file, at)).as("after it").isEqualTo(pointer);
    }
  }

  private static long fileWord(Path file, long at) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return MemorySegment.ofArray(bytes).get(ValueLayout.JAVA_LONG_UNALIGNED, at);
  }

  // =========================================================================================
  // a region write racing a checkpoint

  /**
   * SW1, deterministically: a checkpoint copies the page of a region's slot; right after the copy
   * (under the owner's lock, as a region writer on another stripe could) the slot is written and
   * reported. The page must stay dirty, and the next checkpoint write it: the write is not logged
   * here, so after a crash only the files can hold it. Copying first and clearing the mark after,
   * as the checkpoint did before regions, loses it.
   */
  @Test
  void aRegionWriteLandingAfterACheckpointCopiedItsPage_reachesTheNextCheckpoint()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    SlotTable table = new SlotTable(ID, SLOTS);
    OffHeapPile pile = open(disk, table, Durability.SYNC, "first");
    table.addRegion();
    pile.checkpoint(); // the region's segment has its file
    long region = table.regionPointer(0);
    int slot = 1000;
    long at = Pointers.offsetBytes(region) + BlockLayout.HEADER_BYTES + (long) slot * Long.BYTES;
    long page = at / NativeSegment.PAGE_BYTES;
    NativeSegment segment = pile.segmentTable().segmentAt(Pointers.segment(region));
    long put = table.put(0, slot, bytes("logged")); // the page is dirty: the next checkpoint
    // copies it
    long mark = 0x5EED_0000_0000_0001L;
    AtomicInteger fired = new AtomicInteger();
    pile.store()
        .onPageCopiedForTests(
            (copied, copiedPage) -> {
              if (copied == segment && copiedPage == page && fired.getAndIncrement() == 0) {
                table.view(0).set(ValueLayout.JAVA_LONG, (long) slot * Long.BYTES, mark);
                table.log().written(region, (long) slot * Long.BYTES, Long.BYTES);
              }
            });
    pile.checkpoint();
    pile.store().onPageCopiedForTests(null);
    assertThat(fired.get()).as("the page was copied").isEqualTo(1);
    assertThat(segment.isDirty(page)).as("the mark set after the copy stays").isTrue();
    assertThat(fileWord(disk, PileFiles.segmentFile(DIR, segment.index()), at))
        .as("the copy was taken before the write")
        .isEqualTo(put);
    pile.checkpoint();
    assertThat(segment.isDirty(page)).isFalse();
    disk.powerLoss(1);
    abandon(pile);
    disk.reboot();
    SlotTable again = new SlotTable(ID, SLOTS);
    try (OffHeapPile reopened = open(disk, again, Durability.SYNC, "after the power loss")) {
      assertThat(again.get(0, slot)).as("the write reached the files").isEqualTo(mark);
      reopened.verify();
    }
  }

  /**
   * SW2, deterministically: while a checkpoint copies the pages of a region's segment (stripe B's),
   * a put on stripe A writes a slot on a page the copy has yet to reach, and stays inside its
   * attachment, its record not yet in the log. The checkpoint must not write that page to its file
   * before the record is logged. A copy of the disk taken once the checkpoint waits for stripe A,
   * powered off and recovered, holds the put wholly or not at all: never the slot without its
   * value. (Taking the log's end under B's lock alone, the page reaches the file with a pointer no
   * log record allocates.)
   */
  @Test
  void aRegionWriteInAPageBeingCopied_isLoggedBeforeThePageReachesItsFile() throws Exception {
    SimulatedDisk disk = new SimulatedDisk();
    SlotTable table = new SlotTable(ID, SLOTS);
    OffHeapPile pile = open(disk, table, Durability.SYNC, "first");
    table.addRegion(); // segment B, the first
    NativeSegment regionSegment =
        pile.segmentTable().segmentAt(Pointers.segment(table.regionPointer(0)));
    Stripe regionOwner = pile.segmentTable().ownerOf(regionSegment.index());
    SlotModel model = new SlotModel(SLOTS);
    int probes = 0;
    for (int t = 0; t < 8; t++) { // each new thread writes on the next stripe: all get segments
      byte[] value = SlotModel.value(t, 0, 64);
      int slot = 100 + probes++;
      Thread thread = Thread.ofPlatform().start(() -> table.put(0, slot, value));
      thread.join();
      model.acknowledged(new SlotModel.Put(0, slot, value), table.get(0, slot));
    }
    pile.checkpoint(); // every segment has its file now, the region's first

    int slot = SLOTS - 1; // on a page after the first
    long slotPage =
        (Pointers.offsetBytes(table.regionPointer(0))
                + BlockLayout.HEADER_BYTES
                + (long) slot * Long.BYTES)
            / NativeSegment.PAGE_BYTES;
    byte[] value = SlotModel.value(99, 1, 64);
    AtomicReference<Stripe> writerStripe = new AtomicReference<>();
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread writer = null;
    for (int attempt = 0; writer == null; attempt++) {
      assertThat(attempt).as("a thread writing on another stripe than the region's").isLessThan(16);
      byte[] probeValue = SlotModel.value(98, attempt, 16);
      int probeSlot = 100 + probes++;
      CountDownLatch probed = new CountDownLatch(1);
      AtomicReference<Stripe> mine = new AtomicReference<>();
      Thread candidate =
          Thread.ofPlatform()
              .start(
                  () -> {
                    table.put(0, probeSlot, probeValue, () -> mine.set(heldStripe(pile)));
                    probed.countDown();
                    if (mine.get() != regionOwner) {
                      awaitUninterruptibly(go);
                      table.put(
                          0,
                          slot,
                          value,
                          () -> {
                            writerStripe.set(heldStripe(pile));
                            inside.countDown();
                            awaitUninterruptibly(
                                release); // stripe A held, the record not yet appended
                          });
                    }
                  });
      probed.await();
      model.acknowledged(new SlotModel.Put(0, probeSlot, probeValue), table.get(0, probeSlot));
      if (mine.get() != regionOwner) {
        writer = candidate;
      } else {
        candidate.join();
      }
    }
    table.put(0, 0, SlotModel.value(97, 0, 16)); // dirties the region's first page
    model.acknowledged(new SlotModel.Put(0, 0, SlotModel.value(97, 0, 16)), table.get(0, 0));
    AtomicBoolean fired = new AtomicBoolean();
    pile.store()
        .onPageCopiedForTests(
            (segment, page) -> {
              if (segment == regionSegment && page < slotPage && fired.compareAndSet(false, true)) {
                go.countDown(); // the write starts now, on stripe A, and lands before the copy
                // gets there
                awaitUninterruptibly(inside);
              }
            });
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    Thread checkpoint =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    pile.checkpoint();
                  } catch (RuntimeException e) {
                    failures.add(e);
                  }
                });
    assertThat(inside.await(30, TimeUnit.SECONDS)).as("the write started").isTrue();
    Stripe a = writerStripe.get();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!a.hasQueuedThreads()) { // the checkpoint waits for stripe A: past the region's pages
      assertThat(System.nanoTime()).as("the checkpoint reached stripe A").isLessThan(deadline);
      Thread.sleep(1);
    }
    SimulatedDisk atThatMoment = disk.snapshot();
    release.countDown();
    writer.join();
    checkpoint.join();
    pile.store().onPageCopiedForTests(null);
    assertThat(failures).isEmpty();
    assertThat(table.get(0, slot)).as("the put returned").isNotZero();
    pile.close();

    atThatMoment.powerLoss(7);
    atThatMoment.reboot();
    SlotTable again = new SlotTable(ID, SLOTS);
    try (OffHeapPile recovered = open(atThatMoment, again, Durability.SYNC, "the copy")) {
      model.checkAfterRecovery(
          recovered,
          again,
          List.of(new SlotModel.Put(0, slot, value)),
          1,
          "the disk as the checkpoint waited for stripe A");
    }
  }

  /**
   * RG2 after a checkpoint cut short while it wrote pages in place: a region page it wrote, whose
   * checksum it did not, differs from that checksum until the replay rewrites it. The replay takes
   * the pages a record rewrites as they are (as the pile's own replay does) and checks the region's
   * other pages once it is over; checking them all at region(), as after an open, would call the
   * page damaged and fail the open.
   */
  @Test
  void aReplayAfterACheckpointCutWhileWritingInPlace_takesTheRegionPagesItRewritesAsTheyAre()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    SlotModel model = cutWhileWritingARegionPage(disk, false);
    SlotTable again = new SlotTable(ID, SLOTS);
    try (OffHeapPile reopened = open(disk, again, Durability.SYNC, "after the cut checkpoint")) {
      assertThat(again.replayed()).isPositive();
      model.checkAfterRecovery(reopened, again, List.of(), 1, "after the cut checkpoint");
      reopened.checkpoint();
      assertThat(reopened.store().verifyPageChecksums()).isPositive();
    }
  }

  /** The same, with a region page the replay does not rewrite damaged on disk: still found. */
  @Test
  void aReplayAfterACheckpointCutWhileWritingInPlace_stillFindsDamageOnTheRegionsOtherPages()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    cutWhileWritingARegionPage(disk, true);
    SlotTable again = new SlotTable(ID, SLOTS);
    assertThatThrownBy(() -> Participants.open(disk, DIR, options(Durability.SYNC), again))
        .as("recovered() takes the region again: its damaged page is reported")
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("page 1 ");
  }

  /**
   * RG2 over two crashes: the open after a checkpoint cut while it wrote pages in place loses power
   * in turn at each of its mutating operations (its replay's, its checkpoints', its close's), under
   * several seeds; the open after that must recover all the same. Its checkpoint writes the
   * metadata slot the superblock does not name over the cut checkpoint's, so a power loss in that
   * write leaves a torn metadata file where the evidence of the cut was, while the page the cut
   * checkpoint wrote in place still differs from its checksum.
   */
  @Test
  void anOpenAfterACutCheckpoint_losingPowerAtAnyOperation_leavesFilesTheNextOpenRecovers()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    SlotModel model = cutWhileWritingARegionPage(disk, false);
    Path superblockFile = DIR.resolve(PileFiles.SUPERBLOCK);
    int toldByTheFlagAlone = 0;
    boolean completed = false;
    for (int n = 1; !completed; n++) {
      assertThat(n).as("the open and its checkpoints end").isLessThan(1_000);
      completed = true;
      for (long seed = 0; seed < 4; seed++) {
        String label = "power lost at operation " + n + " seed " + seed;
        SimulatedDisk copy = disk.snapshot();
        copy.crashAtOperation(n, seed);
        try {
          Pile attempt =
              Participants.open(copy, DIR, options(Durability.SYNC), new SlotTable(ID, SLOTS));
          try {
            attempt.checkpoint();
          } finally {
            abandon(attempt);
          }
        } catch (IOException | RuntimeException crashed) {
          // the power went during the open, a checkpoint or the close
        }
        copy.disarmCrash();
        boolean lost = copy.isDown();
        if (lost) {
          copy.reboot();
        }
        Superblock.State state = Superblock.read(copy, superblockFile);
        PileFiles.Geometry geometry = PileFiles.Geometry.decode(superblockFile, state.payload());
        if (lost) {
          completed = false;
          if (!PileRecovery.checkpointWasCut(copy, DIR, geometry, state.checkpointLsn())
              && PileRecovery.cutBehind(copy, DIR, state, geometry)) {
            toldByTheFlagAlone++; // the metadata slot torn or overwritten: CC2
          }
        } else {
          assertThat(state.cleanShutdown()).as(label + ": closed cleanly").isTrue();
          assertThat(PileFiles.Geometry.flagsOf(state.payload()))
              .as(label + ": a completed checkpoint clears the flag")
              .isZero();
        }
        SlotTable again = new SlotTable(ID, SLOTS);
        try (OffHeapPile reopened = open(copy, again, Durability.SYNC, label)) {
          model.checkAfterRecovery(reopened, again, List.of(), 1, label);
        }
      }
    }
    assertThat(toldByTheFlagAlone)
        .as("power losses after which only the superblock's flag told of the cut")
        .isPositive();
  }

  /**
   * A pile whose last checkpoint was cut after it wrote the metadata slot the superblock does not
   * name and a region's page in place, before that page's checksum: the page differs from its
   * recorded checksum, and a record after the checkpoint rewrites a slot on it. With {@code
   * damage}, the region's page before it is damaged on disk too. Returns what the slots hold.
   */
  private static SlotModel cutWhileWritingARegionPage(SimulatedDisk disk, boolean damage)
      throws IOException {
    SlotTable table = new SlotTable(ID, SLOTS);
    OffHeapPile pile = open(disk, table, Durability.SYNC, "first");
    table.addRegion();
    SlotModel model = new SlotModel(SLOTS);
    byte[] first = SlotModel.value(1, 1, 32);
    model.acknowledged(new SlotModel.Put(0, 3, first), table.put(0, 3, first));
    pile.checkpoint();
    int slot = 1200; // on the region's third page, away from the values put after it
    byte[] second = SlotModel.value(1, 2, 32);
    model.acknowledged(new SlotModel.Put(0, slot, second), table.put(0, slot, second));
    NativeSegment segment = pile.segmentTable().segmentAt(Pointers.segment(table.regionPointer(0)));
    long page =
        (Pointers.offsetBytes(table.regionPointer(0))
                + BlockLayout.HEADER_BYTES
                + (long) slot * Long.BYTES)
            / NativeSegment.PAGE_BYTES;
    assertThat(page).isEqualTo(2);
    try (FileHandle file =
        disk.open(PileFiles.segmentFile(DIR, segment.index()), FileLayer.OpenMode.READ_WRITE)) {
      file.write(
          segment.memory().asSlice(page * NativeSegment.PAGE_BYTES, NativeSegment.PAGE_BYTES),
          page * NativeSegment.PAGE_BYTES);
      if (damage) {
        file.write(MemorySegment.ofArray(new byte[] {0x5A}), NativeSegment.PAGE_BYTES + 100);
      }
      file.force();
    }
    PileFiles.Geometry geometry = pile.store().geometry();
    Checkpointer.writeMetaFile(
        disk,
        PileFiles.metaFile(DIR, 1 - geometry.metaSlot()),
        MemorySegment.ofArray(disk.currentContent(PileFiles.metaFile(DIR, geometry.metaSlot()))));
    pile.store().abandon(); // the process dies: no checkpoint at close
    disk.processCrash();
    assertThat(checkpointWasCut(disk)).isTrue();
    return model;
  }

  /** The stripe whose lock the calling thread holds (inside an attachment). */
  private static Stripe heldStripe(OffHeapPile pile) {
    for (Stripe stripe : pile.stripes()) {
      if (stripe.isHeldByCurrentThread()) {
        return stripe;
      }
    }
    throw new IllegalStateException("no stripe lock held");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static long fileWord(SimulatedDisk disk, Path file, long at) throws IOException {
    return MemorySegment.ofArray(disk.currentContent(file))
        .get(ValueLayout.JAVA_LONG_UNALIGNED, at);
  }

  /**
   * SW1 and the snapshot (SW3) under load: writers on more threads than cores change slots of one
   * region from every stripe while checkpoints run back to back; then one last checkpoint, which
   * truncates the log, and the power goes. A region write whose page mark a checkpoint lost would
   * be in no file and in no log.
   */
  @ParameterizedTest
  @EnumSource(
      value = Durability.class,
      names = {"SYNC", "NONE"})
  void checkpointsTakenWhileWritersHammerOneRegion_loseNoSlot(Durability durability)
      throws Exception {
    long seed = PileTestSupport.seed("checkpointsTakenWhileWritersHammerOneRegion " + durability);
    SimulatedDisk disk = new SimulatedDisk();
    SlotTable table = new SlotTable(ID, SLOTS);
    OffHeapPile pile = open(disk, table, durability, "seed " + seed);
    table.addRegion();
    int threads = 4;
    SlotWorker[] workers = new SlotWorker[threads];
    for (int t = 0; t < threads; t++) {
      workers[t] =
          new SlotWorker(
              t, threads, table, pile, new SlotModel(SLOTS), new SplittableRandom(seed + t), null);
    }
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger checkpoints = new AtomicInteger();
    Thread checkpointer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    while (writing.get()) {
                      pile.checkpoint();
                      checkpoints.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                });
    List<Thread> running = new ArrayList<>();
    for (SlotWorker worker : workers) {
      running.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int op = 0;
                          op < 1_500 || (checkpoints.get() < 10 && op < 50_000);
                          op++) {
                        worker.step();
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  }));
    }
    for (Thread thread : running) {
      thread.join();
    }
    writing.set(false);
    checkpointer.join();
    assertThat(failures).isEmpty();
    assertThat(checkpoints.get()).as("checkpoints while the writers ran").isGreaterThan(3);
    pile.checkpoint();
    disk.powerLoss(seed);
    abandon(pile);
    disk.reboot();
    SlotModel all = new SlotModel(SLOTS);
    for (SlotWorker worker : workers) {
      all.addAll(worker.model());
    }
    SlotTable again = new SlotTable(ID, SLOTS);
    try (OffHeapPile reopened = open(disk, again, durability, "seed " + seed)) {
      assertThat(again.replayed()).as("the last checkpoint holds everything").isZero();
      all.checkAfterRecovery(reopened, again, List.of(), 1, "seed " + seed + " " + durability);
    }
  }

  // =========================================================================================
  // power loss

  /**
   * Power lost at random moments while four writers (on two cores) put, delete, update, move and
   * commit through the table's slots, and a fifth thread checkpoints; several times over one disk,
   * sometimes again during recovery. After each recovery the slots hold exactly what was
   * acknowledged (each write in flight wholly or not at all), every pointer in a slot is live with
   * its value, nothing removed came back, the pile holds nothing else, and it verifies.
   */
  @Test
  void afterEveryPowerLoss_everySlotHoldsWhatWasAcknowledged() throws Exception {
    long seed = PileTestSupport.seed("afterEveryPowerLoss_everySlotHoldsWhatWasAcknowledged");
    int disks = Math.max(3, Integer.getInteger("cairn.crash.cycles", 40) / 8);
    int threads = 4;
    int cutCheckpoints = 0;
    long acknowledged = 0;
    for (int d = 0; d < disks; d++) {
      SplittableRandom random = new SplittableRandom(seed + d);
      SimulatedDisk disk = new SimulatedDisk();
      SlotModel[] models = new SlotModel[threads];
      SlotModel.Op[] inFlight = new SlotModel.Op[threads];
      for (int t = 0; t < threads; t++) {
        models[t] = new SlotModel(SLOTS);
      }
      for (int round = 0; round < 4; round++) {
        String label = "seed " + seed + " disk " + d + " round " + round;
        if (round > 0 && checkpointWasCut(disk)) {
          cutCheckpoints++;
        }
        SlotTable table = new SlotTable(ID, SLOTS);
        OffHeapPile pile =
            round == 0
                ? open(disk, table, Durability.SYNC, label)
                : openAfterCrash(disk, table, random, label);
        if (round == 0) {
          for (int r = 0; r < REGIONS; r++) {
            table.addRegion();
          }
        }
        settle(pile, table, models, inFlight, label)
            .checkAfterRecovery(pile, table, List.of(), REGIONS, label);
        acknowledged += runUntilPowerLoss(pile, table, disk, models, inFlight, random, label);
      }
      SlotTable last = new SlotTable(ID, SLOTS);
      String label = "seed " + seed + " disk " + d + " last";
      try (OffHeapPile pile = openAfterCrash(disk, last, random, label)) {
        settle(pile, last, models, inFlight, label)
            .checkAfterRecovery(pile, last, List.of(), REGIONS, label);
      }
    }
    System.out.printf(
        "[slots] %d writes acknowledged over %d disks; %d recoveries after a"
            + " checkpoint cut while writing in place%n",
        acknowledged, disks, cutCheckpoints);
    assertThat(acknowledged).isPositive();
  }

  /**
   * Settles each thread's op in flight in its model (it happened wholly or not at all) and returns
   * all the threads' models in one.
   */
  private static SlotModel settle(
      OffHeapPile pile,
      SlotTable table,
      SlotModel[] models,
      SlotModel.Op[] inFlight,
      String label) {
    SlotModel all = new SlotModel(SLOTS);
    for (int t = 0; t < models.length; t++) {
      if (inFlight[t] != null) {
        models[t].settle(pile, table, inFlight[t], label + " thread " + t);
        inFlight[t] = null;
      }
      all.addAll(models[t]);
    }
    return all;
  }

  /**
   * Runs the writers and a checkpointing thread until the armed power loss (or cuts the power once
   * they are done); returns the writes acknowledged. Leaves each thread's op in flight in {@code
   * inFlight}.
   */
  private static long runUntilPowerLoss(
      OffHeapPile pile,
      SlotTable table,
      SimulatedDisk disk,
      SlotModel[] models,
      SlotModel.Op[] inFlight,
      SplittableRandom random,
      String label)
      throws InterruptedException {
    int threads = models.length;
    SlotWorker[] workers = new SlotWorker[threads];
    for (int t = 0; t < threads; t++) {
      workers[t] = new SlotWorker(t, threads, table, pile, models[t], random.split(), null);
    }
    List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger acknowledged = new AtomicInteger();
    disk.crashAtOperation(disk.operationCount() + 20 + random.nextInt(1_500), random.nextLong());
    long pause = random.nextInt(3);
    Thread checkpointer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    while (!stop.get()) {
                      pile.checkpoint();
                      Thread.sleep(pause);
                    }
                  } catch (RuntimeException e) {
                    if (!disk.isDown()) {
                      unexpected.add(e);
                    }
                  } catch (InterruptedException | Error e) {
                    unexpected.add(e);
                  }
                });
    List<Thread> running = new ArrayList<>();
    for (SlotWorker worker : workers) {
      running.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int op = 0; op < 3_000; op++) {
                        worker.step();
                        acknowledged.incrementAndGet();
                      }
                    } catch (RuntimeException e) {
                      if (!disk.isDown()) {
                        unexpected.add(e);
                      }
                    } catch (Error e) {
                      unexpected.add(e);
                    }
                  }));
    }
    for (Thread thread : running) {
      thread.join();
    }
    stop.set(true);
    checkpointer.join();
    disk.disarmCrash();
    if (!unexpected.isEmpty()) {
      AssertionError failed = new AssertionError(label + ": a writer failed without a crash");
      unexpected.forEach(failed::addSuppressed);
      throw failed;
    }
    if (!disk.isDown()) {
      disk.powerLoss(random.nextLong()); // the writers finished first
    }
    abandon(pile);
    disk.reboot();
    for (int t = 0; t < threads; t++) {
      inFlight[t] = workers[t].inFlight();
    }
    return acknowledged.get();
  }

  /**
   * Opens after a crash; with some probability a crash inside the open first (its replay or its
   * checkpoint), so that recovery runs twice over the same files.
   */
  private static OffHeapPile openAfterCrash(
      SimulatedDisk disk, SlotTable table, SplittableRandom random, String label) {
    if (random.nextInt(4) == 0) {
      disk.crashAtOperation(disk.operationCount() + 1 + random.nextInt(40), random.nextLong());
      try {
        Pile attempt =
            Participants.open(disk, DIR, options(Durability.SYNC), new SlotTable(ID, SLOTS));
        try {
          attempt.checkpoint(); // recovery's own, under the armed crash too
        } finally {
          abandon(attempt);
        }
      } catch (IOException | RuntimeException crashed) {
        // the power went during recovery
      }
      disk.disarmCrash();
      if (disk.isDown()) {
        disk.reboot();
      }
    }
    return open(disk, table, Durability.SYNC, label);
  }

  /** Whether the next open meets a checkpoint cut short while it wrote pages in place. */
  private static boolean checkpointWasCut(SimulatedDisk disk) throws IOException {
    Path file = DIR.resolve(PileFiles.SUPERBLOCK);
    Superblock.State state = Superblock.read(disk, file);
    return PileRecovery.cutBehind(
        disk, DIR, state, PileFiles.Geometry.decode(file, state.payload()));
  }

  // =========================================================================================

  static OffHeapPile open(
      SimulatedDisk disk, LogParticipant participant, Durability durability, String label) {
    try {
      return (OffHeapPile) Participants.open(disk, DIR, options(durability), participant);
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(label + ": recovery failed", e);
    }
  }

  static void abandon(Pile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk crashed under it
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static PayloadWriter payload(byte[] bytes) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return bytes.length;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, target, offset, bytes.length);
      }
    };
  }

  private static PayloadWriter payload(int size) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return size;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        target.fill((byte) 1);
      }
    };
  }

  /** A payload that writes half its bytes, then throws. */
  private static PayloadWriter throwing(int size) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return size;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        target.asSlice(offset, size / 2).fill((byte) 0x77);
        throw new IllegalStateException("payload refused");
      }
    };
  }
}
