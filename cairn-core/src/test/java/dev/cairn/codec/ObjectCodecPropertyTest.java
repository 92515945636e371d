package dev.cairn.codec;

import static dev.cairn.codec.CodecTestSupport.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.codec.CodecFixtures.Bird;
import dev.cairn.codec.CodecFixtures.Dog;
import dev.cairn.codec.CodecFixtures.Everything;
import dev.cairn.codec.CodecFixtures.Tree;
import dev.cairn.codec.CodecFixtures.Zoo;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Round trips of generated values: records and POJOs of every supported field type, with nested
 * collections, maps, optionals, sealed and abstract fields, nulls and recursion ({@link
 * TypeArbitraries} builds the generators from the classes themselves). jqwik prints the seed of a
 * failing run; rerun it with {@code @Property(seed = "...")}.
 */
class ObjectCodecPropertyTest {

  /** Nested collections of user types, in both a record and a POJO. */
  record Order(
      long id,
      String customer,
      List<Line> lines,
      Map<String, List<Integer>> tags,
      Optional<CodecFixtures.Address> shipTo,
      CodecFixtures.Color status,
      Set<String> labels,
      java.math.BigDecimal total,
      java.time.Instant created) {}

  record Line(String sku, int quantity, double price, List<Map<String, Line>> variants) {}

  static final class Warehouse {
    String name;
    Map<String, List<Order>> ordersByCustomer;
    List<Set<String>> zones;
    Order[] recent;
    int[][] grid;
    Object note;
  }

  private static final CodecRegistry CODECS =
      CodecRegistry.builder()
          .allow(
              Everything.class,
              Zoo.class,
              Dog.class,
              Bird.class,
              Tree.class,
              Order.class,
              Warehouse.class,
              Person.class,
              PersonBean.class)
          .build();

  private static Pile pile;

  @BeforeContainer
  static void openPile() {
    pile = Pile.offHeap(PileOptions.builder().codecs(CODECS).segmentBytes(4L << 20).build());
  }

  @AfterContainer
  static void closePile() {
    pile.close();
  }

  @Property(tries = 300)
  void everything_roundTrips(@ForAll("everything") Everything value) {
    roundTrip(CODECS, value);
  }

  @Property(tries = 300)
  void nestedCollections_roundTrip_inRecordsAndPojos(
      @ForAll("orders") Order order, @ForAll("warehouses") Warehouse warehouse) {
    roundTrip(CODECS, order);
    roundTrip(CODECS, warehouse);
  }

  @Property(tries = 200)
  void polymorphicAndRecursive_roundTrip(@ForAll("zoos") Zoo zoo, @ForAll("trees") Tree tree) {
    roundTrip(CODECS, zoo);
    roundTrip(CODECS, tree);
  }

  @Property(tries = 200)
  void throughThePile_getReturnsAnEqualValue(
      @ForAll("orders") Order order, @ForAll("persons") Person person) {
    for (Object value : List.of(order, person, new PersonBean(person))) {
      long p = pile.put(value);
      CodecTestSupport.assertDeepEquals(value, pile.get(p));
      pile.delete(p);
    }
  }

  @Property(tries = 200)
  void encodedSize_isExactlyWhatEncodeWrites(@ForAll("everything") Everything value) {
    Codec<Object> codec = CODECS.codecOf(CODECS.typeIdOf(Everything.class));
    int size = codec.encodedSize(value);
    byte[] bytes = new byte[size + 16];
    java.util.Arrays.fill(bytes, (byte) 0x77);
    codec.encode(value, MemorySegment.ofArray(bytes), 8);
    for (int i = 0; i < 8; i++) {
      assertThat(bytes[i]).as("byte before the value").isEqualTo((byte) 0x77);
      assertThat(bytes[8 + size + i]).as("byte after the value").isEqualTo((byte) 0x77);
    }
    CodecTestSupport.assertDeepEquals(value, codec.decode(MemorySegment.ofArray(bytes), 8, size));
  }

  @Provide
  Arbitrary<Everything> everything() {
    return TypeArbitraries.of(Everything.class);
  }

  @Provide
  Arbitrary<Order> orders() {
    return TypeArbitraries.of(Order.class);
  }

  @Provide
  Arbitrary<Warehouse> warehouses() {
    return TypeArbitraries.of(Warehouse.class);
  }

  @Provide
  Arbitrary<Zoo> zoos() {
    return TypeArbitraries.of(Zoo.class);
  }

  @Provide
  Arbitrary<Tree> trees() {
    return TypeArbitraries.of(Tree.class);
  }

  @Provide
  Arbitrary<Person> persons() {
    return TypeArbitraries.of(Person.class);
  }
}
