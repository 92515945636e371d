package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.assertHoldsNothing;
import static dev.cairn.pile.PileTestSupport.assertStatsConsistent;
import static dev.cairn.pile.PileTestSupport.describe;
import static dev.cairn.pile.PileTestSupport.kindOf;
import static dev.cairn.pile.PileTestSupport.rawBytes;
import static dev.cairn.pile.PileTestSupport.sameValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Model-based test: random sequences of pile operations checked against a {@code
 * LinkedHashMap<Long, Object>} of pointer to value.
 *
 * <p>Small segments (64 KiB or 1 MiB) make segments fill up, empty out, get released and be reused
 * within one sequence. Half of the runs have a budget of four segments, so that {@link
 * PileFullException} happens in the middle of puts and growing updates; the model then stays as it
 * was and the pile must too (all-or-nothing mutations).
 *
 * <p>jqwik prints the seed of every property in its report; a failing run is replayed first on the
 * next run, and can be pinned with {@code @Property(seed = "...")}. The shrunk sequence it reports
 * is the smallest found that still fails.
 */
class PileModelTest {

  // ---------------------------------------------------------------- values

  /** A value description that shrinks well and is materialized only when the op runs. */
  sealed interface ValueSpec permits BytesSpec, StringSpec, BoxSpec {
    Object materialize(int maxBytes);
  }

  /** {@code size} bytes, pseudo-random from {@code seed} (so two values rarely look alike). */
  record BytesSpec(int size, long seed) implements ValueSpec {
    @Override
    public Object materialize(int maxBytes) {
      byte[] b = new byte[Math.min(size, maxBytes)];
      new SplittableRandom(seed).nextBytes(b);
      return b;
    }
  }

  /** A string of the given code points, cut to fit {@code maxBytes} of UTF-8. */
  record StringSpec(List<Integer> codePoints) implements ValueSpec {
    @Override
    public Object materialize(int maxBytes) {
      StringBuilder sb = new StringBuilder();
      int utf8 = 0;
      for (int cp : codePoints) {
        int width = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (utf8 + width > maxBytes) {
          break;
        }
        utf8 += width;
        sb.appendCodePoint(cp);
      }
      return sb.toString();
    }

    @Override
    public String toString() {
      String s = (String) materialize(Integer.MAX_VALUE);
      return "StringSpec["
          + codePoints.size()
          + " code points: "
          + (s.length() > 40 ? s.substring(0, 40) + "..." : s)
          + "]";
    }
  }

  /** A primitive box, stored through a built-in codec. */
  record BoxSpec(Object box) implements ValueSpec {
    @Override
    public Object materialize(int maxBytes) {
      return box;
    }
  }

  // ---------------------------------------------------------------- operations

  sealed interface Op permits Put, Read, Update, Delete, SizeOf, ReadDeleted, ForEach, Verify {}

  /** Put a value, with {@code extra} bytes of room to grow. */
  record Put(ValueSpec value, int extra) implements Op {}

  /** Read a live value through one of the read methods ({@code method} picks which). */
  record Read(int pick, int method) implements Op {}

  /** Replace a live value; it may grow past its capacity (a move) or shrink back. */
  record Update(int pick, ValueSpec value) implements Op {}

  record Delete(int pick) implements Op {}

  record SizeOf(int pick) implements Op {}

  /** Use a pointer deleted earlier: every use must throw StalePointerException. */
  record ReadDeleted(int pick) implements Op {}

  record ForEach() implements Op {}

  record Verify() implements Op {}

  private static final int READ_METHODS = 9;

  // ---------------------------------------------------------------- the property

  @Property(tries = 200)
  void randomOperations_matchTheModel(
      @ForAll("operations") List<Op> ops,
      @ForAll("segmentSizes") long segmentBytes,
      @ForAll("stripeCounts") int stripes,
      @ForAll boolean budgeted) {
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(segmentBytes)
            .stripes(stripes)
            .maxMemoryBytes(budgeted ? 4 * segmentBytes : Long.MAX_VALUE)
            .build();
    try (Pile pile = Pile.offHeap(options)) {
      new Run(pile, options).execute(ops);
    }
  }

  /**
   * A narrow domain, where allocator bugs show up: byte arrays of only five sizes, so that freed
   * blocks are reused by exact fits and values move into the holes of their neighbours.
   */
  @Property(tries = 500)
  void fewValueSizes_matchTheModel(@ForAll("fewSizeOperations") List<Op> ops) {
    PileOptions options = PileOptions.builder().segmentBytes(64L << 10).stripes(1).build();
    try (Pile pile = Pile.offHeap(options)) {
      new Run(pile, options).execute(ops);
    }
  }

  @Provide
  Arbitrary<List<Op>> fewSizeOperations() {
    Arbitrary<ValueSpec> value =
        Combinators.combine(Arbitraries.of(1, 24, 100, 200, 1000), Arbitraries.longs())
            .as(BytesSpec::new);
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 63);
    Arbitrary<Op> op =
        Arbitraries.frequencyOf(
            Tuple.of(35, value.map(v -> new Put(v, 0))),
            Tuple.of(30, Combinators.combine(pick, value).as(Update::new)),
            Tuple.of(25, pick.map(Delete::new)),
            Tuple.of(
                5,
                Combinators.combine(pick, Arbitraries.integers().between(0, READ_METHODS - 1))
                    .as(Read::new)),
            Tuple.of(5, Arbitraries.just(new Verify())));
    return op.list().ofMinSize(1).ofMaxSize(40);
  }

  @Provide
  Arbitrary<Long> segmentSizes() {
    return Arbitraries.of(64L << 10, 1L << 20);
  }

  @Provide
  Arbitrary<Integer> stripeCounts() {
    return Arbitraries.of(1, 4);
  }

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 1 << 20);
    Arbitrary<Integer> extra =
        Arbitraries.frequencyOf(
            Tuple.of(70, Arbitraries.just(0)),
            Tuple.of(30, Arbitraries.integers().between(1, 4000)));
    Arbitrary<Op> put = Combinators.combine(values(), extra).as(Put::new);
    Arbitrary<Op> read =
        Combinators.combine(pick, Arbitraries.integers().between(0, READ_METHODS - 1))
            .as(Read::new);
    Arbitrary<Op> update = Combinators.combine(pick, values()).as(Update::new);
    Arbitrary<Op> op =
        Arbitraries.frequencyOf(
            Tuple.of(30, put),
            Tuple.of(18, read),
            Tuple.of(22, update),
            Tuple.of(14, pick.map(Delete::new)),
            Tuple.of(5, pick.map(SizeOf::new)),
            Tuple.of(5, pick.map(ReadDeleted::new)),
            Tuple.of(3, Arbitraries.just(new ForEach())),
            Tuple.of(3, Arbitraries.just(new Verify())));
    return op.list().ofMinSize(1).ofMaxSize(150);
  }

  private static Arbitrary<ValueSpec> values() {
    Arbitrary<Integer> size =
        Arbitraries.frequencyOf(
            // a few recurring sizes, so that freed blocks are reused by exact fits
            Tuple.of(20, Arbitraries.of(0, 1, 8, 16, 24, 100, 1000, 5000)),
            Tuple.of(30, Arbitraries.integers().between(0, 200)),
            Tuple.of(30, Arbitraries.integers().between(0, 2000)),
            Tuple.of(12, Arbitraries.integers().between(2000, 20_000)),
            Tuple.of(8, Arbitraries.integers().between(20_000, 100_000)));
    Arbitrary<ValueSpec> bytes = Combinators.combine(size, Arbitraries.longs()).as(BytesSpec::new);
    Arbitrary<Integer> codePoint =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0x20, 0x7E)),
            Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
            Tuple.of(2, Arbitraries.integers().between(0x800, 0xD7FF)),
            Tuple.of(1, Arbitraries.integers().between(0xE000, 0xFFFF)),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)));
    Arbitrary<ValueSpec> strings =
        Arbitraries.frequencyOf(
                Tuple.of(9, codePoint.list().ofMaxSize(300)),
                Tuple.of(1, codePoint.list().ofMinSize(300).ofMaxSize(8000)))
            .map(StringSpec::new);
    Arbitrary<Object> box =
        Arbitraries.oneOf(
            Arbitraries.integers().map(v -> (Object) v),
            Arbitraries.longs().map(v -> (Object) v),
            Arbitraries.doubles()
                .withSpecialValue(Double.NaN)
                .withSpecialValue(-0.0)
                .map(v -> (Object) v),
            Arbitraries.floats().withSpecialValue(Float.NaN).map(v -> (Object) v),
            Arbitraries.shorts().map(v -> (Object) v),
            Arbitraries.chars().map(v -> (Object) v),
            Arbitraries.bytes().map(v -> (Object) v),
            Arbitraries.of(Boolean.TRUE, Boolean.FALSE).map(v -> (Object) v));
    Arbitrary<ValueSpec> boxes = box.map(BoxSpec::new);
    return Arbitraries.frequencyOf(Tuple.of(45, bytes), Tuple.of(35, strings), Tuple.of(20, boxes));
  }

  // ---------------------------------------------------------------- the interpreter

  /** One sequence against one pile and its model. */
  private static final class Run {
    private final Pile pile;
    private final PileOptions options;
    private final int maxValueBytes;

    /** pointer to value, in put order so that {@code pick % size} is deterministic. */
    private final LinkedHashMap<Long, Object> model = new LinkedHashMap<>();

    /** pointer to the size the pile reported for it (boxes may carry a type-id prefix). */
    private final Map<Long, Integer> storedSize = new HashMap<>();

    private final List<Long> deleted = new ArrayList<>();
    private int step;

    Run(Pile pile, PileOptions options) {
      this.pile = pile;
      this.options = options;
      // a value must fit a segment; keep well inside it so that the sequence is about reuse
      this.maxValueBytes = (int) Math.min(100_000, options.segmentBytes() * 3 / 8);
    }

    void execute(List<Op> ops) {
      assertHoldsNothing(pile.stats());
      for (Op op : ops) {
        step++;
        apply(op);
        checkCounters(op);
      }
      pile.verify();
      checkForEach();
      // read every live value once more: nothing was overwritten by later operations
      for (var e : model.entrySet()) {
        assertValue(e.getKey(), e.getValue(), "final read");
      }
      for (long p : List.copyOf(model.keySet())) {
        pile.delete(p);
        model.remove(p);
        storedSize.remove(p);
      }
      PileStats end = pile.stats();
      assertHoldsNothing(end);
      assertStatsConsistent(end, options.segmentBytes());
      pile.verify();
    }

    private void apply(Op op) {
      switch (op) {
        case Put put -> put(put);
        case Read read -> {
          if (!model.isEmpty()) {
            long p = pick(read.pick());
            read(p, model.get(p), read.method());
          }
        }
        case Update update -> {
          if (!model.isEmpty()) {
            update(pick(update.pick()), update.value().materialize(maxValueBytes));
          }
        }
        case Delete delete -> {
          if (!model.isEmpty()) {
            delete(pick(delete.pick()));
          }
        }
        case SizeOf sizeOf -> {
          if (!model.isEmpty()) {
            long p = pick(sizeOf.pick());
            assertThat(pile.sizeOf(p)).as(at("sizeOf")).isEqualTo(storedSize.get(p));
            assertThat(pile.kindOf(p)).as(at("kindOf")).isEqualTo(kindOf(model.get(p)));
          }
        }
        case ReadDeleted rd -> {
          if (!deleted.isEmpty()) {
            readDeleted(deleted.get(rd.pick() % deleted.size()));
          }
        }
        case ForEach ignored -> checkForEach();
        case Verify ignored -> pile.verify();
      }
    }

    private void put(Put put) {
      Object value = put.value().materialize(maxValueBytes);
      int extra = Math.min(put.extra(), maxValueBytes);
      PileStats before = pile.stats();
      long p;
      try {
        p = extra == 0 ? pile.put(value) : pile.put(value, extra);
      } catch (PileFullException full) {
        assertThat(options.maxMemoryBytes())
            .as(at("PileFullException without a budget: " + full))
            .isNotEqualTo(Long.MAX_VALUE);
        assertThat(pile.stats()).as(at("stats after a failed put")).isEqualTo(before);
        return;
      }
      assertThat(p).as(at("put returned NULL")).isNotEqualTo(Pile.NULL);
      assertThat(model).as(at("put returned a live pointer again")).doesNotContainKey(p);
      model.put(p, value);
      storedSize.put(p, checkedSize(p, value));
      assertValue(p, value, "after put");
    }

    private void update(long p, Object value) {
      Object old = model.get(p);
      PileStats before = pile.stats();
      try {
        pile.update(p, value);
      } catch (PileFullException full) {
        assertThat(options.maxMemoryBytes())
            .as(at("PileFullException without a budget: " + full))
            .isNotEqualTo(Long.MAX_VALUE);
        assertThat(pile.stats()).as(at("stats after a failed update")).isEqualTo(before);
        assertValue(p, old, "after a failed update (old value must be intact)");
        return;
      }
      model.put(p, value);
      storedSize.put(p, checkedSize(p, value));
      assertValue(p, value, "after update " + describe(old) + " -> " + describe(value));
    }

    private void delete(long p) {
      pile.delete(p);
      model.remove(p);
      storedSize.remove(p);
      deleted.add(p);
      assertThatThrownBy(() -> pile.get(p))
          .as(at("get after delete"))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.delete(p))
          .as(at("second delete"))
          .isInstanceOf(StalePointerException.class);
    }

    private void readDeleted(long p) {
      assertThat(model).as(at("a deleted pointer was handed out again")).doesNotContainKey(p);
      PileStats before = pile.stats();
      assertThatThrownBy(() -> pile.get(p))
          .as(at("get of deleted"))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.getBytes(p))
          .as(at("getBytes of deleted"))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.sizeOf(p))
          .as(at("sizeOf of deleted"))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.update(p, new byte[] {1, 2, 3}))
          .as(at("update of deleted"))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.delete(p))
          .as(at("delete of deleted"))
          .isInstanceOf(StalePointerException.class);
      assertThat(pile.stats()).as(at("stats after using a deleted pointer")).isEqualTo(before);
    }

    /** The size the pile reports, checked against what is known of the value's encoding. */
    private int checkedSize(long p, Object value) {
      int size = pile.sizeOf(p);
      int raw = rawBytes(value).length;
      if (value instanceof byte[] || value instanceof String) {
        assertThat(size).as(at("sizeOf " + describe(value))).isEqualTo(raw);
      } else {
        assertThat(size)
            .as(at("sizeOf " + describe(value) + " (codec width + type id)"))
            .isBetween(raw, raw + 8);
      }
      return size;
    }

    private void assertValue(long p, Object expected, String when) {
      Object actual = pile.get(p);
      if (!sameValue(actual, expected)) {
        throw new AssertionError(
            at(
                when
                    + ": get returned "
                    + describe(actual)
                    + ", expected "
                    + describe(expected)
                    + " at pointer "
                    + Long.toHexString(p)));
      }
      assertThat(pile.kindOf(p)).as(at(when + ": kindOf")).isEqualTo(kindOf(expected));
      assertThat(pile.sizeOf(p)).as(at(when + ": sizeOf")).isEqualTo(storedSize.get(p));
    }

    /** Reads through one of the nine read paths and compares with the model. */
    private void read(long p, Object expected, int method) {
      byte[] raw = rawBytes(expected);
      int size = storedSize.get(p);
      byte[] stored;
      switch (method) {
        case 0 -> {
          assertValue(p, expected, "get");
          return;
        }
        case 1 -> {
          Object typed = pile.get(p, expected.getClass());
          assertThat(sameValue(typed, expected)).as(at("get(p, type)")).isTrue();
          return;
        }
        case 2 -> {
          if (expected instanceof String s) {
            assertThat(pile.getString(p)).as(at("getString")).isEqualTo(s);
          } else {
            assertThatThrownBy(() -> pile.getString(p))
                .as(at("getString of " + describe(expected)))
                .isInstanceOf(ClassCastException.class);
          }
          return;
        }
        case 3 -> stored = pile.getBytes(p);
        case 4 -> {
          byte[] dst = new byte[size + 7];
          Arrays.fill(dst, (byte) 0x5A);
          assertThat(pile.getBytes(p, dst, 7)).as(at("getBytes(dst, 7) count")).isEqualTo(size);
          stored = Arrays.copyOfRange(dst, 7, 7 + size);
        }
        case 5, 6 -> {
          ByteBuffer dst =
              method == 5 ? ByteBuffer.allocate(size + 3) : ByteBuffer.allocateDirect(size + 3);
          dst.position(3);
          assertThat(pile.read(p, dst)).as(at("read(ByteBuffer) count")).isEqualTo(size);
          assertThat(dst.position()).as(at("read(ByteBuffer) position")).isEqualTo(3 + size);
          stored = new byte[size];
          dst.get(3, stored);
        }
        case 7 -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          try {
            assertThat(pile.transferTo(p, Channels.newChannel(out)))
                .as(at("transferTo count"))
                .isEqualTo(size);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          stored = out.toByteArray();
        }
        default -> {
          ValueKind[] kind = new ValueKind[1];
          stored =
              pile.read(
                  p,
                  (k, payload) -> {
                    kind[0] = k;
                    return payload.toArray(ValueLayout.JAVA_BYTE);
                  });
          assertThat(kind[0]).as(at("read(ValueReader) kind")).isEqualTo(kindOf(expected));
        }
      }
      assertThat(stored.length).as(at("stored bytes length, method " + method)).isEqualTo(size);
      if (expected instanceof byte[] || expected instanceof String) {
        assertThat(stored).as(at("stored bytes, method " + method)).isEqualTo(raw);
      } else {
        // an object's stored bytes end with the codec's encoding (after an optional type id)
        assertThat(Arrays.copyOfRange(stored, size - raw.length, size))
            .as(at("stored encoding of " + describe(expected) + ", method " + method))
            .isEqualTo(raw);
      }
      if (expected instanceof String s) {
        assertThat(new String(stored, StandardCharsets.UTF_8)).isEqualTo(s);
      }
    }

    private void checkForEach() {
      Map<Long, Integer> seen = new HashMap<>();
      Map<Long, ValueKind> kinds = new HashMap<>();
      List<Long> twice = new ArrayList<>();
      pile.forEach(
          (pointer, kind, sizeBytes) -> {
            if (seen.put(pointer, sizeBytes) != null) {
              twice.add(pointer);
            }
            kinds.put(pointer, kind);
          });
      assertThat(twice).as(at("forEach visited these pointers more than once")).isEmpty();
      assertThat(seen.keySet())
          .as(at("forEach pointers"))
          .containsExactlyInAnyOrderElementsOf(model.keySet());
      for (var e : model.entrySet()) {
        assertThat(seen.get(e.getKey()))
            .as(at("forEach size of " + describe(e.getValue())))
            .isEqualTo(storedSize.get(e.getKey()));
        assertThat(kinds.get(e.getKey())).as(at("forEach kind")).isEqualTo(kindOf(e.getValue()));
      }
    }

    private void checkCounters(Op op) {
      PileStats s = pile.stats();
      assertStatsConsistent(s, options.segmentBytes());
      assertThat(s.objectCount()).as(at("objectCount after " + op)).isEqualTo(model.size());
      long utilized = storedSize.values().stream().mapToLong(Integer::longValue).sum();
      assertThat(s.utilizedBytes()).as(at("utilizedBytes after " + op)).isEqualTo(utilized);
      assertThat(s.capacityBytes())
          .as(at("capacity within the budget"))
          .isLessThanOrEqualTo(options.maxMemoryBytes());
    }

    /**
     * A live pointer: for an even {@code pick} one of the four newest entries (recent puts sit next
     * to each other, so deletes and moves then meet their neighbours), else any entry.
     */
    private long pick(int pick) {
      int size = model.size();
      int index = pick % 2 == 0 ? size - 1 - (pick / 2) % Math.min(size, 4) : (pick / 2) % size;
      var it = model.keySet().iterator();
      for (int i = 0; i < index; i++) {
        it.next();
      }
      return it.next();
    }

    private String at(String what) {
      return "step " + step + ": " + what;
    }
  }
}
