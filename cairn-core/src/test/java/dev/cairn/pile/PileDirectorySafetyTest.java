package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.file.SimulatedDisk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Misuse of a pile's directory: Cairn never deletes, truncates or overwrites a file that the pile's
 * own superblock (or its own interrupted create) does not account for, and says what is wrong with
 * the directory and what to do. Each test compares the files before and after, byte for byte, to
 * prove that nothing was deleted or changed.
 */
class PileDirectorySafetyTest {

  @TempDir Path temp;

  static PileOptions.Builder small() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(2)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(2);
  }

  private static PileOptions small(PileOptions.OpenMode mode) {
    return small().openMode(mode).build();
  }

  private Map<Long, byte[]> fill(Path dir, int count) throws IOException {
    Map<Long, byte[]> model = new HashMap<>();
    try (Pile pile = Pile.open(dir, small().build())) {
      PersistentPileTest.churn(pile, model, new SplittableRandom(42), count);
    }
    return model;
  }

  // =========================================================================================
  // a pile that lost its superblock

  @Test
  void open_withoutSuperblock_refusesNamingWhatIsMissing_andDeletesNothing() throws IOException {
    Path dir = temp.resolve("orders");
    Map<Long, byte[]> model = fill(dir, 3_000);
    Path superblock = dir.resolve(PileFiles.SUPERBLOCK);
    byte[] saved = Files.readAllBytes(superblock);
    Files.delete(superblock);
    Map<String, String> before = contents(dir);
    assertThat(before).containsKeys("pile-meta.0", "types.cat", "seg-00000.dat", "wal/wal.meta");

    for (PileOptions.OpenMode mode : PileOptions.OpenMode.values()) {
      assertThatThrownBy(() -> Pile.open(dir, small(mode)))
          .as("mode %s", mode)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(superblock.toString())
          .hasMessageContaining("missing")
          .hasMessageContaining("seg-00000.dat")
          .hasMessageContaining("restore");
      assertThat(contents(dir)).as("mode %s", mode).isEqualTo(before);
    }
    assertThatThrownBy(() -> PileDirectory.openReadOnly(dir, PileOptions.defaults()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(superblock.toString());
    assertThat(contents(dir)).isEqualTo(before);

    Files.write(superblock, saved); // the documented fix: restore the superblock
    try (Pile pile = Pile.open(dir, small().build())) {
      PersistentPileTest.assertMatches(pile, model);
    }
  }

  // =========================================================================================
  // directories that hold no pile

  @Test
  void open_ofUnrelatedFilesNamedLikeAPiles_refusesAndDeletesNothing() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("mine"));
    Files.writeString(dir.resolve("seg-00007.dat"), "my segment notes");
    Files.writeString(dir.resolve("pile-meta.7"), "my meta");
    Files.createDirectories(dir.resolve("wal"));
    Files.writeString(dir.resolve("wal/journal.txt"), "my journal");
    Map<String, String> before = contents(dir);

    for (PileOptions.OpenMode mode : PileOptions.OpenMode.values()) {
      assertThatThrownBy(() -> Pile.open(dir, small(mode)))
          .as("mode %s", mode)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("seg-00007.dat")
          .hasMessageContaining("choose another directory");
      assertThat(contents(dir))
          .as("mode %s: nothing deleted, changed or added", mode)
          .isEqualTo(before);
    }
  }

  @Test
  void open_ofANonEmptyDirectoryThatIsNoPile_refusesAndChangesNothing() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("home"));
    Files.writeString(dir.resolve("notes.txt"), "do not lose me");
    Files.createDirectories(dir.resolve("photos"));
    Map<String, String> before = contents(dir);

    for (PileOptions.OpenMode mode : PileOptions.OpenMode.values()) {
      assertThatThrownBy(() -> Pile.open(dir, small(mode)))
          .as("mode %s", mode)
          .isInstanceOf(
              mode == PileOptions.OpenMode.OPEN_EXISTING
                  ? NoSuchFileException.class
                  : DirectoryNotEmptyException.class)
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("notes.txt")
          .hasMessageContaining("no pile");
      assertThat(contents(dir)).as("mode %s", mode).isEqualTo(before);
    }
    assertThatThrownBy(() -> PileDirectory.openReadOnly(dir, PileOptions.defaults()))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("notes.txt");
    assertThat(contents(dir)).isEqualTo(before);
  }

  @Test
  void aDirectoryNamedLikeTheSuperblock_isNoPile_andStaysAsItWas() throws IOException {
    // a pile is told by its superblock alone, without listing the rest: that must be a file
    Path dir = Files.createDirectories(temp.resolve("home"));
    Files.createDirectories(dir.resolve(PileFiles.SUPERBLOCK));
    Files.writeString(dir.resolve(PileFiles.SUPERBLOCK).resolve("notes.txt"), "do not lose me");
    Map<String, String> before = contents(dir);

    assertThatThrownBy(() -> Pile.open(dir, small().build()))
        .isInstanceOf(DirectoryNotEmptyException.class)
        .hasMessageContaining(PileFiles.SUPERBLOCK + "/")
        .hasMessageContaining("no pile");
    assertThatThrownBy(() -> Pile.open(dir, small(PileOptions.OpenMode.OPEN_EXISTING)))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(contents(dir)).isEqualTo(before);
  }

  @Test
  void aPileBesideFilesOfOthers_opensAsAPile_andLeavesThemAlone() throws IOException {
    Path dir = temp.resolve("orders");
    Map<Long, byte[]> model = fill(dir, 200);
    Files.writeString(dir.resolve("notes.txt"), "do not lose me");
    Files.createDirectories(dir.resolve("photos"));

    try (Pile pile = Pile.open(dir, small(PileOptions.OpenMode.OPEN_EXISTING))) {
      PersistentPileTest.assertMatches(pile, model);
    }
    assertThat(Files.readString(dir.resolve("notes.txt"))).isEqualTo("do not lose me");
    assertThat(dir.resolve("photos")).isDirectory();
  }

  @Test
  void open_ofARegularFile_saysItIsNotADirectory() throws IOException {
    Path file = temp.resolve("orders.db");
    Files.writeString(file, "a file, not a directory");

    assertThatThrownBy(() -> Pile.open(file, small().build()))
        .isInstanceOf(NotDirectoryException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a directory");
    assertThatThrownBy(() -> PileDirectory.openReadOnly(file, PileOptions.defaults()))
        .isInstanceOf(NotDirectoryException.class)
        .hasMessageContaining("not a directory");
    assertThat(Files.readString(file)).isEqualTo("a file, not a directory");
  }

  // =========================================================================================
  // create-new and open-existing

  @Test
  void createNew_onAnExistingPile_refusesAndKeepsIt() throws IOException {
    Path dir = temp.resolve("orders");
    Map<Long, byte[]> model = fill(dir, 500);
    Map<String, String> before = contents(dir);

    assertThatThrownBy(() -> Pile.open(dir, small(PileOptions.OpenMode.CREATE_NEW)))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("holds a pile");
    assertThat(contents(dir)).isEqualTo(before);
    try (Pile pile = Pile.open(dir, small(PileOptions.OpenMode.OPEN_EXISTING))) {
      PersistentPileTest.assertMatches(pile, model);
    }
  }

  @Test
  void createNew_inAMissingOrEmptyDirectory_createsAPile() throws IOException {
    Path missing = temp.resolve("a/b");
    Path empty = Files.createDirectories(temp.resolve("empty"));
    for (Path dir : List.of(missing, empty)) {
      long p;
      try (Pile pile = Pile.open(dir, small(PileOptions.OpenMode.CREATE_NEW))) {
        p = pile.put("new");
      }
      try (Pile pile = Pile.open(dir, small(PileOptions.OpenMode.OPEN_EXISTING))) {
        assertThat(pile.getString(p)).isEqualTo("new");
      }
    }
  }

  @Test
  void openExisting_onAMissingPile_refusesAndCreatesNothing() throws IOException {
    Path missing = temp.resolve("nothing-here");
    assertThatThrownBy(() -> Pile.open(missing, small(PileOptions.OpenMode.OPEN_EXISTING)))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist");
    assertThat(missing).doesNotExist();

    Path empty = Files.createDirectories(temp.resolve("empty"));
    assertThatThrownBy(() -> Pile.open(empty, small(PileOptions.OpenMode.OPEN_EXISTING)))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("no pile")
        .hasMessageContaining("OPEN_EXISTING");
    assertThat(contents(empty)).isEmpty();
  }

  @Test
  void aLoneLockFileLeftByACrashedOwner_countsAsAnEmptyDirectory() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("locked-once"));
    Files.writeString(dir.resolve("cairn.lock"), "pid=1\n");
    try (Pile pile = Pile.open(dir, small().build())) {
      assertThat(pile.put("x")).isNotZero();
    }
  }

  // =========================================================================================
  // a create interrupted by a crash

  private static final Path DIR = Path.of("/pile");

  /**
   * Loses power at every disk operation of a create in turn. The next open with {@code
   * OPEN_EXISTING} either finds the pile (the create had finished) or refuses and changes nothing;
   * the next default open finishes the job. With a file of the user's added to the leftovers, the
   * default open refuses and deletes nothing.
   */
  @Test
  void aCrashedCreate_isRedoneByTheNextOpen_butNeverOverFilesItDidNotMake() throws IOException {
    long seed = PileTestSupport.seed("aCrashedCreate");
    int crashes = 0;
    for (long at = 1; ; at++) {
      SimulatedDisk disk = crashedCreate(at, seed);
      if (disk == null) {
        break; // the create finished before this operation
      }
      crashes++;
      Map<String, String> leftovers = contents(disk, DIR);
      boolean created = leftovers.containsKey(PileFiles.SUPERBLOCK);
      if (created) {
        PersistentStore.open(disk, DIR, small(PileOptions.OpenMode.OPEN_EXISTING)).close();
      } else {
        assertThatThrownBy(
                () -> PersistentStore.open(disk, DIR, small(PileOptions.OpenMode.OPEN_EXISTING)))
            .as("crash at operation %d", at)
            .isInstanceOf(NoSuchFileException.class);
        assertThat(contents(disk, DIR)).as("crash at operation %d", at).isEqualTo(leftovers);
      }
      long p;
      try (OffHeapPile pile = PersistentStore.open(disk, DIR, small().build())) {
        p = pile.put("after a crash at operation " + at);
      }
      try (OffHeapPile pile = PersistentStore.open(disk, DIR, small().build())) {
        assertThat(pile.getString(p)).isEqualTo("after a crash at operation " + at);
      }

      if (!created && leftovers.keySet().stream().anyMatch(name -> !name.equals("cairn.lock"))) {
        SimulatedDisk again = crashedCreate(at, seed); // the same crash, then a file of the user's
        try (var out =
            again.open(
                DIR.resolve("notes.txt"),
                dev.cairn.durability.file.FileLayer.OpenMode.CREATE_NEW)) {
          out.write(java.nio.ByteBuffer.wrap("mine".getBytes(StandardCharsets.UTF_8)), 0);
        }
        Map<String, String> before = contents(again, DIR);
        assertThatThrownBy(() -> PersistentStore.open(again, DIR, small().build()))
            .as("crash at operation %d", at)
            .isInstanceOf(DirectoryNotEmptyException.class)
            .hasMessageContaining("notes.txt")
            .hasMessageContaining("interrupted");
        assertThat(contents(again, DIR)).isEqualTo(before);
      }
    }
    assertThat(crashes).as("crash points inside a create").isGreaterThan(5);
  }

  /** A disk on which a create lost power at operation {@code at}; null if it finished first. */
  private static SimulatedDisk crashedCreate(long at, long seed) {
    SimulatedDisk disk = new SimulatedDisk();
    disk.crashAtOperation(at, seed + at);
    try {
      PersistentStore.open(disk, DIR, small().build()).close();
      if (disk.operationCount() < at) {
        return null;
      }
    } catch (IOException | RuntimeException crashed) {
      // the power loss
    }
    disk.disarmCrash();
    disk.reboot();
    return disk;
  }

  // =========================================================================================
  // a full disk

  @Test
  void create_onADiskTooSmallForTheLog_namesThePathAndTheBytes_andLeavesNothingBehind()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    disk.setCapacityBytes(20L << 20);
    disk.createDirectories(DIR);
    PileOptions defaults = PileOptions.builder().durability(Durability.SYNC).build();

    assertThatThrownBy(() -> PersistentStore.open(disk, DIR, defaults))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining(DIR.toString())
        .hasMessageContaining("No space left on device")
        .hasMessageContaining(Long.toString(4L * (64L << 20))) // 4 x 64 MiB
        .hasMessageContaining("removed");
    assertThat(disk.list(DIR)).as("what the failed create made").isEmpty();
    assertThat(disk.usedBytes()).isZero();

    disk.setCapacityBytes(Long.MAX_VALUE);
    try (OffHeapPile pile = PersistentStore.open(disk, DIR, small().build())) {
      assertThat(pile.put("room now")).isNotZero();
    }
  }

  /**
   * The disk fills while the pile runs: an explicit checkpoint says the pile still takes writes; a
   * checkpoint that failed in the background says, in one message, that the pile takes no more and
   * that reopening recovers every acknowledged write; and it does.
   */
  @Test
  void aDiskThatFillsUp_givesOneMessageAboutThePilesState_andReopenLosesNothing()
      throws IOException {
    SimulatedDisk disk = new SimulatedDisk();
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(64 << 10)
            .stripes(2)
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    OffHeapPile pile = PersistentStore.open(disk, DIR, options);
    Map<Long, byte[]> model = new HashMap<>();
    PersistentPileTest.churn(pile, model, new SplittableRandom(1), 300);
    pile.checkpoint();
    disk.setCapacityBytes(disk.usedBytes()); // the log is preallocated: writes go on
    PersistentPileTest.churn(pile, model, new SplittableRandom(2), 600); // new segments

    assertThatThrownBy(pile::checkpoint)
        .isInstanceOf(DurabilityFailedException.class)
        .hasMessageContaining("No space left on device")
        .hasMessageContaining("still accepts writes")
        .hasMessageContaining("nothing acknowledged is lost")
        .hasMessageNotContaining("accepts no more writes");
    PersistentPileTest.churn(pile, model, new SplittableRandom(3), 100); // it does accept them

    // writes fill the log until the background checkpoint, which meets the full disk
    DurabilityFailedException failed = null;
    SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < 1_000_000 && failed == null; i++) {
      byte[] value = PileTestSupport.randomBytes(random, 200);
      try {
        model.put(pile.put(value), value);
      } catch (DurabilityFailedException e) {
        failed = e;
      }
    }
    assertThat(failed).as("a put after the background checkpoint failed").isNotNull();
    assertThat(failed.getMessage())
        .contains("accepts no more writes", "No space left on device", "reopen")
        .contains("nothing acknowledged is lost")
        .doesNotContain("still accepts writes", "can succeed", "failed earlier");
    assertThatThrownBy(pile::checkpoint)
        .isInstanceOf(DurabilityFailedException.class)
        .hasMessage(failed.getMessage());
    assertThatThrownBy(() -> pile.put("x"))
        .isInstanceOf(DurabilityFailedException.class)
        .hasMessage(failed.getMessage());
    try {
      pile.close();
    } catch (RuntimeException expected) {
      // the failed pile closes without a checkpoint
    }

    disk.setCapacityBytes(Long.MAX_VALUE); // space freed
    try (OffHeapPile reopened = PersistentStore.open(disk, DIR, options)) {
      PersistentPileTest.assertMatches(reopened, model);
    }
  }

  // =========================================================================================
  // helpers

  /** Every file under {@code dir}, by relative path, with its bytes (directories as "dir"). */
  static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> result = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.toList()) {
        if (path.equals(dir)) {
          continue;
        }
        String name = dir.relativize(path).toString();
        result.put(
            name,
            Files.isDirectory(path)
                ? "dir"
                : java.util.HexFormat.of().formatHex(Files.readAllBytes(path)));
      }
    }
    return result;
  }

  private static Map<String, String> contents(SimulatedDisk disk, Path dir) throws IOException {
    Map<String, String> result = new TreeMap<>();
    if (!disk.exists(dir)) {
      return result;
    }
    for (Path path : disk.list(dir)) {
      String name = dir.relativize(path).toString();
      try {
        result.put(name, java.util.HexFormat.of().formatHex(disk.currentContent(path)));
      } catch (NoSuchFileException directory) {
        result.put(name, "dir");
        for (Map.Entry<String, String> e : contents(disk, path).entrySet()) {
          result.put(name + "/" + e.getKey(), e.getValue());
        }
      }
    }
    return result;
  }
}
