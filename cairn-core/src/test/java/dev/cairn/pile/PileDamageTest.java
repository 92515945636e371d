package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage on disk and pointers that were never this pile's: a read either returns the value written
 * or says what is wrong, never another value (issue: "Never lose or silently corrupt data").
 */
class PileDamageTest {

  @TempDir Path dir;
  @TempDir Path scratch;

  private static final int VALUE_BYTES = 200;

  /** Fills a pile with distinct values and closes it cleanly; returns pointer -> value. */
  private Map<Long, byte[]> writeAndClose(Durability durability, int count) throws IOException {
    Map<Long, byte[]> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(42);
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(durability))) {
      for (int i = 0; i < count; i++) {
        byte[] value = PileTestSupport.randomBytes(random, VALUE_BYTES);
        model.put(pile.put(value), value);
      }
    }
    return model;
  }

  /** Flips one bit of the stored bytes of the value at {@code pointer}, in its segment file. */
  private void flipValueByte(long pointer, int at) throws IOException {
    Path file = PileFiles.segmentFile(dir, Pointers.segment(pointer));
    long position = Pointers.offsetBytes(pointer) + BlockLayout.HEADER_BYTES + at;
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(position);
      int b = raf.read();
      raf.seek(position);
      raf.write(b ^ 0x10);
    }
  }

  private static void flipFileByte(Path file, long position) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(position);
      int b = raf.read();
      raf.seek(position);
      raf.write(b ^ 0x01);
    }
  }

  private static long pageOf(long pointer) {
    return (Pointers.offsetBytes(pointer) + BlockLayout.HEADER_BYTES) / 4096;
  }

  @Test
  void get_ofAValueOnADamagedPage_throwsCorruptValue_andTheRestStayReadable() throws IOException {
    Map<Long, byte[]> model = writeAndClose(Durability.SYNC, 2_000);
    long victim = model.keySet().stream().sorted().skip(700).findFirst().orElseThrow();
    flipValueByte(victim, 17);

    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      Throwable thrown = catchThrowable(() -> pile.getBytes(victim));
      assertThat(thrown)
          .isInstanceOf(CorruptValueException.class)
          .hasMessageContaining(PileFiles.segmentFile(dir, Pointers.segment(victim)).toString())
          .hasMessageContaining("page " + (Pointers.offsetBytes(victim) + 25) / 4096)
          .hasMessageContaining(Long.toHexString(victim));
      // every read path says the same, and says it again
      assertThatThrownBy(() -> pile.get(victim)).isInstanceOf(CorruptValueException.class);
      assertThatThrownBy(() -> pile.sizeOf(victim)).isInstanceOf(CorruptValueException.class);
      assertThatThrownBy(() -> pile.getBytes(victim, new byte[VALUE_BYTES], 0))
          .isInstanceOf(CorruptValueException.class);
      int unreadable = 0;
      long damagedPage = (Pointers.offsetBytes(victim) + BlockLayout.HEADER_BYTES + 17) / 4096;
      for (Map.Entry<Long, byte[]> e : model.entrySet()) {
        long first = Pointers.offsetBytes(e.getKey()) / 4096;
        long last =
            (Pointers.offsetBytes(e.getKey()) + BlockLayout.HEADER_BYTES + VALUE_BYTES + 7) / 4096;
        if (Pointers.segment(e.getKey()) == Pointers.segment(victim)
            && first <= damagedPage
            && damagedPage <= last) {
          unreadable++;
          continue; // a neighbour on the same page: unreadable too, never wrong
        }
        assertThat(pile.getBytes(e.getKey())).as("value at %x", e.getKey()).isEqualTo(e.getValue());
      }
      assertThat(unreadable).isLessThan(30);
      assertThatThrownBy(pile::verify)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("page " + damagedPage);
      // the pile stays usable for writes
      long fresh = pile.put("after the damage");
      assertThat(pile.getString(fresh)).isEqualTo("after the damage");
    }
  }

  @Test
  void damage_staysReported_afterCheckpointsRewriteThePage() throws IOException {
    Map<Long, byte[]> model = writeAndClose(Durability.SYNC, 2_000);
    long victim = model.keySet().stream().sorted().skip(300).findFirst().orElseThrow();
    flipValueByte(victim, 3);
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      // a neighbour on the damaged page is deleted, so a checkpoint writes the page
      for (long p : model.keySet()) {
        if (p != victim
            && pageOf(p) == pageOf(victim)
            && Pointers.segment(p) == Pointers.segment(victim)) {
          pile.delete(p);
          break;
        }
      }
      pile.checkpoint();
      assertThatThrownBy(() -> pile.getBytes(victim)).isInstanceOf(CorruptValueException.class);
    }
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      assertThatThrownBy(() -> pile.getBytes(victim)).isInstanceOf(CorruptValueException.class);
    }
  }

  @Test
  void damage_underPagesTheLogRewrites_isFoundAfterACrash() throws IOException {
    SplittableRandom random = new SplittableRandom(7);
    OffHeapPile pile =
        PersistentStore.open(
            RealFileLayer.INSTANCE, dir, PersistentPileTest.options(Durability.SYNC));
    List<Long> order = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      byte[] value = PileTestSupport.randomBytes(random, VALUE_BYTES);
      order.add(pile.put(value));
    }
    pile.checkpoint();
    long victim = order.get(1_000);
    long neighbour = order.get(1_001); // on the same page or the next
    byte[] rewritten = PileTestSupport.randomBytes(random, VALUE_BYTES);
    pile.update(neighbour, rewritten); // logged after the checkpoint: replayed at open
    pile.store().abandon(); // a crash
    flipValueByte(victim, 150);

    try (Pile reopened = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      assertThatThrownBy(() -> reopened.getBytes(victim)).isInstanceOf(CorruptValueException.class);
      if (pageOf(neighbour) != pageOf(victim)) {
        assertThat(reopened.getBytes(neighbour)).isEqualTo(rewritten);
      }
    }
  }

  @Test
  void scanAndForEach_overADamagedPage_throwCorruptValue() throws IOException {
    Map<Long, byte[]> model = writeAndClose(Durability.NONE, 1_000);
    long victim = model.keySet().stream().sorted().skip(500).findFirst().orElseThrow();
    flipValueByte(victim, 0);
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.NONE))) {
      assertThatThrownBy(() -> pile.scan((pointer, kind, bytes, offset, length) -> {}))
          .isInstanceOf(CorruptValueException.class);
      assertThatThrownBy(() -> pile.forEach((pointer, kind, size) -> {}))
          .isInstanceOf(CorruptValueException.class);
    }
  }

  @Test
  void aPileWithoutDamage_readsEverything_andVerifies() throws IOException {
    Map<Long, byte[]> model = writeAndClose(Durability.PERIODIC, 3_000);
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.PERIODIC))) {
      PersistentPileTest.assertMatches(pile, model);
      long[] seen = {0};
      pile.scan((pointer, kind, bytes, offset, length) -> seen[0]++);
      assertThat(seen[0]).isEqualTo(model.size());
    }
  }

  // ---------------------------------------------------------------------------------------
  // the order of checks

  @Test
  void aDamagedVersionByte_inASegmentHeader_isReportedAsDamage() throws IOException {
    writeAndClose(Durability.SYNC, 100);
    flipFileByte(PileFiles.segmentFile(dir, 0), 8);
    assertThatThrownBy(() -> Pile.open(dir, PersistentPileTest.options(Durability.SYNC)))
        .isInstanceOf(CorruptFileException.class)
        .isNotInstanceOf(FormatVersionException.class)
        .hasMessageContaining("checksum");
  }

  @Test
  void aDamagedVersionByte_inASuperblockSlot_fallsBackToTheOtherSlot() throws IOException {
    Map<Long, byte[]> model = writeAndClose(Durability.SYNC, 100);
    Path superblock = dir.resolve(PileFiles.SUPERBLOCK);
    // the slot written last holds the newest state; damage the version of both in turn
    for (long slotStart : new long[] {0, 4096}) {
      Path copy = scratch.resolve("copy-" + slotStart);
      PileTestSupport.copyTree(dir, copy);
      flipFileByte(copy.resolve(PileFiles.SUPERBLOCK), slotStart + 8);
      try (Pile pile = Pile.open(copy, PersistentPileTest.options(Durability.SYNC))) {
        PersistentPileTest.assertMatches(pile, model);
      }
    }
    assertThat(superblock).exists();
  }

  @Test
  void aDamagedVersionByte_inALogFileHeader_isNotReportedAsANewerFormat() throws IOException {
    OffHeapPile pile =
        PersistentStore.open(
            RealFileLayer.INSTANCE, dir, PersistentPileTest.options(Durability.SYNC));
    long acknowledged = pile.put(new byte[100]);
    pile.store().abandon();
    Path log = dir.resolve(PileFiles.LOG_DIRECTORY);
    List<Path> logFiles;
    try (Stream<Path> files = Files.list(log)) {
      logFiles = files.filter(f -> !f.getFileName().toString().endsWith(".meta")).sorted().toList();
    }
    flipFileByte(logFiles.get(0), 8);
    try (Pile reopened = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      assertThat(reopened.getBytes(acknowledged)).hasSize(100);
    } catch (CorruptFileException expected) {
      assertThat(expected).isNotInstanceOf(FormatVersionException.class);
    }
  }

  // ---------------------------------------------------------------------------------------
  // pointers

  @Test
  void aPointerOfAnotherVolatilePile_neverReadsThatPilesValue() {
    for (int round = 0; round < 20; round++) {
      try (Pile first = Pile.offHeap(PileOptions.defaults());
          Pile second = Pile.offHeap(PileOptions.defaults())) {
        long mine = first.put("first pile's value");
        second.put("second pile's value");
        assertThatThrownBy(() -> second.get(mine)).isInstanceOf(PointerException.class);
      }
    }
  }

  @Test
  void aPointerOfAnotherPersistentPile_neverReadsThatPilesValue() throws IOException {
    Path other = scratch.resolve("other");
    try (Pile first = Pile.open(dir, PersistentPileTest.options(Durability.NONE));
        Pile second = Pile.open(other, PersistentPileTest.options(Durability.NONE))) {
      long mine = first.put("first pile's value");
      second.put("second pile's value");
      assertThatThrownBy(() -> second.get(mine)).isInstanceOf(PointerException.class);
    }
  }

  @Test
  void numbersThatWereNeverPointers_areInvalidPointers_notDeletedValues() {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      pile.put("something");
      for (long notAPointer : new long[] {12345L, -1L, 0L, 1L << 41, Long.MAX_VALUE}) {
        Throwable thrown = catchThrowable(() -> pile.get(notAPointer));
        assertThat(thrown).as("get(%d)", notAPointer).isInstanceOf(InvalidPointerException.class);
        assertThat(thrown.getMessage()).as("get(%d)", notAPointer).doesNotContain("deleted");
      }
    }
  }

  @Test
  void aDeletedValuesPointer_isStillStale() throws IOException {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      long p = pile.put("gone soon");
      pile.delete(p);
      assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
    }
    try (Pile pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC))) {
      long p = pile.put("gone soon");
      pile.delete(p);
      assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
    }
  }
}
