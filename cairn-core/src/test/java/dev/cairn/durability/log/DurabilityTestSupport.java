package dev.cairn.durability.log;

import dev.cairn.durability.file.FileLayer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Helpers shared by the durability tests. */
public final class DurabilityTestSupport {
  static final Path DIR = Path.of("/pile");

  private DurabilityTestSupport() {}

  /** A seed from -Dcairn.seed or the clock, printed so that a failure can be replayed. */
  public static long seed(String testName) {
    String fixed = System.getProperty("cairn.seed");
    long seed =
        fixed != null && !fixed.isBlank() ? Long.parseLong(fixed.trim()) : System.nanoTime();
    // Printing is the point: a failing randomized test must say how to reproduce it.
    System.out.println(
        "[seed] " + testName + " seed=" + seed + " (rerun with -Dcairn.seed=" + seed + ")");
    return seed;
  }

  /** A record as read back or as appended. */
  record Rec(long lsn, long end, int type, byte[] payload) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Rec r
          && r.lsn == lsn
          && r.end == end
          && r.type == type
          && java.util.Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(lsn);
    }

    @Override
    public String toString() {
      return "Rec[lsn="
          + lsn
          + ", end="
          + end
          + ", type="
          + type
          + ", bytes="
          + payload.length
          + "]";
    }
  }

  /** A visitor that collects records into a list. */
  static RecordVisitor collect(List<Rec> into) {
    return (lsn, end, type, payload) ->
        into.add(new Rec(lsn, end, type, payload.toArray(ValueLayout.JAVA_BYTE)));
  }

  static List<Rec> scanAll(FileLayer layer, Path dir, long from) throws java.io.IOException {
    List<Rec> records = new ArrayList<>();
    try (LogReader reader = LogReader.open(layer, dir)) {
      reader.scan(from, collect(records));
    }
    return records;
  }

  /** A payload whose bytes say who wrote it: writer id and sequence, then filler. */
  static byte[] payload(int writer, long sequence, int length) {
    byte[] bytes = new byte[Math.max(length, 12)];
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, writer).putLong(4, sequence);
    SplittableRandom random = new SplittableRandom(writer * 1_000_003L + sequence);
    for (int i = 12; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  static MemorySegment segment(byte[] bytes) {
    return MemorySegment.ofArray(bytes);
  }
}
