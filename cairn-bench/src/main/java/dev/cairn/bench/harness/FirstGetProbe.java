package dev.cairn.bench.harness;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * The reopen bench's child JVM ({@link ReopenBench}): opens the store a bench run closed (a
 * persistent pile, or RocksDB), gets value 0, closes the store and exits. It prints {@value #MAIN}
 * on entering {@code main} and {@value #FIRST_GET} once the value is back, so that the parent can
 * time both from just before it started the process: a restart as an application sees it, the JVM's
 * own start included, which is how the peers' figures in the persistence issue (LMDB 0.48 s,
 * Chronicle Map 1.69 s, RocksDB 1.63 s) were taken.
 *
 * <p>The value is checked after {@value #FIRST_GET} is printed, and a wrong one exits with 1, which
 * the parent treats as a failed run.
 *
 * <p>Arguments: {@code pile DIRECTORY KIND SIZE POINTER DURABILITY LOG_FILE_BYTES HUGE_PAGES} (the
 * log file size 0 for the pile's default), or {@code rocksdb DIRECTORY KIND SIZE}.
 */
public final class FirstGetProbe {
  static final String MAIN = "main";
  static final String FIRST_GET = "first-get";

  private FirstGetProbe() {}

  /** The command that reopens the pile in {@code directory} in a JVM of its own. */
  static List<String> command(Path directory, BenchConfig config, long pointer) {
    return ChildJvm.command(
        FirstGetProbe.class,
        List.of(
            StoreKind.PILE.label(),
            directory.toString(),
            config.valueKind().label(),
            Integer.toString(config.valueSize()),
            Long.toString(pointer),
            config.durability().name(),
            Long.toString(config.logFileBytes()),
            Boolean.toString(config.hugePages())));
  }

  /** The command that reopens the RocksDB in {@code directory} in a JVM of its own. */
  static List<String> rocksDbCommand(Path directory, BenchConfig config) {
    return ChildJvm.command(
        FirstGetProbe.class,
        List.of(
            StoreKind.ROCKSDB.label(),
            directory.toString(),
            config.valueKind().label(),
            Integer.toString(config.valueSize())));
  }

  public static void main(String[] args) {
    System.out.println(MAIN);
    System.out.flush();
    boolean pile = args.length == 8 && args[0].equals(StoreKind.PILE.label());
    boolean rocksDb = args.length == 4 && args[0].equals(StoreKind.ROCKSDB.label());
    if (!pile && !rocksDb) {
      System.err.println(
          "usage: FirstGetProbe pile DIRECTORY KIND SIZE POINTER DURABILITY"
              + " LOG_FILE_BYTES HUGE_PAGES, or rocksdb DIRECTORY KIND SIZE; got "
              + Arrays.asList(args));
      System.exit(2);
    }
    Path directory = Path.of(args[1]);
    BenchValueKind kind = BenchValueKind.valueOf(args[2].toUpperCase(Locale.ROOT));
    int size = Integer.parseInt(args[3]);
    long checksum;
    try {
      checksum =
          pile ? firstGetOfPile(directory, kind, size, args) : firstGetOfRocksDb(directory, size);
    } catch (Exception e) {
      System.err.println("cannot reopen the " + args[0] + " in " + directory + ": " + e);
      System.exit(1);
      return;
    }
    // checked after the line: building the bench's pool of values is not part of a restart
    long expected = new ValueSource(kind, size, BenchRunner.SEED).expectedChecksum(1);
    if (checksum != expected) {
      System.err.println(
          "wrong value 0 in the "
              + args[0]
              + " in "
              + directory
              + ": checksum "
              + checksum
              + ", expected "
              + expected);
      System.exit(1);
    }
  }

  private static long firstGetOfPile(Path directory, BenchValueKind kind, int size, String[] args)
      throws Exception {
    PileOptions.Builder options =
        PileOptions.builder()
            .durability(ChildArguments.durability(args[5]))
            .codecs(kind.codecs())
            .hugePages(Boolean.parseBoolean(args[7]));
    long logFileBytes = Long.parseLong(args[6]);
    if (logFileBytes != 0) {
      options.logFileBytes(logFileBytes);
    }
    try (Pile pile = Pile.open(directory, options.build())) {
      long checksum = PileStore.checksumOf(pile, kind, Long.parseLong(args[4]), new byte[size]);
      firstGetDone();
      return checksum;
    }
  }

  private static long firstGetOfRocksDb(Path directory, int size) throws Exception {
    RocksDB.loadLibrary();
    try (Options options = new Options();
        RocksDB db = RocksDB.open(options, directory.toString())) {
      long checksum = RocksDbStore.checksumOf(db, 0, new byte[size]);
      firstGetDone();
      return checksum;
    }
  }

  private static void firstGetDone() {
    System.out.println(FIRST_GET);
    System.out.flush();
  }
}
