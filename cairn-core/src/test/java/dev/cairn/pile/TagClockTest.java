package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.file.Superblock;
import dev.cairn.pile.PileFiles.Geometry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tags are what make a deleted pointer stale after its space is reused, so no two blocks of a pile
 * may get the same tag until 2^23 tags later, whichever stripe allocates them: segment indexes, and
 * with them addresses, pass between stripes. A kill -9 soak once found a deleted pointer naming a
 * new block because two stripes' own counters had run through the same values.
 */
class TagClockTest {

  @TempDir Path dir;

  private static OffHeapPile volatilePile(int stripes) {
    return new OffHeapPile(PileOptions.builder().segmentBytes(1 << 16).stripes(stripes).build());
  }

  @Test
  void sealingTwice_unseals_andStaysATag() { // C4
    TagClock clock =
        new TagClock(TagClock.randomKey(), TagClock.randomOrigin(), PersistenceHooks.VOLATILE);
    SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < 10_000; i++) {
      int tag = 1 + random.nextInt(Pointers.TAG_MASK);
      long address =
          Pointers.address(random.nextInt(Pointers.MAX_SEGMENTS), 8L * random.nextInt(1 << 20));
      int sealed = clock.seal(tag, address);
      assertThat(sealed).isBetween(0, Pointers.TAG_MASK);
      assertThat(clock.seal(sealed, address)).isEqualTo(tag);
      assertThat(TagClock.seal(clock.key(), tag, address)).isEqualTo(sealed);
    }
  }

  @Test
  void stripesRestoredWithTheSameClock_stillHandOutDistinctTags() {
    try (OffHeapPile pile = volatilePile(4)) {
      long[] state = new long[Stripe.STATE_FIELDS];
      state[3] = 5_000; // what a file written by a build with a counter per stripe could hold
      for (int s = 0; s < 4; s++) {
        pile.stripe(s).restoreStateFields(1 << 3, state);
      }
      Set<Integer> tags = new HashSet<>();
      for (int round = 0; round < 3_000; round++) {
        for (int s = 0; s < 4; s++) {
          int tag = pile.stripe(s).nextTag();
          assertThat(tags.add(tag)).as("tag %d handed out twice", tag).isTrue();
          assertThat(tag).isNotZero().isLessThanOrEqualTo(Pointers.TAG_MASK);
        }
      }
    }
  }

  @Test
  void aRestoredClock_movesThePileClockPastIt() {
    try (OffHeapPile pile = volatilePile(2)) {
      long[] state = new long[Stripe.STATE_FIELDS];
      state[3] = 3L << 23; // past a wrap of the 23-bit tag: the clock itself never wraps
      pile.stripe(0).restoreStateFields(1 << 3, state);
      long[] read = new long[Stripe.STATE_FIELDS];
      pile.stripe(1).nextTag();
      pile.stripe(1).readStateFields(read);
      assertThat(read[3]).isGreaterThan(3L << 23);
    }
  }

  @Test
  void aTagClockOutOfRange_isCorruption() {
    try (OffHeapPile pile = volatilePile(1)) {
      long[] state = new long[Stripe.STATE_FIELDS];
      state[3] = -1;
      assertThatThrownBy(() -> pile.stripe(0).restoreStateFields(1 << 3, state))
          .isInstanceOf(PileCorruptionException.class)
          .hasMessageContaining("tag clock");
    }
  }

  @Test
  void theClockSkipsTagZero_whenTheTagWraps() {
    try (OffHeapPile pile = volatilePile(1)) {
      long[] state = new long[Stripe.STATE_FIELDS];
      state[3] = (1L << 23) - 2;
      pile.stripe(0).restoreStateFields(1 << 3, state);
      List<Integer> tags = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        tags.add(pile.stripe(0).nextTag());
      }
      assertThat(tags).doesNotContain(0).doesNotHaveDuplicates();
    }
  }

  @Test
  void putsFromManyThreads_getTagsUniqueInThePile() throws Exception {
    int threads = 8;
    int putsPerThread = 20_000;
    Set<Integer> tags = ConcurrentHashMap.newKeySet();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    try (OffHeapPile pile = volatilePile(4)) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                        for (int i = 0; i < putsPerThread; i++) {
                          long pointer = pile.put(new byte[] {(byte) i});
                          if (!tags.add(Pointers.tag(pointer))) {
                            throw new AssertionError(
                                "tag of " + Pointers.describe(pointer) + " seen before");
                          }
                          if (i % 2 == 0) {
                            pile.delete(pointer); // frees space, so later puts reuse addresses
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      start.countDown();
      for (Thread worker : workers) {
        worker.join();
      }
    }
    assertThat(failures).isEmpty();
    assertThat(tags).hasSize(threads * putsPerThread);
  }

  /**
   * Segments emptied by some threads' deletes are released and reborn, under the same indexes, in
   * whichever stripe needs room next; every pointer deleted on the way must stay stale.
   */
  @Test
  void segmentsRebornInOtherStripes_neverReviveADeletedPointer() throws Exception {
    int threads = 6;
    Set<Long> deleted = ConcurrentHashMap.newKeySet(); // this round's
    Set<Long> allDeleted = new HashSet<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    try (OffHeapPile pile = volatilePile(4)) {
      for (int round = 0; round < 8; round++) {
        int seed = round;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int id = t;
          workers.add(
              Thread.ofPlatform()
                  .start(
                      () -> {
                        try {
                          SplittableRandom random = new SplittableRandom(seed * 31L + id);
                          List<Long> mine = new ArrayList<>();
                          for (int i = 0; i < 2_000; i++) {
                            mine.add(pile.put(new byte[8 + random.nextInt(120)]));
                          }
                          for (long pointer : mine) {
                            pile.delete(pointer);
                            deleted.add(pointer);
                          }
                        } catch (Throwable e) {
                          failures.add(e);
                        }
                      }));
        }
        for (Thread worker : workers) {
          worker.join();
        }
        assertThat(failures).isEmpty();
        assertThat(pile.stats().objectCount()).isZero();
        assertAllStale(pile, deleted);
        allDeleted.addAll(deleted);
        deleted.clear();
      }
      assertAllStale(pile, allDeleted); // the earlier rounds' too, after all the reuse since
    }
  }

  /** A persistent pile without a log, in 64 KiB segments: what survives is the checkpoints. */
  private static PileOptions unloggedOptions(int stripes) {
    return PileOptions.builder()
        .segmentBytes(1 << 16)
        .stripes(stripes)
        .durability(Durability.NONE)
        .build();
  }

  /** The power goes while {@code pile} is open; the disk comes back with what was durable. */
  private static void powerLoss(SimulatedDisk disk, OffHeapPile pile, long seed) {
    disk.powerLoss(seed);
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk went down under it
    }
    disk.reboot();
  }

  private static void assertAllStale(Pile pile, Set<Long> deleted) {
    for (long pointer : deleted) {
      try {
        byte[] found = pile.getBytes(pointer);
        throw new AssertionError(
            "deleted pointer " + Pointers.describe(pointer) + " reads " + found.length + " bytes");
      } catch (StalePointerException expected) {
        // stale, as it must be
      }
    }
  }

  /**
   * Puts not yet durable when the power went are gone after recovery, and the allocator, back at
   * the checkpoint's state, hands out the same addresses again; an application that kept one of the
   * lost pointers (in another store, say) must find it stale, not naming a new value.
   */
  @Test
  void pointersOfPutsLostToAPowerLoss_stayStale_whenTheirAddressesAreReused() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    Path pileDir = Path.of("/pile");
    PileOptions options = unloggedOptions(1);
    OffHeapPile pile = PersistentStore.open(disk, pileDir, options);
    for (int i = 0; i < 100; i++) {
      pile.put(new byte[24]);
    }
    pile.checkpoint(); // without a log, what survives a crash is the last checkpoint
    List<Long> lost = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      lost.add(pile.put(new byte[24]));
    }
    powerLoss(disk, pile, 7);

    try (OffHeapPile recovered = PersistentStore.open(disk, pileDir, options)) {
      assertThat(recovered.stats().objectCount()).isEqualTo(100);
      for (int i = 0; i < 300; i++) {
        recovered.put(new byte[24]); // the same sizes: the same addresses as the lost puts
      }
      for (long pointer : lost) {
        assertThatThrownBy(() -> recovered.getBytes(pointer))
            .as("lost pointer %s", Pointers.describe(pointer))
            .isInstanceOf(StalePointerException.class);
      }
    }
  }

  @Test
  void tagsAfterAReopen_neverRepeatTagsHandedOutBefore() throws Exception {
    PileOptions options = PersistentPileTest.options(Durability.PERIODIC);
    Set<Integer> before = new HashSet<>();
    List<Long> toDelete = new ArrayList<>();
    try (Pile pile = Pile.open(dir, options)) {
      for (int i = 0; i < 5_000; i++) {
        long pointer = pile.put(new byte[16]);
        before.add(Pointers.tag(pointer));
        if (i % 3 == 0) {
          toDelete.add(pointer);
        }
      }
      for (long pointer : toDelete) {
        pile.delete(pointer);
      }
    }
    try (Pile pile = Pile.open(dir, options)) {
      for (int i = 0; i < 5_000; i++) {
        long pointer = pile.put(new byte[16]);
        assertThat(before).doesNotContain(Pointers.tag(pointer));
      }
      for (long pointer : toDelete) {
        assertThatThrownBy(() -> pile.getBytes(pointer)).isInstanceOf(StalePointerException.class);
      }
    }
  }

  /**
   * The superblock records a bound above every tag clock value handed out, so a crash costs at most
   * one reservation of tags: the clock restarts at the bound, past every lost put's tag, crash
   * after crash, with nothing left to chance.
   */
  @Test
  void eachCrash_restartsTheClockAtTheDurableBound_pastEveryTagHandedOut() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    Path pileDir = Path.of("/pile");
    PileOptions options = unloggedOptions(2);
    SplittableRandom random = new SplittableRandom(11);
    long clockAtCrash = -1;
    for (int crash = 0; crash < 12; crash++) {
      OffHeapPile pile = PersistentStore.open(disk, pileDir, options);
      long clockAtOpen = pile.tagClock().current();
      if (clockAtCrash >= 0) {
        assertThat(clockAtOpen)
            .as("crash %d: the clock after recovery against the clock at the crash", crash)
            .isBetween(clockAtCrash, clockAtCrash + TagReservations.TAG_RESERVATION);
      }
      // sometimes past a reservation's reach, so that the crash lands after a background one
      int puts = random.nextBoolean() ? 1 + random.nextInt(5_000) : 600_000;
      for (int i = 0; i < puts; i++) {
        pile.delete(pile.put(new byte[8]));
      }
      clockAtCrash = pile.tagClock().current(); // every tag handed out came from below it
      powerLoss(disk, pile, crash);
    }
  }

  @Test
  void theBoundOnDisk_staysAheadOfTheClock_throughManyReservations() throws IOException {
    PileOptions options = unloggedOptions(2);
    Path superblock = dir.resolve(PileFiles.SUPERBLOCK);
    try (OffHeapPile pile = PersistentStore.open(RealFileLayer.INSTANCE, dir, options)) {
      for (int round = 0; round < 16; round++) {
        for (int i = 0; i < TagReservations.TAG_RESERVATION / 4; i++) {
          pile.delete(pile.put(new byte[8]));
        }
        long onDisk =
            Geometry.tagBoundOf(
                superblock, Superblock.read(RealFileLayer.INSTANCE, superblock).payload());
        assertThat(onDisk).as("round %d", round).isGreaterThanOrEqualTo(pile.tagClock().current());
      }
      assertThat(pile.tagClock().current()).isGreaterThan(3 * TagReservations.TAG_RESERVATION);
    }
  }

  @Test
  void theTagBound_roundTrips_andOneOutOfRangeIsACorruptSuperblock() {
    Path file = Path.of("/pile").resolve(PileFiles.SUPERBLOCK);
    byte[] geometry = new byte[PilePayloadLayout.PAYLOAD_BYTES];
    assertThat(Geometry.tagBoundOf(file, Geometry.withTagBound(geometry, 12_345)))
        .isEqualTo(12_345);
    assertThatThrownBy(() -> Geometry.tagBoundOf(file, Geometry.withTagBound(geometry, -1)))
        .isInstanceOf(dev.cairn.durability.CorruptFileException.class)
        .hasMessageContaining("tag bound")
        .hasMessageContaining(file.toString());
  }
}
