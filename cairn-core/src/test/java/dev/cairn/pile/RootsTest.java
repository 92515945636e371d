package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.file.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named roots: set, found again after a reopen, a crash and a power loss; checked inputs. */
class RootsTest {

  private static final Path DIR = Path.of("/pile");

  @Test
  void setRoot_thenRoot_returnsThePointer_andNullRemovesIt() {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      long orders = pile.put("orders");
      assertThat(pile.root("orders")).isEqualTo(Pile.NULL);
      pile.setRoot("orders", orders);
      assertThat(pile.root("orders")).isEqualTo(orders);
      assertThat(pile.roots()).containsExactly(Map.entry("orders", orders));
      pile.setRoot("orders", Pile.NULL);
      assertThat(pile.root("orders")).isEqualTo(Pile.NULL);
      assertThat(pile.roots()).isEmpty();
    }
  }

  @Test
  void setRoot_rejectsBadNamesAndPointersThatNameNoValue() {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      long value = pile.put("v");
      assertThatThrownBy(() -> pile.setRoot(" ", value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("blank");
      assertThatThrownBy(() -> pile.setRoot("x".repeat(256), value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("utf8Bytes=256");
      pile.delete(value);
      assertThatThrownBy(() -> pile.setRoot("gone", value))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.setRoot("never", 12345L))
          .isInstanceOf(InvalidPointerException.class);
      assertThat(pile.roots()).isEmpty();
    }
  }

  @Test
  void aPileHoldsAtMost4096Roots_replacingOneStillWorks() {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      long value = pile.put("v");
      for (int i = 0; i < RootDirectory.MAX_ROOTS; i++) {
        pile.setRoot("r" + i, value);
      }
      assertThatThrownBy(() -> pile.setRoot("one more", value))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("at most 4096");
      pile.setRoot("r7", value); // a replacement is not a new root
      pile.setRoot("r7", Pile.NULL);
      pile.setRoot("one more", value);
      assertThat(pile.roots()).hasSize(RootDirectory.MAX_ROOTS);
    }
  }

  @Test
  void rootsSurviveACleanCloseAndACheckpointedReopen(@TempDir Path dir) throws IOException {
    PileOptions options = PileOptions.builder().segmentBytes(1 << 20).build();
    long orders;
    long customers;
    try (Pile pile = Pile.open(dir, options)) {
      orders = pile.put("orders");
      customers = pile.put("customers");
      pile.setRoot("orders", orders);
      pile.checkpoint();
      pile.setRoot("customers", customers); // only in the log until the close
      pile.setRoot("zäh-名前", orders);
    }
    try (Pile pile = Pile.open(dir, options)) {
      assertThat(pile.roots())
          .containsExactly(
              Map.entry("customers", customers),
              Map.entry("orders", orders),
              Map.entry("zäh-名前", orders));
      assertThat(pile.getString(pile.root("orders"))).isEqualTo("orders");
    }
  }

  @Test
  void withoutALog_rootsAreDurableAtTheCheckpoint() throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    OffHeapPile pile = PersistentStore.open(disk, DIR, PileCrashTest.options(Durability.NONE));
    long kept = pile.put("kept");
    pile.setRoot("kept", kept);
    pile.checkpoint();
    pile.setRoot("lost", kept);
    disk.powerLoss(1);
    abandon(pile);
    disk.reboot();
    try (OffHeapPile reopened =
        PersistentStore.open(disk, DIR, PileCrashTest.options(Durability.NONE))) {
      assertThat(reopened.roots()).containsExactly(Map.entry("kept", kept));
    }
  }

  /**
   * Power lost at a random moment of a run of puts, root changes and checkpoints: after recovery
   * every root set or removed before the crash is as the last acknowledged change left it, the one
   * in flight either way.
   */
  @Test
  void everyAcknowledgedRootChangeSurvivesAPowerLoss() throws IOException {
    long seed = PileTestSupport.seed("everyAcknowledgedRootChangeSurvivesAPowerLoss");
    for (int cycle = 0; cycle < 30; cycle++) {
      SplittableRandom random = new SplittableRandom(seed + cycle);
      SimulatedDisk disk = new SimulatedDisk();
      PileOptions options = PileCrashTest.options(Durability.SYNC);
      Map<String, Long> model = new HashMap<>();
      String inFlightName = null;
      long inFlightPointer = Pile.NULL;
      OffHeapPile pile = PersistentStore.open(disk, DIR, options);
      disk.crashAtOperation(disk.operationCount() + 20 + random.nextInt(400), random.nextLong());
      try {
        for (int op = 0; op < 10_000; op++) {
          String name = "root-" + random.nextInt(12);
          long pointer = random.nextInt(5) == 0 ? Pile.NULL : pile.put("v" + op);
          inFlightName = name;
          inFlightPointer = pointer;
          pile.setRoot(name, pointer);
          inFlightName = null;
          if (pointer == Pile.NULL) {
            model.remove(name);
          } else {
            model.put(name, pointer);
          }
          if (random.nextInt(40) == 0) {
            pile.checkpoint();
          }
        }
      } catch (RuntimeException crashed) {
        // the disk lost power
      }
      disk.disarmCrash();
      abandon(pile);
      disk.reboot();
      try (OffHeapPile recovered = PersistentStore.open(disk, DIR, options)) {
        Map<String, Long> roots = new HashMap<>(recovered.roots());
        if (inFlightName != null) { // cut by the crash: as before it, or as it would have left it
          long found = roots.getOrDefault(inFlightName, Pile.NULL);
          assertThat(found)
              .as("seed %d cycle %d: the root in flight", seed, cycle)
              .isIn(model.getOrDefault(inFlightName, Pile.NULL), inFlightPointer);
          roots.remove(inFlightName);
          model.remove(inFlightName);
        }
        assertThat(roots).as("seed %d cycle %d", seed, cycle).isEqualTo(model);
        for (long pointer : roots.values()) {
          assertThat(recovered.getString(pointer)).startsWith("v");
        }
      }
    }
  }

  private static void abandon(OffHeapPile pile) {
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the disk crashed under it
    }
  }
}
