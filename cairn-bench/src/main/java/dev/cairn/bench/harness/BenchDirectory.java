package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The {@code --dir} of a bench run: each store keeps its files in a subdirectory named by its label
 * ({@code pile/}, {@code mapped/}, {@code rocksdb/}; the cache workload's Cairn cache {@code
 * cache/}, its warm-up {@code cache-warmup/}), and the fsync probe its scratch file beside them. A
 * run starts from an empty directory, so that every figure is of a fresh store; the files stay
 * after the run, for {@code cairn inspect DIR/pile} and the like. A persistent store's warm-up runs
 * in {@code pile-warmup/} (or {@code mapped-warmup/}), and the commit workload's later warm-up
 * rounds in {@code pile-warmup-2/}, each deleted after it.
 *
 * <p>Why not simply wipe the directory: {@code --dir} is a path the user typed, and a typo must not
 * delete their data. So a run refuses a non-empty directory, and {@code --fresh} deletes only what
 * a previous run left there: it refuses if anything else is in it.
 */
public final class BenchDirectory {
  /** The scratch file of {@link FsyncProbe}, deleted after use, but left by a killed run. */
  static final String FSYNC_PROBE_FILE = "fsync-probe.tmp";

  /** Where the cache workload keeps Cairn's persistent cache. */
  public static final String CACHE_DIRECTORY = "cache";

  /**
   * Where the cache workload's warm-up cache lives: deleted after it, but left by a killed run. The
   * name the commit workload's cache warm-up uses too, so {@code --fresh} knows it already.
   */
  public static final String CACHE_WARMUP_DIRECTORY = warmUpDirectoryName(StoreKind.CACHE);

  /**
   * The JVM's ahead-of-time cache that the cache workload's restart trains (see {@code
   * CacheBench}): the classes of a restart, loaded and linked in advance.
   */
  public static final String RESTART_AOT_FILE = "restart.aot";

  private BenchDirectory() {}

  /**
   * Makes {@code directory} exist and be empty; with {@code fresh}, deletes what an earlier run
   * left in it first.
   *
   * @throws IllegalArgumentException if it holds anything a run did not leave, or anything at all
   *     without {@code fresh}; or if it is a file
   */
  public static void prepare(Path directory, boolean fresh) throws IOException {
    if (Files.exists(directory) && !Files.isDirectory(directory)) {
      throw new IllegalArgumentException("--dir must be a directory: " + directory + " is a file");
    }
    Files.createDirectories(directory);
    List<Path> entries;
    try (Stream<Path> list = Files.list(directory)) {
      entries = list.sorted().toList();
    }
    if (entries.isEmpty()) {
      return;
    }
    Set<String> foreign = new TreeSet<>();
    for (Path entry : entries) {
      if (!leftByARun(entry)) {
        foreign.add(entry.getFileName().toString());
      }
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException(
          "--dir must be empty or absent, or hold only what an earlier cairn bench left (pile/,"
              + " mapped/, rocksdb/, cache/, restart.aot, the petclinic configurations' folders)"
              + " for --fresh to delete: "
              + directory
              + " holds "
              + foreign);
    }
    if (!fresh) {
      throw new IllegalArgumentException(
          "--dir must be empty or absent: "
              + directory
              + " holds an earlier run's files;"
              + " add --fresh to delete them first");
    }
    for (Path entry : entries) {
      deleteTree(entry);
    }
  }

  private static boolean leftByARun(Path entry) {
    String name = entry.getFileName().toString();
    if (name.equals(FSYNC_PROBE_FILE) || name.equals(RESTART_AOT_FILE)) {
      return Files.isRegularFile(entry);
    }
    if (name.equals(CACHE_DIRECTORY)) {
      return Files.isDirectory(entry);
    }
    if (Files.isDirectory(entry)
        && Stream.of(dev.cairn.bench.petclinic.PetclinicConfig.values())
            .anyMatch(c -> c.label().equals(name))) {
      return true; // --workload petclinic: a configuration's database and cache
    }
    return Files.isDirectory(entry)
        && Stream.of(StoreKind.values())
            .anyMatch(
                store ->
                    store.label().equals(name)
                        || warmUpDirectoryName(store).equals(name)
                        || secondWarmUpDirectoryName(store).equals(name));
  }

  /**
   * The directory, beside the store's own, of a persistent store's warm-up (see {@link
   * BenchRunner}): deleted after the warm-up, but left by a killed run.
   */
  static String warmUpDirectoryName(StoreKind store) {
    return store.label() + "-warmup";
  }

  /** The directory of a store's second warm-up store (see {@link CommitBench}). */
  static String secondWarmUpDirectoryName(StoreKind store) {
    return warmUpDirectoryName(store) + "-2";
  }

  /** Deletes {@code root} and everything under it. */
  public static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
