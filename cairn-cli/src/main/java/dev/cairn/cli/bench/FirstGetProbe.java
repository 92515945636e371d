package dev.cairn.cli.bench;

import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The reopen bench's child JVM ({@link ReopenBench}): opens the persistent pile a bench run
 * closed, gets one value by its pointer, checks it, closes the pile and exits. It prints {@value
 * #MAIN} on entering {@code main} and {@value #FIRST_GET} once the value is back, so that the
 * parent can time both from just before it started the process: a restart as an application
 * sees it, the JVM's own start included, which is how the peers' figures in the persistence
 * issue (LMDB 0.48 s, Chronicle Map 1.69 s, RocksDB 1.63 s) were taken.
 *
 * <p>The value is checked after {@value #FIRST_GET} is printed, and a wrong one exits with 1,
 * which the parent treats as a failed run.
 *
 * <p>Arguments: the directory, the value kind, the value size, the pointer, the durability, the
 * log file size in bytes (0: the pile's default), huge pages (true or false).
 */
public final class FirstGetProbe {
  static final String MAIN = "main";
  static final String FIRST_GET = "first-get";
  private static final int ARGUMENTS = 7;

  private FirstGetProbe() {}

  /** The command that runs the probe in a JVM of its own ({@link ChildJvm}). */
  static List<String> command(Path directory, BenchConfig config, long pointer) {
    return ChildJvm.command(FirstGetProbe.class, List.of(
        directory.toString(),
        config.valueKind().label(),
        Integer.toString(config.valueSize()),
        Long.toString(pointer),
        config.durability().name(),
        Long.toString(config.logFileBytes()),
        Boolean.toString(config.hugePages())));
  }

  public static void main(String[] args) {
    System.out.println(MAIN);
    System.out.flush();
    if (args.length != ARGUMENTS) {
      System.err.println("usage: FirstGetProbe DIRECTORY KIND SIZE POINTER DURABILITY"
          + " LOG_FILE_BYTES HUGE_PAGES; got " + List.of(args));
      System.exit(2);
    }
    Path directory = Path.of(args[0]);
    BenchValueKind kind = BenchValueKind.valueOf(args[1].toUpperCase(Locale.ROOT));
    int size = Integer.parseInt(args[2]);
    long pointer = Long.parseLong(args[3]);
    PileOptions.Builder options = PileOptions.builder()
        .durability(Durability.valueOf(args[4]))
        .codecs(kind.codecs())
        .hugePages(Boolean.parseBoolean(args[6]));
    long logFileBytes = Long.parseLong(args[5]);
    if (logFileBytes != 0) {
      options.logFileBytes(logFileBytes);
    }
    try (Pile pile = Pile.open(directory, options.build())) {
      long checksum = PileStore.checksumOf(pile, kind, pointer, new byte[size]);
      System.out.println(FIRST_GET);
      System.out.flush();
      // checked after the line: building the bench's pool of values is not part of a restart
      long expected = new ValueSource(kind, size, BenchRunner.SEED).expectedChecksum(1);
      if (checksum != expected) {
        System.err.println("wrong value at pointer " + pointer + ": checksum " + checksum
            + ", expected " + expected);
        System.exit(1);
      }
    } catch (Exception e) {
      System.err.println("cannot reopen the pile in " + directory + ": " + e);
      System.exit(1);
    }
  }
}
