package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * Shared checks and value generators for the pile tests.
 *
 * <p>{@link #assertConsistent(Pile, long)} is the validator every test runs on its piles before
 * closing them (Caffeine's {@code CacheValidationInterceptor} habit): the allocator's own {@link
 * Pile#verify()} plus the arithmetic that must hold between the {@link PileStats} counters.
 *
 * <p>Randomized tests take their seed from {@link #seed(String)}: the system property {@code
 * cairn.seed} if set (rerun a failure with {@code ./mvnw -pl cairn-core test -Dtest=Class#method
 * -Dcairn.seed=N}), a fresh random seed otherwise. The seed is printed and also belongs in every
 * failure message of the test.
 */
public final class PileTestSupport {

  private PileTestSupport() {}

  /** Picks the seed of a randomized test and prints how to rerun it. */
  public static long seed(String testName) {
    String fixed = System.getProperty("cairn.seed");
    long seed =
        fixed != null && !fixed.isBlank() ? Long.parseLong(fixed.trim()) : System.nanoTime();
    // Printing is the point: a failing randomized test must say how to reproduce it.
    System.out.println(
        "[seed] " + testName + " seed=" + seed + " (rerun with -Dcairn.seed=" + seed + ")");
    return seed;
  }

  /** Runs {@link Pile#verify()} and checks the stats arithmetic. */
  public static PileStats assertConsistent(Pile pile, long segmentBytes) {
    pile.verify();
    PileStats stats = pile.stats();
    assertStatsConsistent(stats, segmentBytes);
    return stats;
  }

  /** The relations between counters that hold in every state of every pile. */
  public static void assertStatsConsistent(PileStats s, long segmentBytes) {
    String where = "stats " + s;
    assertThat(s.objectCount()).as("objectCount >= 0; " + where).isGreaterThanOrEqualTo(0);
    assertThat(s.linkCount())
        .as("0 <= linkCount <= objectCount; " + where)
        .isBetween(0L, s.objectCount());
    assertThat(s.segmentCount()).as("segmentCount >= 0; " + where).isGreaterThanOrEqualTo(0);
    assertThat(s.capacityBytes())
        .as("capacityBytes == segmentCount * segmentBytes; " + where)
        .isEqualTo(s.segmentCount() * segmentBytes);
    assertThat(s.utilizedBytes())
        .as("0 <= utilizedBytes <= allocatedBytes; " + where)
        .isBetween(0L, s.allocatedBytes());
    assertThat(s.freeBytes()).as("freeBytes >= 0; " + where).isGreaterThanOrEqualTo(0);
    assertThat(s.allocatedBytes() + s.freeBytes())
        .as("allocatedBytes + freeBytes <= capacityBytes; " + where)
        .isLessThanOrEqualTo(s.capacityBytes());
    assertThat(s.overheadBytes())
        .as("overheadBytes == capacityBytes - utilizedBytes - freeBytes; " + where)
        .isEqualTo(s.capacityBytes() - s.utilizedBytes() - s.freeBytes());
    assertThat(s.largestFreeBlockBytes())
        .as("0 <= largestFreeBlockBytes <= freeBytes; " + where)
        .isBetween(0L, s.freeBytes());
    if (s.freeBytes() > 0) {
      assertThat(s.largestFreeBlockBytes())
          .as("some free block when freeBytes > 0; " + where)
          .isPositive();
    }
    assertThat(s.availability()).as("availability in [0, 1]; " + where).isBetween(0.0, 1.0);
    if (s.objectCount() == 0) {
      assertThat(s.allocatedBytes()).as("no allocation without objects; " + where).isZero();
      assertThat(s.utilizedBytes()).as("no utilization without objects; " + where).isZero();
    }
  }

  /** The counters of a pile holding nothing: what a new pile and an emptied pile report. */
  public static void assertHoldsNothing(PileStats s) {
    assertThat(s.objectCount()).as("objectCount of " + s).isZero();
    assertThat(s.linkCount()).as("linkCount of " + s).isZero();
    assertThat(s.utilizedBytes()).as("utilizedBytes of " + s).isZero();
    assertThat(s.allocatedBytes()).as("allocatedBytes of " + s).isZero();
  }

  /** Random bytes of the given size. */
  public static byte[] randomBytes(SplittableRandom random, int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return bytes;
  }

  /**
   * A random string of {@code codePoints} code points from every UTF-8 width: ASCII, 2-byte (Latin,
   * Greek, Cyrillic, Arabic), 3-byte (CJK, Devanagari) and 4-byte (emoji, CJK extension B, musical
   * symbols: surrogate pairs in Java). Never a lone surrogate.
   */
  public static String multilingual(SplittableRandom random, int codePoints) {
    StringBuilder sb = new StringBuilder(codePoints * 2);
    for (int i = 0; i < codePoints; i++) {
      sb.appendCodePoint(randomCodePoint(random));
    }
    return sb.toString();
  }

  /** One valid (non-surrogate) code point, of a random UTF-8 width. */
  public static int randomCodePoint(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> random.nextInt(0x20, 0x7F);
      case 1 -> random.nextInt(0x80, 0x800);
      case 2 -> {
        int cp = random.nextInt(0x800, 0x10000 - 0x800);
        yield cp >= Character.MIN_SURROGATE ? cp + 0x800 : cp; // skip D800-DFFF
      }
      default -> random.nextInt(0x10000, 0x110000);
    };
  }

  /** A fixed string with all four UTF-8 widths, surrogate pairs included. */
  public static final String SAMPLE_MULTILINGUAL =
      "Cairn: caf\u00e9 \u00df \u0416\u0438\u0437\u043d\u044c \u03a9 \u0639\u0631\u0628\u064a"
          + " \u0939\u093f\u0928\u094d\u0926\u0940 \u4e2d\u6587 \u65e5\u672c\u8a9e"
          + " \ud55c\uad6d\uc5b4 \ud83d\ude00 \ud834\udd1e \ud842\udfb7 \ud800\udf48";

  /**
   * The bytes the pile stores for a raw value: the array itself, or a string's UTF-8. For a box,
   * the little-endian encoding of the built-in codec (the pile may prefix it with a type id).
   */
  public static byte[] rawBytes(Object value) {
    return switch (value) {
      case byte[] b -> b;
      case String s -> s.getBytes(StandardCharsets.UTF_8);
      case Integer i -> le(4).putInt(i).array();
      case Long l -> le(8).putLong(l).array();
      case Double d -> le(8).putDouble(d).array();
      case Float f -> le(4).putFloat(f).array();
      case Short s -> le(2).putShort(s).array();
      case Character c -> le(2).putChar(c).array();
      case Byte b -> new byte[] {b};
      case Boolean b -> new byte[] {(byte) (b ? 1 : 0)};
      default -> throw new IllegalArgumentException("no known encoding for " + value.getClass());
    };
  }

  private static ByteBuffer le(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The kind the pile must report for a value. */
  public static ValueKind kindOf(Object value) {
    return switch (value) {
      case byte[] b -> ValueKind.BYTES;
      case String s -> ValueKind.STRING;
      default -> ValueKind.OBJECT;
    };
  }

  /** Equality that compares arrays by content. */
  public static boolean sameValue(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return java.util.Arrays.equals(x, y);
    }
    return a != null && a.getClass() == (b == null ? null : b.getClass()) && a.equals(b);
  }

  /** A short description of a value for failure messages. */
  public static String describe(Object value) {
    return switch (value) {
      case null -> "null";
      case byte[] b -> "byte[" + b.length + "]";
      case String s ->
          "String(" + s.length() + " chars, " + s.getBytes(StandardCharsets.UTF_8).length + " B)";
      default -> value.getClass().getSimpleName() + "(" + value + ")";
    };
  }

  // ---------------------------------------------------------------- self-checking values

  /** The smallest {@link #checkedValue}: its fixed fields and checksum. */
  public static final int CHECKED_MIN_BYTES = 28;

  /** For {@link #checkedValueProblem}: accept a value of any entry. */
  public static final long ANY_ENTRY = Long.MIN_VALUE;

  /**
   * A value that says whose it is and whether it is whole, so that a concurrent reader can tell
   * torn or foreign bytes from a correct read:
   *
   * <pre>
   * Value --> EntryId:i64, Sequence:i64, Length:i32, Filler[Length - 28], Crc32c:i64
   * </pre>
   *
   * Little-endian; the CRC-32C covers every byte before it; the filler is random.
   */
  public static byte[] checkedValue(
      long entryId, long sequence, int length, SplittableRandom random) {
    if (length < CHECKED_MIN_BYTES) {
      throw new IllegalArgumentException("length < " + CHECKED_MIN_BYTES + ": " + length);
    }
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, entryId).putLong(8, sequence).putInt(16, length);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length - 8);
    b.putLong(length - 8, crc.getValue());
    return bytes;
  }

  /**
   * Null if {@code bytes} is a whole, untorn {@link #checkedValue} of {@code entryId} ({@link
   * #ANY_ENTRY}: of any entry) at {@code sequence} (if >= 0); otherwise what is wrong with it.
   */
  public static String checkedValueProblem(byte[] bytes, long entryId, long sequence) {
    if (bytes.length < CHECKED_MIN_BYTES) {
      return "too short: " + bytes.length + " bytes";
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long id = b.getLong(0);
    long seq = b.getLong(8);
    int length = b.getInt(16);
    if (length != bytes.length) {
      return "length field " + length + " != bytes read " + bytes.length + " (entry " + id + ")";
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 8);
    if (crc.getValue() != b.getLong(bytes.length - 8)) {
      return "checksum mismatch, torn bytes (entry " + id + " seq " + seq + " len " + length + ")";
    }
    if (entryId != ANY_ENTRY && id != entryId) {
      return "another value's bytes: entry "
          + id
          + " seq "
          + seq
          + " where entry "
          + entryId
          + " was put";
    }
    if (sequence >= 0 && seq != sequence) {
      return "entry " + id + ": read sequence " + seq + " but its writer last wrote " + sequence;
    }
    return null;
  }

  /** Copies the directory tree {@code from} to {@code to}, lock files left out. */
  public static void copyTree(java.nio.file.Path from, java.nio.file.Path to)
      throws java.io.IOException {
    try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(from)) {
      for (java.nio.file.Path source : walk.sorted().toList()) {
        java.nio.file.Path target = to.resolve(from.relativize(source));
        if (java.nio.file.Files.isDirectory(source)) {
          java.nio.file.Files.createDirectories(target);
        } else if (!source.getFileName().toString().equals("cairn.lock")) {
          java.nio.file.Files.copy(source, target);
        }
      }
    }
  }
}
