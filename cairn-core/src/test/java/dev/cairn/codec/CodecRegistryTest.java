package dev.cairn.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileStats;
import dev.cairn.pile.PileTestSupport;
import dev.cairn.pile.ValueKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Built-in box codecs, user codecs, and the rules of {@link CodecRegistry}. */
class CodecRegistryTest {

  private static final long SEGMENT_BYTES = 1L << 20;

  record Point(int x, int y) {}

  static final class PointCodec implements Codec<Point> {
    @Override
    public Class<Point> type() {
      return Point.class;
    }

    @Override
    public int encodedSize(Point p) {
      return 8;
    }

    @Override
    public void encode(Point p, MemorySegment dst, long at) {
      dst.set(ValueLayout.JAVA_INT_UNALIGNED, at, p.x());
      dst.set(ValueLayout.JAVA_INT_UNALIGNED, at + 4, p.y());
    }

    @Override
    public Point decode(MemorySegment src, long at, int length) {
      if (length != 8) {
        throw new CorruptValueException("point length " + length);
      }
      return new Point(
          src.get(ValueLayout.JAVA_INT_UNALIGNED, at),
          src.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4));
    }
  }

  /** A variable-size value: a name and a list of scores. */
  record Player(String name, int[] scores) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Player p && p.name.equals(name) && Arrays.equals(p.scores, scores);
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + Arrays.hashCode(scores);
    }
  }

  static final class PlayerCodec implements Codec<Player> {
    @Override
    public Class<Player> type() {
      return Player.class;
    }

    @Override
    public int encodedSize(Player p) {
      return 4 + p.name().getBytes(StandardCharsets.UTF_8).length + 4 * p.scores().length;
    }

    @Override
    public void encode(Player p, MemorySegment dst, long at) {
      byte[] name = p.name().getBytes(StandardCharsets.UTF_8);
      dst.set(ValueLayout.JAVA_INT_UNALIGNED, at, name.length);
      MemorySegment.copy(name, 0, dst, ValueLayout.JAVA_BYTE, at + 4, name.length);
      long o = at + 4 + name.length;
      for (int s : p.scores()) {
        dst.set(ValueLayout.JAVA_INT_UNALIGNED, o, s);
        o += 4;
      }
    }

    @Override
    public Player decode(MemorySegment src, long at, int length) {
      int nameLength = src.get(ValueLayout.JAVA_INT_UNALIGNED, at);
      if (nameLength < 0 || nameLength > length - 4 || (length - 4 - nameLength) % 4 != 0) {
        throw new CorruptValueException("player name length " + nameLength + " of " + length);
      }
      byte[] name = new byte[nameLength];
      MemorySegment.copy(src, ValueLayout.JAVA_BYTE, at + 4, name, 0, nameLength);
      int[] scores = new int[(length - 4 - nameLength) / 4];
      for (int i = 0; i < scores.length; i++) {
        scores[i] = src.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4 + nameLength + 4L * i);
      }
      return new Player(new String(name, StandardCharsets.UTF_8), scores);
    }
  }

  /** An Integer codec that stores 8 bytes, to tell it from the built-in one. */
  static final class WideIntCodec implements Codec<Integer> {
    @Override
    public Class<Integer> type() {
      return Integer.class;
    }

    @Override
    public int encodedSize(Integer v) {
      return 8;
    }

    @Override
    public void encode(Integer v, MemorySegment dst, long at) {
      dst.set(ValueLayout.JAVA_LONG_UNALIGNED, at, v.longValue());
    }

    @Override
    public Integer decode(MemorySegment src, long at, int length) {
      return Math.toIntExact(src.get(ValueLayout.JAVA_LONG_UNALIGNED, at));
    }
  }

  /** A buggy codec: says 4 bytes, writes 64. */
  static final class OverrunningCodec implements Codec<StringBuilder> {
    @Override
    public Class<StringBuilder> type() {
      return StringBuilder.class;
    }

    @Override
    public int encodedSize(StringBuilder v) {
      return 4;
    }

    @Override
    public void encode(StringBuilder v, MemorySegment dst, long at) {
      for (int i = 0; i < 64; i++) {
        dst.set(ValueLayout.JAVA_BYTE, at + i, (byte) 0x7F);
      }
    }

    @Override
    public StringBuilder decode(MemorySegment src, long at, int length) {
      return new StringBuilder();
    }
  }

  private static Pile open(CodecRegistry codecs) {
    return Pile.offHeap(
        PileOptions.builder().segmentBytes(SEGMENT_BYTES).stripes(2).codecs(codecs).build());
  }

  // ---------------------------------------------------------------- built-in boxes

  @Test
  void builtInBoxes_roundTripThroughThePile() {
    List<Object> boxes =
        List.of(
            0,
            1,
            -1,
            Integer.MIN_VALUE,
            Integer.MAX_VALUE,
            0L,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            0x0102030405060708L,
            0.0,
            -0.0,
            Math.PI,
            Double.NaN,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            0.0f,
            -0.0f,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            1.5f,
            (short) 0,
            Short.MIN_VALUE,
            Short.MAX_VALUE,
            'a',
            '\u0000',
            '\uffff',
            '\ud83d',
            '\u00e9',
            (byte) 0,
            Byte.MIN_VALUE,
            Byte.MAX_VALUE,
            true,
            false);
    try (Pile pile = open(CodecRegistry.builtIn())) {
      List<Long> pointers = new ArrayList<>();
      long utilized = 0;
      for (Object box : boxes) {
        long p = pile.put(box);
        pointers.add(p);
        assertThat(pile.kindOf(p)).isEqualTo(ValueKind.OBJECT);
        Object back = pile.get(p);
        assertThat(back)
            .as("%s %s", box.getClass().getSimpleName(), box)
            .isInstanceOf(box.getClass())
            .isEqualTo(box);
        assertThat(pile.get(p, box.getClass())).isEqualTo(box);
        byte[] stored = pile.getBytes(p);
        byte[] encoding = PileTestSupport.rawBytes(box);
        assertThat(stored.length).isEqualTo(pile.sizeOf(p));
        assertThat(Arrays.copyOfRange(stored, stored.length - encoding.length, stored.length))
            .as("stored bytes of %s end with its little-endian encoding", box)
            .isEqualTo(encoding);
        utilized += stored.length;
      }
      PileStats s = PileTestSupport.assertConsistent(pile, SEGMENT_BYTES);
      assertThat(s.objectCount()).isEqualTo(boxes.size());
      assertThat(s.utilizedBytes()).isEqualTo(utilized);
      // boxes can replace each other in place
      pile.update(pointers.get(0), 3.25);
      assertThat(pile.get(pointers.get(0))).isEqualTo(3.25);
      pile.update(pointers.get(0), true);
      assertThat(pile.get(pointers.get(0))).isEqualTo(true);
      for (long p : pointers) {
        pile.delete(p);
      }
      PileTestSupport.assertHoldsNothing(PileTestSupport.assertConsistent(pile, SEGMENT_BYTES));
    }
  }

  @Test
  void builtInRegistry_knowsEveryBox_andNothingElse() {
    CodecRegistry codecs = CodecRegistry.builtIn();
    for (Class<?> box :
        List.of(
            Integer.class,
            Long.class,
            Double.class,
            Float.class,
            Short.class,
            Character.class,
            Byte.class,
            Boolean.class)) {
      int id = codecs.typeIdOf(box);
      assertThat(id).as(box.getSimpleName()).isBetween(1, CodecRegistry.FIRST_USER_TYPE_ID - 1);
      assertThat(codecs.codecOf(id).type()).isEqualTo(box);
    }
    assertThatThrownBy(() -> codecs.typeIdOf(Object.class))
        .isInstanceOf(UnknownTypeException.class);
    assertThatThrownBy(() -> codecs.typeIdOf(int.class)).isInstanceOf(UnknownTypeException.class);
    assertThatThrownBy(() -> codecs.typeIdOf(Point.class))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining(Point.class.getName());
    for (int id : new int[] {0, -1, 9, 15, 16, 100, CodecRegistry.MAX_TYPE_ID, 1 << 20}) {
      assertThatThrownBy(() -> codecs.codecOf(id))
          .as("id %d", id)
          .isInstanceOf(UnknownTypeException.class);
    }
  }

  // ---------------------------------------------------------------- user codecs

  @Test
  void userCodec_registered_roundTripsThroughThePile() {
    CodecRegistry codecs =
        CodecRegistry.builder()
            .register(100, new PointCodec())
            .register(CodecRegistry.MAX_TYPE_ID, new PlayerCodec())
            .build();
    assertThat(codecs.typeIdOf(Point.class)).isEqualTo(100);
    assertThat(codecs.typeIdOf(Player.class)).isEqualTo(CodecRegistry.MAX_TYPE_ID);
    assertThat(codecs.codecOf(100)).isInstanceOf(PointCodec.class);
    assertThat(codecs.typeIdOf(Long.class)).as("built-ins stay").isPositive();
    try (Pile pile = open(codecs)) {
      long point = pile.put(new Point(3, -4));
      assertThat(pile.get(point)).isEqualTo(new Point(3, -4));
      assertThat(pile.get(point, Point.class).y()).isEqualTo(-4);
      assertThat(pile.kindOf(point)).isEqualTo(ValueKind.OBJECT);
      assertThat(pile.sizeOf(point)).isBetween(8, 16);

      Player small = new Player("\u00e9mile", new int[] {1});
      Player large = new Player("\ud83d\ude00 big", new int[5000]);
      Arrays.fill(large.scores(), 7);
      long player = pile.put(small);
      long neighbour = pile.put(new Point(1, 1));
      assertThat(pile.get(player)).isEqualTo(small);
      pile.update(player, large);
      assertThat(pile.get(player)).isEqualTo(large);
      assertThat(pile.stats().linkCount()).as("a grown object moves behind a link").isEqualTo(1);
      pile.update(player, small);
      assertThat(pile.get(player)).isEqualTo(small);
      assertThat(pile.get(neighbour)).isEqualTo(new Point(1, 1));
      long mixed = pile.put(42L);
      assertThat(pile.get(mixed)).isEqualTo(42L);
      PileTestSupport.assertConsistent(pile, SEGMENT_BYTES);
    }
  }

  @Test
  void userCodec_forABuiltInType_replacesTheBuiltIn() {
    CodecRegistry codecs = CodecRegistry.builder().register(16, new WideIntCodec()).build();
    assertThat(codecs.typeIdOf(Integer.class)).isEqualTo(16);
    try (Pile pile = open(codecs)) {
      long p = pile.put(123_456);
      assertThat(pile.get(p)).isEqualTo(123_456);
      byte[] stored = pile.getBytes(p);
      assertThat(Arrays.copyOfRange(stored, stored.length - 8, stored.length))
          .as("the 8-byte user encoding, not the 4-byte built-in one")
          .isEqualTo(PileTestSupport.rawBytes(123_456L));
    }
  }

  @Test
  // a StringBuilder is one of the unknown values under test
  @SuppressWarnings("UnnecessaryStringBuilder")
  void put_ofUnregisteredType_throwsUnknownType_andChangesNothing() {
    try (Pile pile = open(CodecRegistry.builtIn())) {
      long p = pile.put("keep");
      PileStats before = pile.stats();
      for (Object unknown :
          List.<Object>of(
              new Object(),
              new Point(1, 2),
              new ArrayList<>(),
              Map.of(),
              new int[] {1},
              new StringBuilder("sb"))) {
        assertThatThrownBy(() -> pile.put(unknown))
            .as(unknown.getClass().getName())
            .isInstanceOf(UnknownTypeException.class);
        assertThatThrownBy(() -> pile.put(unknown, 100)).isInstanceOf(UnknownTypeException.class);
        assertThatThrownBy(() -> pile.update(p, unknown)).isInstanceOf(UnknownTypeException.class);
      }
      assertThat(pile.stats()).isEqualTo(before);
      assertThat(pile.getString(p)).isEqualTo("keep");
      pile.verify();
    }
  }

  @Test
  void put_ofSubclassOfRegisteredType_throwsUnknownType() {
    // codecs are per exact class: a subclass would lose its own state
    class Base {}
    class Derived extends Base {}
    Codec<Base> baseCodec =
        new Codec<>() {
          @Override
          public Class<Base> type() {
            return Base.class;
          }

          @Override
          public int encodedSize(Base v) {
            return 0;
          }

          @Override
          public void encode(Base v, MemorySegment t, long o) {}

          @Override
          public Base decode(MemorySegment s, long o, int l) {
            return new Base();
          }
        };
    try (Pile pile = open(CodecRegistry.builder().register(20, baseCodec).build())) {
      long p = pile.put(new Base());
      assertThat(pile.get(p)).isInstanceOf(Base.class);
      assertThatThrownBy(() -> pile.put(new Derived())).isInstanceOf(UnknownTypeException.class);
    }
  }

  @Test
  @SuppressWarnings("UnnecessaryStringBuilder") // a StringBuilder is the unknown value under test
  void put_withCodecWritingPastItsSize_neverCorruptsNeighbours() {
    CodecRegistry codecs = CodecRegistry.builder().register(30, new OverrunningCodec()).build();
    try (Pile pile = open(codecs)) {
      List<Long> before = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        before.add(pile.put(("neighbour " + i).getBytes(StandardCharsets.UTF_8)));
      }
      pile.delete(before.get(25)); // a hole the bad value may land in
      List<Long> after = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        try {
          pile.put(new StringBuilder());
        } catch (RuntimeException refused) {
          // refusing the write (bounded target) is the right outcome
        }
        after.add(pile.put(("after " + i).getBytes(StandardCharsets.UTF_8)));
      }
      for (int i = 0; i < before.size(); i++) {
        if (i != 25) {
          assertThat(new String(pile.getBytes(before.get(i)), StandardCharsets.UTF_8))
              .isEqualTo("neighbour " + i);
        }
      }
      for (int i = 0; i < after.size(); i++) {
        assertThat(new String(pile.getBytes(after.get(i)), StandardCharsets.UTF_8))
            .isEqualTo("after " + i);
      }
      pile.verify();
    }
  }

  // ---------------------------------------------------------------- registry rules

  @Test
  void register_withIdOutsideTheUserRange_isRejected() {
    for (int id :
        new int[] {
          Integer.MIN_VALUE, -1, 0, 1, 8, 15, CodecRegistry.MAX_TYPE_ID + 1, Integer.MAX_VALUE
        }) {
      assertThatThrownBy(() -> CodecRegistry.builder().register(id, new PointCodec()))
          .as("id %d", id)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(String.valueOf(id));
    }
    assertThat(
            CodecRegistry.builder()
                .register(CodecRegistry.FIRST_USER_TYPE_ID, new PointCodec())
                .build()
                .typeIdOf(Point.class))
        .isEqualTo(16);
  }

  @Test
  void register_takenIdOrTypeTwice_isRejected() {
    CodecRegistry.Builder builder = CodecRegistry.builder().register(100, new PointCodec());
    assertThatThrownBy(() -> builder.register(100, new PlayerCodec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("100");
    assertThatThrownBy(() -> builder.register(101, new PointCodec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Point.class.getName());
    // the failed registrations left the builder as it was
    CodecRegistry codecs = builder.register(101, new PlayerCodec()).build();
    assertThat(codecs.typeIdOf(Point.class)).isEqualTo(100);
    assertThat(codecs.typeIdOf(Player.class)).isEqualTo(101);
  }

  @Test
  void builtRegistry_isNotChangedByLaterRegistrations() {
    CodecRegistry.Builder builder = CodecRegistry.builder().register(100, new PointCodec());
    CodecRegistry first = builder.build();
    builder.register(200, new PlayerCodec());
    assertThatThrownBy(() -> first.codecOf(200)).isInstanceOf(UnknownTypeException.class);
    assertThatThrownBy(() -> first.typeIdOf(Player.class)).isInstanceOf(UnknownTypeException.class);
    assertThat(builder.build().typeIdOf(Player.class)).isEqualTo(200);
    assertThatThrownBy(() -> CodecRegistry.builtIn().typeIdOf(Point.class))
        .isInstanceOf(UnknownTypeException.class);
  }

  /**
   * withCatalog over an empty catalog makes its object types at their first use: threads that store
   * the same new type at once get one id, and the catalog hears of the schema once.
   */
  @Test
  void withEmptyCatalog_objectTypesMadeAtFirstUse_onceForRacingThreads() throws Exception {
    List<TypeSchema> heard = java.util.Collections.synchronizedList(new ArrayList<>());
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).build();
    for (int round = 0; round < 5; round++) {
      heard.clear();
      CodecRegistry registry = codecs.withCatalog(countingOver(TypeCatalog.inMemory(), heard));
      assertThat(registry.schemas()).as("an empty catalog").isEmpty();
      int threads = 4;
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
      List<java.util.concurrent.Future<Integer>> ids = new ArrayList<>();
      try (java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(threads)) {
        for (int t = 0; t < threads; t++) {
          ids.add(
              pool.submit(
                  () -> {
                    start.await();
                    return registry.typeIdOf(Person.class);
                  }));
        }
        int first = ids.get(0).get();
        for (java.util.concurrent.Future<Integer> id : ids) {
          assertThat(id.get()).as("round %d", round).isEqualTo(first);
        }
        assertThat(registry.codecOf(first).type()).isEqualTo(Person.class);
      }
      assertThat(heard).as("round %d", round).hasSize(1);
      assertThat(registry.schemas()).hasSize(1);
    }
  }

  /** A catalog with schemas is read and checked by withCatalog itself, not at first use. */
  @Test
  void withCatalogHoldingAnUnreadableSchema_failsAtOnce() {
    TypeSchema bad =
        new TypeSchema(
            TypeSchema.FIRST_TYPE_ID,
            "example.Broken",
            TypeSchema.Kind.RECORD,
            List.of(new TypeSchema.Field("f", "not a descriptor")),
            List.of());
    TypeCatalog catalog = TypeCatalog.inMemory();
    catalog.onNewSchema(bad);
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).build();
    assertThatThrownBy(() -> codecs.withCatalog(catalog)).isInstanceOf(CorruptValueException.class);
  }

  /**
   * {@code inner}, with each new schema also added to {@code heard}; each load after the first
   * takes 20 ms, so that threads making the registry's object types at once overlap.
   */
  private static TypeCatalog countingOver(TypeCatalog inner, List<TypeSchema> heard) {
    return new TypeCatalog() {
      private final java.util.concurrent.atomic.AtomicInteger loads =
          new java.util.concurrent.atomic.AtomicInteger();

      @Override
      public List<TypeSchema> load() {
        if (loads.getAndIncrement() > 0) {
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return inner.load();
      }

      @Override
      public void onNewSchema(TypeSchema schema) {
        heard.add(schema);
        inner.onNewSchema(schema);
      }
    };
  }
}
