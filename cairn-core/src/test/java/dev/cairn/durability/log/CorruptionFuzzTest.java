package dev.cairn.durability.log;

import static dev.cairn.durability.log.DurabilityTestSupport.DIR;
import static dev.cairn.durability.log.DurabilityTestSupport.collect;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.durability.file.Superblock;
import dev.cairn.durability.log.DurabilityTestSupport.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Corruption fuzz: flip bits in, zero, overwrite with garbage, or truncate every kind of durable
 * file, then recover. The only acceptable outcomes are a clear exception ({@link
 * CorruptFileException}, {@link FormatVersionException}) or a correct recovery: for the log, a
 * prefix of what was written, byte for byte; for a superblock, one of the states written. Never
 * another exception, never silently wrong data, never a JVM crash.
 */
class CorruptionFuzzTest {
  private static final Path SUPERBLOCK = DIR.resolve("pile.superblock");
  private static final LogOptions OPTIONS =
      LogOptions.builder().fileBytes(16 << 10).fileCount(3).bufferBytes(8 << 10).build();

  @Test
  void damagedFiles_giveAClearExceptionOrACorrectRecovery() throws Exception {
    long seed = DurabilityTestSupport.seed("CorruptionFuzzTest");
    SplittableRandom random = new SplittableRandom(seed);

    // the reference: a log spanning its three files, every record proved durable by the next
    SimulatedDisk reference = new SimulatedDisk();
    List<Rec> written = new ArrayList<>();
    try (WriteAheadLog log = WriteAheadLog.open(reference, DIR, OPTIONS, 0, (a, b, c, d) -> {})) {
      for (int i = 0; i < 90; i++) {
        byte[] p = DurabilityTestSupport.payload(1, i, random.nextInt(500));
        long start = log.endLsn();
        long end = log.append(40, p);
        written.add(new Rec(start, end, 40, p));
        log.syncTo(end);
      }
    }
    List<Superblock.State> states = new ArrayList<>();
    try (Superblock sb = Superblock.create(reference, SUPERBLOCK, 0, false, new byte[] {1})) {
      states.add(sb.current());
      states.add(sb.write(100, false, new byte[300]));
      states.add(sb.write(200, true, new byte[] {2, 3}));
    }
    List<Path> files = new ArrayList<>();
    for (int slot = 0; slot < 3; slot++) {
      files.add(DIR.resolve(LogLayout.fileName(slot)));
    }
    files.add(DIR.resolve(LogLayout.META_FILE_NAME));
    files.add(SUPERBLOCK);

    Map<String, Integer> outcomes = new TreeMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    int iterations = 0;
    while (iterations < 2000 && (iterations < 200 || System.nanoTime() < deadline)) {
      SimulatedDisk disk = reference.snapshot();
      Path file = files.get(random.nextInt(files.size()));
      String mutation = damage(disk, file, random);
      String outcome;
      try {
        outcome = file.equals(SUPERBLOCK) ? checkSuperblock(disk, states) : checkLog(disk, written);
      } catch (Throwable t) {
        throw new AssertionError(
            "iteration "
                + iterations
                + ": "
                + mutation
                + " of "
                + file
                + " gave an unexpected outcome (seed "
                + seed
                + ")",
            t);
      }
      outcomes.merge(file.getFileName() + " " + outcome, 1, Integer::sum);
      iterations++;
    }
    System.out.println("[fuzz] " + iterations + " damaged files: " + outcomes);
  }

  private static String damage(SimulatedDisk disk, Path file, SplittableRandom random)
      throws IOException {
    byte[] content = disk.currentContent(file);
    try (FileHandle h = disk.open(file, FileLayer.OpenMode.READ_WRITE)) {
      // mostly where the bytes matter: headers and the first records
      int hot = Math.min(content.length, random.nextBoolean() ? 4096 + 4096 : content.length);
      int at = random.nextInt(Math.max(1, hot));
      String mutation;
      switch (random.nextInt(4)) {
        case 0 -> {
          int bits = 1 + random.nextInt(3);
          for (int i = 0; i < bits; i++) {
            int offset = Math.min(content.length - 1, at + random.nextInt(16));
            content[offset] ^= (byte) (1 << random.nextInt(8));
            h.write(ByteBuffer.wrap(content, offset, 1), offset);
          }
          mutation = "flip " + bits + " bits near " + at;
        }
        case 1 -> {
          int length = Math.min(content.length - at, 1 + random.nextInt(600));
          h.write(ByteBuffer.wrap(new byte[length]), at);
          mutation = "zero " + length + " bytes at " + at;
        }
        case 2 -> {
          byte[] garbage = new byte[Math.min(content.length - at, 1 + random.nextInt(600))];
          random.nextBytes(garbage);
          h.write(ByteBuffer.wrap(garbage), at);
          mutation = "garbage " + garbage.length + " bytes at " + at;
        }
        default -> {
          long size = random.nextInt(content.length);
          h.truncate(size);
          mutation = "truncate to " + size;
        }
      }
      h.force();
      return mutation;
    }
  }

  private static String checkSuperblock(SimulatedDisk disk, List<Superblock.State> states)
      throws IOException {
    try {
      Superblock.State state = Superblock.read(disk, SUPERBLOCK);
      assertThat(states).contains(state);
      return state.equals(states.getLast()) ? "newest" : "older state";
    } catch (CorruptFileException e) {
      assertThat(e.file()).isEqualTo(SUPERBLOCK);
      return "CorruptFileException";
    } catch (FormatVersionException e) {
      return "FormatVersionException";
    }
  }

  private static String checkLog(SimulatedDisk disk, List<Rec> written) throws IOException {
    try {
      List<Rec> read = new ArrayList<>();
      try (LogReader reader = LogReader.open(disk, DIR)) {
        reader.scan(0, collect(read));
      }
      assertThat(read.size()).isLessThanOrEqualTo(written.size());
      assertThat(read).containsExactlyElementsOf(written.subList(0, read.size()));
      // recovery for writing must agree, and the log must then work
      List<Rec> replayed = new ArrayList<>();
      try (WriteAheadLog log = WriteAheadLog.open(disk, DIR, OPTIONS, 0, collect(replayed))) {
        log.syncTo(log.append(41, new byte[] {9}));
      }
      assertThat(replayed).isEqualTo(read);
      return read.size() == written.size() ? "all records" : "a shorter prefix";
    } catch (CorruptFileException e) {
      assertThat(e.file().getParent()).isEqualTo(DIR);
      return "CorruptFileException";
    } catch (FormatVersionException e) {
      return "FormatVersionException";
    }
  }
}
