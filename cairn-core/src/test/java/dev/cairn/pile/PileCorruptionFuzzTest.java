package dev.cairn.pile;

import static dev.cairn.durability.file.FileDamage.damage;
import static dev.cairn.durability.file.FileDamage.deleteTree;
import static dev.cairn.durability.file.FileDamage.filesOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.CairnException;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flips, zeroes and truncates bytes in every kind of file of a crashed persistent pile (superblock,
 * metadata, segments, page checksums, log, type catalog), then opens it. Opening must give a clear
 * exception or a correct recovery: never a JVM crash or an Error. After an open, a read of every
 * value written returns exactly that value or raises {@link CorruptValueException} or {@link
 * CorruptFileException}: never another value, and never another exception, except that damage in
 * the log's last records may end the log there (a CRC that fails at the log's end cannot be told
 * from a write a crash cut short), which loses those writes: their pointers are then stale, and
 * only then.
 */
class PileCorruptionFuzzTest {

  private static final int TRIALS = Integer.getInteger("cairn.fuzz.trials", 150);

  @TempDir Path root;

  @Test
  void damagedFilesGiveAClearErrorOrACorrectPile() throws IOException {
    long seed = PileTestSupport.seed("damagedFilesGiveAClearErrorOrACorrectPile");
    SplittableRandom random = new SplittableRandom(seed);
    Path template = root.resolve("template");
    Map<Long, byte[]> model = new HashMap<>();
    OffHeapPile pile =
        PersistentStore.open(
            RealFileLayer.INSTANCE, template, PersistentPileTest.options(Durability.SYNC));
    PersistentPileTest.churn(pile, model, random, 3_000);
    pile.checkpoint();
    PersistentPileTest.churn(pile, model, random, 1_000); // left in the log: replayed at open
    pile.store().abandon(); // a crash after the last SYNC write
    List<Path> files = filesOf(template);

    int opened = 0;
    int refused = 0;
    int reported = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
      Path dir = root.resolve("trial-" + trial);
      PileTestSupport.copyTree(template, dir);
      Path victim = dir.resolve(template.relativize(files.get(random.nextInt(files.size()))));
      String damage = damage(victim, random);
      String where = "seed " + seed + " trial " + trial + ": " + damage;
      OffHeapPile reopened;
      try {
        reopened =
            PersistentStore.open(
                RealFileLayer.INSTANCE, dir, PersistentPileTest.options(Durability.SYNC));
      } catch (CairnException | IOException refusedClearly) {
        assertThat(refusedClearly.getMessage()).as(where).isNotBlank();
        refused++;
        continue;
      } catch (RuntimeException other) {
        throw new AssertionError(where + ": open failed with an unclear exception", other);
      }
      opened++;
      try (reopened) {
        boolean logDamaged =
            victim.getParent().getFileName().toString().equals(PileFiles.LOG_DIRECTORY);
        reported += checkOpened(reopened, model, where, logDamaged);
      }
      deleteTree(dir);
    }
    System.out.println(
        "[fuzz] "
            + TRIALS
            + " trials: "
            + opened
            + " opened, "
            + refused
            + " refused with a clear exception; "
            + reported
            + " values reported damaged");
  }

  /**
   * A pile that opened: every value is right or reported damaged; verify passes or names the
   * damage. Returns how many values were reported damaged.
   */
  private static int checkOpened(
      Pile pile, Map<Long, byte[]> model, String where, boolean logDamaged) {
    int reported = 0;
    for (Map.Entry<Long, byte[]> e : model.entrySet()) {
      byte[] stored;
      try {
        stored = pile.getBytes(e.getKey());
      } catch (CorruptValueException | CorruptFileException damaged) {
        assertThat(damaged.getMessage()).as(where).isNotBlank();
        reported++;
        continue;
      } catch (StalePointerException lostWithTheLogsEnd) {
        if (logDamaged) {
          continue;
        }
        throw new AssertionError(where + ": a value was lost without a word", lostWithTheLogsEnd);
      } catch (RuntimeException other) {
        throw new AssertionError(
            where
                + ": a read of "
                + Long.toHexString(e.getKey())
                + " failed with an unclear exception",
            other);
      }
      assertThat(stored).as("%s: value at %x", where, e.getKey()).isEqualTo(e.getValue());
    }
    try {
      pile.verify();
    } catch (CorruptFileException | PileCorruptionException named) {
      assertThat(named.getMessage()).as(where).isNotBlank();
      return reported;
    }
    assertThat(reported).as("%s: values reported damaged, yet verify passed", where).isZero();
    return reported;
  }
}
