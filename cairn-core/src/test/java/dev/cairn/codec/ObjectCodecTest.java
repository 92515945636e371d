package dev.cairn.codec;

import static dev.cairn.codec.CodecTestSupport.hex;
import static dev.cairn.codec.CodecTestSupport.load;
import static dev.cairn.codec.CodecTestSupport.roundTrip;
import static dev.cairn.codec.CodecTestSupport.store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CodecFixtures.Address;
import dev.cairn.codec.CodecFixtures.Animal;
import dev.cairn.codec.CodecFixtures.Bird;
import dev.cairn.codec.CodecFixtures.Blank;
import dev.cairn.codec.CodecFixtures.Box;
import dev.cairn.codec.CodecFixtures.Circle;
import dev.cairn.codec.CodecFixtures.Color;
import dev.cairn.codec.CodecFixtures.Dog;
import dev.cairn.codec.CodecFixtures.HoldsThread;
import dev.cairn.codec.CodecFixtures.Money;
import dev.cairn.codec.CodecFixtures.Node;
import dev.cairn.codec.CodecFixtures.Op;
import dev.cairn.codec.CodecFixtures.Point;
import dev.cairn.codec.CodecFixtures.Polygon;
import dev.cairn.codec.CodecFixtures.Positive;
import dev.cairn.codec.CodecFixtures.Shape;
import dev.cairn.codec.CodecFixtures.Square;
import dev.cairn.codec.CodecFixtures.Tree;
import dev.cairn.codec.CodecFixtures.Unbuildable;
import dev.cairn.codec.CodecFixtures.Zoo;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileTestSupport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The object codec by example: what it stores, how compactly, what it refuses and why. Random round
 * trips are in {@link ObjectCodecPropertyTest}, evolution in {@link SchemaEvolutionTest}, corrupt
 * bytes in {@link ObjectCodecFuzzTest}.
 */
class ObjectCodecTest {

  private static final long SEGMENT_BYTES = 1L << 20;

  private static CodecRegistry allow(Class<?>... types) {
    return CodecRegistry.builder().allow(types).build();
  }

  // ---------------------------------------------------------------- the seed's Person

  @Test
  void person_record_roundTripsThroughThePile() {
    // @start region="person"
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).build();
    try (Pile pile = Pile.offHeap(PileOptions.builder().codecs(codecs).build())) {
      Person ada =
          new Person(
              "Ada", "Lovelace", "ada@example.com", 36, 85_000.0, 1L, LocalDate.of(1815, 12, 10));
      long p = pile.put(ada);
      Person back = pile.get(p, Person.class);
      // @end
      assertThat(back).isEqualTo(ada).isNotSameAs(ada);
      pile.update(p, new Person("Ada", "King", null, 37, 0.0, 1L, null));
      assertThat(pile.get(p)).isEqualTo(new Person("Ada", "King", null, 37, 0.0, 1L, null));
      PileTestSupport.assertConsistent(pile, PileOptions.DEFAULT_SEGMENT_BYTES);
    }
  }

  @Test
  void person_pojo_roundTripsThroughThePile() {
    CodecRegistry codecs = allow(PersonBean.class);
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().codecs(codecs).segmentBytes(SEGMENT_BYTES).build())) {
      PersonBean bean = new PersonBean(Person.sample(42));
      long p = pile.put(bean);
      assertThat(pile.get(p)).isInstanceOf(PersonBean.class).isEqualTo(bean);
      PersonBean empty = new PersonBean();
      pile.update(p, empty);
      assertThat(pile.get(p, PersonBean.class)).isEqualTo(empty);
    }
  }

  /**
   * The layout of the sample Person, byte for byte: a golden encoding. If this changes, stored data
   * changes meaning: bump the format version in docs/FORMAT.md, do not just update it.
   */
  @Test
  void person_encoding_isTheDocumentedLayout() {
    CodecRegistry codecs = allow(Person.class);
    byte[] payload = store(codecs, Person.sample(1));
    assertThat(hex(payload))
        .isEqualTo(
            String.join(
                " ",
                "10", // type id 16: the registry's first object type
                "41 64 e1", // "Ada": the ASCII form, the last byte with bit 7 set
                "4c 6f 76 65 6c 61 63 e5", // "Lovelace"
                "61 64 61 2e 6c 6f 76 65 6c 61 63 65 40 65 78 61 6d 70 6c 65 2e 63 6f ed", // email
                "48", // age 36: zig-zag varint
                "00 00 00 00 80 c0 f4 40", // salary 85000.0: IEEE 754, little-endian
                "02", // id 1: zig-zag varint
                "9c ef 06")); // 1815-12-10: zigzag(epoch day -56270) + 1, a varint
    assertThat(payload).hasSize(49);
    assertThat(codecs.schemas())
        .singleElement()
        .hasToString(
            "record dev.cairn.codec.Person #16 (String name, String surname, String email, int age,"
                + " double salary, long id, LocalDate birthDate)");
  }

  @Test
  void person_isSmallerThanJavaSerialization_byFar() throws Exception {
    record SerializablePerson(
        String name,
        String surname,
        String email,
        int age,
        double salary,
        long id,
        LocalDate birthDate)
        implements java.io.Serializable {}
    Person p = Person.sample(123_456_789L);
    var bytes = new java.io.ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(
          new SerializablePerson(
              p.name(), p.surname(), p.email(), p.age(), p.salary(), p.id(), p.birthDate()));
    }
    int cairn = store(allow(Person.class), p).length;
    assertThat(cairn)
        .as("cairn=%d java=%d", cairn, bytes.size())
        .isLessThanOrEqualTo(bytes.size() * 60 / 100);
  }

  // ---------------------------------------------------------------- what can be stored

  @Test
  void everySupportedFieldType_roundTrips() {
    CodecRegistry codecs = allow(CodecFixtures.Everything.class);
    var everything = TypeArbitraries.of(CodecFixtures.Everything.class);
    for (int i = 0; i < 20; i++) {
      roundTrip(codecs, everything.sample());
    }
  }

  @Test
  void nullsAndZerosEverywhere_roundTrip() throws ReflectiveOperationException {
    var components = CodecFixtures.Everything.class.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      // the default value of the type: 0, false, '\0' or null
      args[i] = java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(types[i], 1), 0);
    }
    var ctor = CodecFixtures.Everything.class.getDeclaredConstructor(types);
    roundTrip(allow(CodecFixtures.Everything.class), ctor.newInstance(args));
  }

  @Test
  @SuppressWarnings("JdkObsolete") // a LinkedList is one of the flavours under test
  void collectionFlavours_comeBackAsTheyWere() {
    record Holder(List<String> list, Set<String> set, Map<String, Integer> map) {}
    CodecRegistry codecs = allow(Holder.class);
    List<List<String>> lists =
        List.of(
            new ArrayList<>(List.of("a", "b")),
            new LinkedList<>(List.of("a")),
            List.of("x", "y", "z"),
            List.of());
    for (List<String> list : lists) {
      Holder back = roundTrip(codecs, new Holder(list, null, null));
      assertThat(back.list().getClass()).isEqualTo(list.getClass());
    }
    assertThat(
            roundTrip(
                    codecs,
                    new Holder(
                        Collections.unmodifiableList(new ArrayList<>(List.of("a"))), null, null))
                .list())
        .as("an unmodifiable list stays unmodifiable")
        .isUnmodifiable();
    for (Set<String> set :
        List.<Set<String>>of(
            new HashSet<>(Set.of("a", "b")),
            new LinkedHashSet<>(List.of("z", "a", "m")),
            new TreeSet<>(Set.of("b", "a")),
            Set.of("q", "r"))) {
      Holder back = roundTrip(codecs, new Holder(null, set, null));
      assertThat(back.set()).isEqualTo(set);
      assertThat(back.set().getClass()).isEqualTo(set.getClass());
    }
    assertThat(
            roundTrip(codecs, new Holder(null, new LinkedHashSet<>(List.of("z", "a", "m")), null))
                .set())
        .containsExactly("z", "a", "m");
    for (Map<String, Integer> map :
        List.<Map<String, Integer>>of(
            new HashMap<>(Map.of("a", 1)),
            new LinkedHashMap<>(Map.of("a", 1)),
            new TreeMap<>(Map.of("b", 2, "a", 1)),
            Map.of("k", 1, "l", 2),
            new ConcurrentHashMap<>(Map.of("c", 3)),
            new ConcurrentSkipListMap<>(Map.of("d", 4)))) {
      Holder back = roundTrip(codecs, new Holder(null, null, map));
      assertThat(back.map()).isEqualTo(map);
      assertThat(back.map().getClass()).isEqualTo(map.getClass());
    }
    // immutable collections holding null (Stream.toList allows it) stay immutable
    List<String> withNull = Stream.of("a", null).toList();
    assertThat(roundTrip(codecs, new Holder(withNull, null, null)).list())
        .containsExactly("a", null)
        .isUnmodifiable();
  }

  @Test
  void sortedCollection_withComparator_isRefused() {
    record Holder(Set<String> set) {}
    TreeSet<String> reversed = new TreeSet<>(Collections.reverseOrder());
    reversed.add("a");
    assertThatThrownBy(() -> store(allow(Holder.class), new Holder(reversed)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("comparator")
        .hasMessageContaining("Holder.set");
  }

  @Test
  void sealedInterface_fieldsArePolymorphic() {
    record Drawing(Shape main, List<Shape> more) {}
    CodecRegistry codecs = allow(Drawing.class); // the permitted subclasses come along
    Drawing d =
        new Drawing(
            new Circle(new Point(1, 2), 3.5),
            List.of(
                new Square(new Point(0, 0), 1),
                new Polygon(List.of(new Point(1, 1))),
                Blank.EMPTY));
    assertThat(roundTrip(codecs, d)).isEqualTo(d);
    assertThat(roundTrip(codecs, new Circle(null, 0))).isEqualTo(new Circle(null, 0));
  }

  @Test
  void abstractField_isPolymorphic_onceImplementationsAreAllowed() {
    Zoo zoo =
        new Zoo(
            "city",
            new Dog("rex", true),
            List.of(new Bird("tweety", 0.2), new Dog("fido", false)),
            new TreeMap<>(Map.of("mon", 3)));
    assertThatThrownBy(() -> store(allow(Zoo.class), zoo))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining(Dog.class.getName())
        .hasMessageContaining("Zoo.star")
        .hasMessageContaining("allow(CodecFixtures.Dog.class)");
    CodecRegistry codecs = allow(Zoo.class, Dog.class, Bird.class);
    Zoo back = roundTrip(codecs, zoo);
    assertThat(back).isEqualTo(zoo);
    assertThat(back.cachedHash()).as("a transient field is not stored").isEqualTo(-1);
  }

  @Test
  @SuppressWarnings("UnnecessaryStringBuilder") // a StringBuilder is the JDK value under test
  void anyField_takesBuiltInsAndAllowedTypes_andChecksItsDeclaredType() {
    record Holder(Object any, Comparable<?> comparable, Number number) {}
    CodecRegistry codecs = allow(Holder.class, Point.class, Color.class);
    for (Object any :
        List.of(
            1,
            2L,
            3.0,
            "s",
            'c',
            (byte) 4,
            (short) 5,
            6f,
            true,
            new int[] {1, 2},
            new byte[] {3},
            LocalDate.of(2020, 1, 1),
            new Point(1, 2),
            Color.BLUE,
            List.of(1, "two", List.of(3.0)),
            new LinkedHashMap<>(Map.of("k", new Point(3, 4))),
            Optional.of("x"),
            new Object[] {"a", 1, null})) {
      Holder h = new Holder(any, null, null);
      CodecTestSupport.assertDeepEquals(h, load(codecs, store(codecs, h)));
    }
    roundTrip(codecs, new Holder(null, "text", java.math.BigInteger.TEN));
    assertThatThrownBy(() -> store(codecs, new Holder(new StringBuilder("no"), null, null)))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining("java.lang.StringBuilder")
        .hasMessageContaining("Holder.any");
  }

  @Test
  void genericRecord_andRecursiveRecord_roundTrip() {
    CodecRegistry codecs = allow(Box.class, Tree.class, Point.class);
    roundTrip(codecs, new Box<>(new Point(1, 2)));
    roundTrip(codecs, new Box<>(List.of("a")));
    Tree t =
        new Tree(
            "root", List.of(new Tree("a", List.of()), new Tree("b", List.of(new Tree("c", null)))));
    assertThat(roundTrip(codecs, t)).isEqualTo(t);
  }

  @Test
  void enums_includingConstantsWithBodies_roundTrip() {
    record Holder(Color color, Op op, List<Op> ops) {}
    CodecRegistry codecs = allow(Holder.class);
    Holder h = new Holder(Color.GREEN, Op.MUL, List.of(Op.ADD, Op.MUL));
    assertThat(roundTrip(codecs, h)).isEqualTo(h);
    assertThat(roundTrip(codecs, h).op().apply(3, 4)).isEqualTo(12);
    // an enum on its own, at the top level: stored by ordinal
    assertThat(roundTrip(codecs, Op.ADD)).isSameAs(Op.ADD);
    assertThat(store(codecs, Color.BLUE)).hasSize(2);
  }

  @Test
  void immutablePojo_isBuiltThroughItsConstructor() {
    record Wallet(Money cash, List<Money> cards) {}
    CodecRegistry codecs = allow(Wallet.class);
    Wallet w = new Wallet(new Money(1250, "EUR"), List.of(new Money(-3, "USD")));
    assertThat(roundTrip(codecs, w)).isEqualTo(w);
  }

  @Test
  void recordConstructor_validatesStoredValues() {
    CodecRegistry codecs = allow(Positive.class);
    byte[] payload = store(codecs, new Positive(5));
    payload[1] = 0x00; // zig-zag 0: the constructor refuses it
    assertThatThrownBy(() -> load(codecs, payload))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("not positive: 0");
  }

  // ---------------------------------------------------------------- what is refused

  @Test
  void sharedReferences_areCopied_andCyclesRejected() {
    CodecRegistry codecs = allow(Node.class);
    Node shared = new Node("shared");
    Node a = new Node("a");
    a.next = shared;
    a.other = shared;
    Node back = (Node) load(codecs, store(codecs, a));
    assertThat(back.next.label).isEqualTo("shared");
    assertThat(back.next)
        .as("a shared reference comes back as two equal copies")
        .isNotSameAs(back.other);

    Node cycle = new Node("loop");
    cycle.next = cycle;
    assertThatThrownBy(() -> store(codecs, cycle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cyclic reference")
        .hasMessageContaining("Node.next leads back to the same");
    Node x = new Node("x");
    Node y = new Node("y");
    x.next = y;
    y.other = x;
    assertThatThrownBy(() -> store(codecs, x))
        .hasMessageContaining("Node.next -> dev.cairn.codec.CodecFixtures$Node.other leads back");
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().codecs(codecs).segmentBytes(SEGMENT_BYTES).build())) {
      assertThatThrownBy(() -> pile.put(cycle)).isInstanceOf(IllegalArgumentException.class);
      assertThat(pile.stats().objectCount()).isZero();
    }
  }

  @Test
  void acyclicGraph_deeperThanTheLimit_isRefusedAsTooDeep() {
    CodecRegistry codecs = allow(Node.class);
    Node head = new Node("0");
    Node at = head;
    for (int i = 1; i < 200; i++) {
      at.next = new Node(String.valueOf(i));
      at = at.next;
    }
    assertThatThrownBy(() -> store(codecs, head))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nested deeper than 100 levels");
  }

  @Test
  void deepButAcyclicGraph_withinTheLimit_isStored() {
    CodecRegistry codecs = allow(Node.class);
    Node head = new Node("0");
    Node at = head;
    for (int i = 1; i < 90; i++) {
      at.next = new Node(String.valueOf(i));
      at = at.next;
    }
    Node back = (Node) load(codecs, store(codecs, head));
    int n = 0;
    for (Node x = back; x != null; x = x.next) {
      assertThat(x.label).isEqualTo(String.valueOf(n++));
    }
    assertThat(n).isEqualTo(90);
  }

  /** ObjectTypes I3, I4: only allowed classes are stored. */
  @Test
  void unallowedClass_isRefused_withTheWayToAllowIt() {
    CodecRegistry codecs = allow(Person.class);
    assertThatThrownBy(() -> codecs.typeIdOf(Point.class))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining(Point.class.getName())
        .hasMessageContaining("allowPackage(\"dev.cairn.codec\")");
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().codecs(codecs).segmentBytes(SEGMENT_BYTES).build())) {
      assertThatThrownBy(() -> pile.put(new Point(1, 2))).isInstanceOf(UnknownTypeException.class);
      assertThatThrownBy(() -> pile.put(LocalDate.EPOCH))
          .isInstanceOf(UnknownTypeException.class)
          .hasMessageContaining("wrap it in a record");
    }
  }

  @Test
  void allowPackage_allowsEveryClassOfThePackage() {
    CodecRegistry codecs = CodecRegistry.builder().allowPackage("dev.cairn.codec").build();
    roundTrip(codecs, Person.sample(3));
    roundTrip(codecs, new Address("Main St", "Springfield", "12345"));
    assertThatThrownBy(() -> codecs.typeIdOf(java.util.UUID.class))
        .isInstanceOf(UnknownTypeException.class);
    assertThatThrownBy(() -> CodecRegistry.builder().allowPackage("java.util"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void jdkClasses_cannotBeAllowed_butJdkEnumsCan() {
    assertThatThrownBy(() -> allow(Thread.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Thread");
    record Holder(java.util.concurrent.TimeUnit unit) {}
    roundTrip(allow(Holder.class), new Holder(java.util.concurrent.TimeUnit.SECONDS));
  }

  @Test
  void unstorableClasses_areRefused_withTheReason() {
    assertThatThrownBy(() -> allow(HoldsThread.class).typeIdOf(HoldsThread.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HoldsThread.thread")
        .hasMessageContaining("java.lang.Thread")
        .hasMessageContaining("transient");
    assertThatThrownBy(() -> allow(Unbuildable.class).typeIdOf(Unbuildable.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no way to build")
        .hasMessageContaining("-parameters");
    assertThatThrownBy(() -> allow(Shape.class).typeIdOf(Shape.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a storable class");
    assertThatThrownBy(() -> allow(Animal.class).typeIdOf(Animal.class))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void twoClasses_withOneStoredName_areRefused() {
    @CairnName("same")
    record A(int x) {}
    @CairnName("same")
    record B(int y) {}
    assertThatThrownBy(() -> allow(A.class, B.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"same\"");
    @CairnName("has space")
    record C(int x) {}
    assertThatThrownBy(() -> allow(C.class).typeIdOf(C.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("@CairnName");
  }

  // ---------------------------------------------------------------- ids and codecs

  /** ObjectTypes I2: ids are assigned once, from 16 up, never a registered codec's. */
  @Test
  void typeIds_startAtTheFirstUserId_skipRegisteredOnes_andStayFixed() {
    CodecRegistry codecs =
        CodecRegistry.builder()
            .register(16, new PointCodec())
            .register(18, OtherCodec.of(Address.class))
            .allow(Person.class, PersonBean.class, Tree.class)
            .build();
    assertThat(codecs.typeIdOf(Person.class)).isEqualTo(17);
    assertThat(codecs.typeIdOf(Tree.class)).isEqualTo(19);
    assertThat(codecs.typeIdOf(PersonBean.class)).isEqualTo(20);
    assertThat(codecs.typeIdOf(Person.class)).isEqualTo(17);
    assertThat(codecs.typeIdOf(Point.class)).isEqualTo(16);
    assertThat(codecs.codecOf(17).type()).isEqualTo(Person.class);
    assertThat(codecs.schemas()).extracting(TypeSchema::typeId).containsExactly(17, 19, 20);
    assertThatThrownBy(() -> codecs.codecOf(21)).isInstanceOf(UnknownTypeException.class);
  }

  @Test
  void typeIds_areAssignedOnce_underConcurrentFirstUse() throws Exception {
    for (int round = 0; round < 20; round++) {
      CodecRegistry codecs =
          allow(Person.class, PersonBean.class, Tree.class, Zoo.class, Dog.class);
      List<Class<?>> types =
          List.of(Person.class, PersonBean.class, Tree.class, Zoo.class, Dog.class);
      int threads = 4;
      int[][] ids = new int[threads][types.size()];
      var start = new java.util.concurrent.CountDownLatch(1);
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int me = t;
        workers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        start.await();
                      } catch (InterruptedException e) {
                        throw new AssertionError(e);
                      }
                      for (int i = 0; i < types.size(); i++) {
                        int k = (i + me) % types.size();
                        ids[me][k] = codecs.typeIdOf(types.get(k));
                      }
                    }));
      }
      start.countDown();
      for (Thread w : workers) {
        w.join();
      }
      for (int t = 1; t < threads; t++) {
        assertThat(ids[t]).isEqualTo(ids[0]);
      }
      assertThat(codecs.schemas()).hasSize(types.size());
    }
  }

  @Test
  void registeredCodec_takesPrecedence_alsoInsideObjects() {
    record Route(Point from, List<Point> via, Object any) {}
    CodecRegistry codecs =
        CodecRegistry.builder().register(100, new PointCodec()).allow(Route.class).build();
    Route r = new Route(new Point(1, 2), List.of(new Point(3, 4)), new Point(5, 6));
    assertThat(roundTrip(codecs, r)).isEqualTo(r);
    assertThat(PointCodec.encodes).as("the hand-written codec wrote every point").isPositive();
    assertThat(codecs.schemas())
        .singleElement()
        .extracting(s -> s.fields().get(0).type())
        .isEqualTo("ref:" + Point.class.getName());
  }

  @Test
  void schema_durableForm_roundTrips_andRejectsGarbage() {
    CodecRegistry codecs = allow(CodecFixtures.Everything.class);
    codecs.typeIdOf(CodecFixtures.Everything.class);
    assertThat(codecs.schemas()).hasSizeGreaterThan(2);
    for (TypeSchema s : codecs.schemas()) {
      assertThat(TypeSchema.fromBytes(s.toBytes())).isEqualTo(s);
    }
    byte[] bytes = codecs.schemas().getLast().toBytes();
    for (int cut = 0; cut < bytes.length; cut++) {
      byte[] truncated = Arrays.copyOf(bytes, cut);
      assertThatThrownBy(() -> TypeSchema.fromBytes(truncated))
          .isInstanceOf(CorruptValueException.class);
    }
    byte[] badVersion = bytes.clone();
    badVersion[0] = 9;
    assertThatThrownBy(() -> TypeSchema.fromBytes(badVersion))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("version 9");
  }

  /** ObjectTypes I1: a schema is in the catalog before any object of it is written. */
  @Test
  void catalog_hearsOfEachSchema_beforeItsFirstObjectIsWritten() {
    List<String> events = new ArrayList<>();
    TypeCatalog inner = TypeCatalog.inMemory();
    TypeCatalog recording =
        new TypeCatalog() {
          @Override
          public List<TypeSchema> load() {
            return inner.load();
          }

          @Override
          public void onNewSchema(TypeSchema schema) {
            events.add("schema " + schema.typeName());
            inner.onNewSchema(schema);
          }
        };
    record Holder(Color color, Address address) {}
    CodecRegistry codecs = CodecRegistry.builder().allow(Holder.class).catalog(recording).build();
    assertThat(events).as("nothing before first use").isEmpty();
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().codecs(codecs).segmentBytes(SEGMENT_BYTES).build())) {
      pile.put(new Holder(Color.RED, null));
      events.add("put done");
      pile.put(new Holder(Color.RED, new Address("s", "c", "z")));
      events.add("put done");
    }
    assertThat(events)
        .containsExactly(
            "schema " + Color.class.getName(),
            "schema " + Holder.class.getName(),
            "put done",
            "schema " + Address.class.getName(),
            "put done");
  }

  @Test
  void catalogRefusingASchema_failsThePut_andChangesNothing() {
    TypeCatalog refusing =
        new TypeCatalog() {
          @Override
          public List<TypeSchema> load() {
            return List.of();
          }

          @Override
          public void onNewSchema(TypeSchema schema) {
            throw new IllegalStateException("disk full");
          }
        };
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).catalog(refusing).build();
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().codecs(codecs).segmentBytes(SEGMENT_BYTES).build())) {
      assertThatThrownBy(() -> pile.put(Person.sample(1))).hasMessageContaining("disk full");
      assertThat(pile.stats().objectCount()).isZero();
      assertThat(codecs.schemas()).isEmpty();
    }
  }

  @Test
  void strings_ofEveryShape_roundTrip() {
    record S(String s) {}
    CodecRegistry codecs = allow(S.class);
    String longAscii = "x".repeat(100_000);
    for (String s :
        Arrays.asList(
            null,
            "",
            "a",
            "ab",
            "\u0000\u0000",
            "é",
            "aé",
            "日本語",
            "\ud83d\ude00 smile",
            "\ud800",
            "lone \udc00 low",
            "x".repeat(63),
            "y".repeat(64),
            longAscii,
            "\u00ff\u0100")) {
      S back = roundTrip(codecs, new S(s));
      assertThat(back.s()).isEqualTo(s);
    }
    assertThat(store(codecs, new S("ab"))).as("two ASCII chars take two bytes").hasSize(3);
    assertThat(store(codecs, new S("a"))).hasSize(3);
    assertThat(store(codecs, new S(null))).hasSize(2);
  }

  @Test
  void decode_readsOnlyItsOwnBytes_inALargerSegment() {
    CodecRegistry codecs = allow(Person.class);
    Codec<Person> codec = codecs.codecOf(codecs.typeIdOf(Person.class));
    Person p = Person.sample(9);
    int n = codec.encodedSize(p);
    MemorySegment big = MemorySegment.ofArray(new byte[n + 100]);
    big.fill((byte) 0x5A);
    codec.encode(p, big, 50);
    assertThat(big.get(ValueLayout.JAVA_BYTE, 49)).isEqualTo((byte) 0x5A);
    assertThat(big.get(ValueLayout.JAVA_BYTE, 50 + n)).isEqualTo((byte) 0x5A);
    assertThat(codec.decode(big, 50, n)).isEqualTo(p);
    assertThatThrownBy(() -> codec.decode(big, 50, n - 1))
        .isInstanceOf(CorruptValueException.class);
    assertThatThrownBy(() -> codec.decode(big, 50, n + 1))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("ends after");
  }

  @Test
  void encode_afterSizingAnotherValue_orNone_orInAnotherRegistry_encodesItsOwnValue() {
    CodecRegistry first = allow(PersonBean.class);
    CodecRegistry second =
        CodecRegistry.builder()
            .register(16, OtherCodec.of(Address.class))
            .allow(PersonBean.class)
            .build();
    Codec<Object> a = first.codecOf(first.typeIdOf(PersonBean.class));
    Codec<Object> b = second.codecOf(second.typeIdOf(PersonBean.class));
    PersonBean x = new PersonBean(Person.sample(1));
    PersonBean y = new PersonBean(Person.sample(22));
    byte[] bytes = new byte[128];
    MemorySegment s = MemorySegment.ofArray(bytes);
    // no sizing at all
    a.encode(x, s, 0);
    assertThat(a.decode(s, 0, a.encodedSize(x))).isEqualTo(x);
    // sizing y, then encoding x
    int ySize = a.encodedSize(y);
    a.encode(x, s, 0);
    assertThat(a.decode(s, 0, a.encodedSize(x))).isEqualTo(x);
    // sizing in one registry, encoding in another
    a.encodedSize(y);
    b.encode(y, s, 0);
    assertThat(b.decode(s, 0, ySize)).isEqualTo(y);
    // the bytes encoded are the object as it was sized: a consistent snapshot
    PersonBean z = new PersonBean(Person.sample(3));
    int zSize = a.encodedSize(z);
    z.setName("a much longer name than it had when it was sized");
    a.encode(z, s, 0);
    assertThat(a.decode(s, 0, zSize)).isEqualTo(new PersonBean(Person.sample(3)));
  }

  @Test
  void builtInRegistry_isUnchanged_byTheObjectCodec() {
    assertThat(CodecRegistry.builtIn().schemas()).isEmpty();
    assertThatThrownBy(() -> CodecRegistry.builtIn().typeIdOf(Person.class))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining("allow(Person.class)");
  }

  // ---------------------------------------------------------------- helpers

  /** A hand-written codec, to check precedence. */
  static final class PointCodec implements Codec<Point> {
    static int encodes;

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
      encodes++;
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

  /** A codec for some other class, only to take an id. */
  record OtherCodec(Class<Object> type) implements Codec<Object> {
    @SuppressWarnings("unchecked")
    static OtherCodec of(Class<?> type) {
      return new OtherCodec((Class<Object>) type);
    }

    @Override
    public int encodedSize(Object value) {
      return 0;
    }

    @Override
    public void encode(Object value, MemorySegment target, long offset) {}

    @Override
    public Object decode(MemorySegment source, long offset, int length) {
      return null;
    }
  }
}
