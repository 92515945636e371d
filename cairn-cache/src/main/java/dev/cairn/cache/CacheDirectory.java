package dev.cairn.cache;

import dev.cairn.durability.file.RealFileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a persistent cache's directory holds, read without changing it: the tables, their entries
 * and bytes, and their index; and a check that index and pile agree. What {@code cairn inspect DIR}
 * and {@code cairn verify DIR} report of a cache. The directory must not be open in another process
 * (the pile's directory lock).
 */
public final class CacheDirectory {
  private CacheDirectory() {}

  /**
   * One table as the directory holds it.
   *
   * @param name the table's name
   * @param keyType its key codec ({@code long}, {@code string}, {@code bytes}, {@code uuid}, or a
   *     class name)
   * @param valueType the class name of its values
   * @param options its options
   * @param entries its entries (expired ones not yet reclaimed included)
   * @param entryBytes the pile's bytes of its entries
   * @param indexBytes the bytes of its index's regions
   * @param keyPlacement how its index places keys, fixed when it was created: {@code runs}
   *     (neighbouring 8-byte keys share lines of slots, docs/CACHE.md "Index") or {@code hashed}
   *     (every key by a seeded hash: tables created by a build of cache format 3)
   */
  public record Table(
      String name,
      String keyType,
      String valueType,
      TableOptions options,
      long entries,
      long entryBytes,
      long indexBytes,
      String keyPlacement) {}

  /**
   * A cache directory's contents.
   *
   * @param tables its tables, in creation order; empty if the pile holds no cache
   * @param verifiedEntries the entries {@link #verify} checked, or -1 for {@link #inspect}
   */
  public record Inspection(List<Table> tables, long verifiedEntries) {
    public Inspection {
      tables = List.copyOf(tables);
    }

    /** Whether the pile holds a cache (a table was ever created in it). */
    public boolean isCache() {
      return !tables.isEmpty();
    }
  }

  /**
   * Describes the cache in {@code directory}: opens its pile read-only, replays its log in memory,
   * and reads the tables' figures. Changes no file.
   *
   * @throws IOException if the directory cannot be read
   * @throws dev.cairn.durability.CorruptFileException if the pile's files are damaged
   * @throws CacheCorruptionException if the cache's own state is damaged
   */
  public static Inspection inspect(Path directory) throws IOException {
    return read(directory, false);
  }

  /**
   * {@link #inspect} and a check that the cache's index and its pile agree ({@link Cache#verify}):
   * every slot names a live entry of its own key, counts and bytes add up, no value is orphaned.
   *
   * @throws CacheCorruptionException naming the first disagreement
   */
  public static Inspection verify(Path directory) throws IOException {
    return read(directory, true);
  }

  private static Inspection read(Path directory, boolean verify) throws IOException {
    Objects.requireNonNull(directory, "directory");
    try (Cache cache = CacheFactory.openReadOnly(RealFileLayer.INSTANCE, directory)) {
      // a pile without tables holds no cache: its values are not a cache's to check
      long verified = verify && !cache.core().tables().isEmpty() ? cache.verify() : -1;
      List<Table> tables = new ArrayList<>();
      for (OffHeapTable<?, ?> t : cache.core().tables()) {
        TableDescriptor d = t.descriptor();
        tables.add(
            new Table(
                d.name(),
                d.keyType(),
                d.valueType(),
                d.options(),
                t.index.size(),
                t.index.entryBytes(),
                t.index.regionBytes(),
                d.placement().name().toLowerCase(java.util.Locale.ROOT)));
      }
      return new Inspection(tables, verified);
    }
  }
}
