package dev.cairn.durability.file;

import dev.cairn.durability.FormatVersionException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The kinds of durable file, each told apart by its 8-byte magic number: the ASCII text {@code
 * CAIRN-} and a two-letter kind, read as a little-endian {@code u64}. A reader that finds another
 * kind's magic reports the kind it found ({@link FormatVersionException}), not mere corruption.
 */
public enum FileKind {
  SUPERBLOCK("CAIRN-SB", "a Cairn superblock"),
  LOG("CAIRN-WL", "a Cairn write-ahead log file");

  private static final String PREFIX = "CAIRN-";

  private final long magic;
  private final String description;

  FileKind(String text, String description) {
    this.magic = magicOf(text);
    this.description = description;
  }

  /** The magic number at the start of every file of this kind. */
  public long magic() {
    return magic;
  }

  static long magicOf(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    if (bytes.length != 8) {
      throw new IllegalArgumentException("magic must be 8 ASCII bytes: " + text);
    }
    return java.nio.ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  /** The kind with this magic, or null. */
  static FileKind of(long magic) {
    for (FileKind kind : values()) {
      if (kind.magic == magic) {
        return kind;
      }
    }
    return null;
  }

  /** Whether {@code magic} looks like any Cairn file's (known kind or not). */
  static boolean isCairn(long magic) {
    long prefixMask = (1L << (8 * PREFIX.length())) - 1;
    return (magic & prefixMask) == (magicOf(PREFIX + "\0\0") & prefixMask);
  }

  /** A human description of a magic number: a known kind, another Cairn kind, or foreign bytes. */
  public static String describe(long magic) {
    FileKind kind = of(magic);
    if (kind != null) {
      return kind.description;
    }
    if (isCairn(magic)) {
      return "a Cairn file of an unknown kind (magic 0x" + Long.toHexString(magic) + ")";
    }
    return "not a Cairn file (magic 0x" + Long.toHexString(magic) + ")";
  }
}
