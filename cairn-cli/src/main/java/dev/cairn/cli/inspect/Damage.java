package dev.cairn.cli.inspect;

import dev.cairn.CairnException;
import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.pile.PileCorruptionException;
import java.nio.file.Path;

/**
 * The first problem {@code verify} found in a pile's directory, in the terms a report needs.
 *
 * @param kind what sort of problem: {@code corruptFile} (a checksum, magic or length that cannot be
 *     what Cairn wrote), {@code formatVersion} (a file of another version or kind), {@code
 *     allocatorInvariant} (a segment's blocks or counters do not add up), or {@code other}
 * @param file the damaged file, or null when the problem names a segment rather than a file
 * @param offset the byte offset in {@code file}, or -1 when unknown
 * @param message core's own description: it names the file and offset, or the segment, offset and
 *     invariant, and says what to check
 */
public record Damage(String kind, Path file, long offset, String message) {

  /** The damage an exception from {@code PileDirectory.verify} describes. */
  public static Damage of(CairnException problem) {
    return switch (problem) {
      case CorruptFileException e ->
          new Damage("corruptFile", e.file(), e.offset(), e.getMessage());
      case FormatVersionException e -> new Damage("formatVersion", e.file(), -1, e.getMessage());
      // the segment, offset and invariant are only in the message: core has no accessors for them
      case PileCorruptionException e -> new Damage("allocatorInvariant", null, -1, e.getMessage());
      default -> new Damage("other", null, -1, problem.getMessage());
    };
  }
}
