package dev.cairn.durability.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Damage to real files, as a failing disk or a careless hand would do it, for the corruption fuzz
 * tests of the pile and the cache: a flipped bit, a zeroed run of bytes, a truncation.
 */
public final class FileDamage {
  private FileDamage() {}

  /**
   * Flips a bit, zeroes up to 512 bytes, or truncates {@code file}, at a random offset (within the
   * first 4 KiB half of the time: the headers are what an open reads); says what it did.
   */
  public static String damage(Path file, SplittableRandom random) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    String name = file.getFileName().toString();
    if (bytes.length == 0) {
      return "nothing to damage in empty " + name;
    }
    int at =
        random.nextBoolean()
            ? random.nextInt(Math.min(bytes.length, 4096))
            : random.nextInt(bytes.length);
    switch (random.nextInt(3)) {
      case 0 -> {
        bytes[at] ^= (byte) (1 << random.nextInt(8));
        Files.write(file, bytes);
        return "flipped a bit of " + name + " at offset " + (at < 64 ? "0-63" : at);
      }
      case 1 -> {
        int end = Math.min(bytes.length, at + 512);
        Arrays.fill(bytes, at, end, (byte) 0);
        Files.write(file, bytes);
        return "zeroed " + name + " at offset " + (at < 64 ? "0-" + end : at + "-" + end);
      }
      default -> {
        Files.write(file, Arrays.copyOf(bytes, at));
        return "truncated " + name + " at offset " + (at < 64 ? "0-" + at : at);
      }
    }
  }

  /** The regular files under {@code dir}, sorted, its lock file left out. */
  public static List<Path> filesOf(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return new ArrayList<>(
          walk.filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().equals("cairn.lock"))
              .sorted()
              .toList());
    }
  }

  /** Deletes {@code dir} and everything under it. */
  public static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
