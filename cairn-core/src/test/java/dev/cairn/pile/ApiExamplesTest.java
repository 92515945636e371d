package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CairnName;
import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.TypeCatalog;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples in the javadoc of the public API ({@code dev.cairn.pile} and {@code
 * dev.cairn.codec}), which shows them from here: each {@code @start region} below is what a {@code
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=...}} displays (javadoc finds this file
 * through {@code --snippet-path src/test/java}, set in cairn-core's pom). So every example
 * compiles, and each test runs its example; where the example leaves something to look at (a
 * pointer, a pile still open, a result), the test then checks what the example's comments promise.
 * A region holds whole statements, closing braces included, exactly as displayed (but for one
 * snippet markup comment: point-codec's {@code @replace} hides the {@code static} its class needs
 * only as a nested class here).
 *
 * <p>Only the public API is used, as a user would. Where an example names a directory, it is {@code
 * dir}, this test's temporary directory. A persistent pile that an example opens with default
 * options is created here first with a small log, so that the example does not write the default
 * log's 256 MiB of zeros (the log's size is fixed when the pile is created).
 */
class ApiExamplesTest {

  @TempDir Path dir;

  /** Creates a persistent pile in {@code dir} with a small log, to be reopened by an example. */
  private void createSmallPile(Durability durability) throws IOException {
    try (Pile pile =
        Pile.open(
            dir,
            PileOptions.builder()
                .segmentBytes(1 << 20)
                .stripes(2)
                .durability(durability)
                .logFileBytes(1 << 20)
                .build())) {
      pile.checkpoint();
    }
  }

  // ============================================================================ Pile

  @Test
  // the example names what each call returns, as a reader would write it
  @SuppressWarnings("UnusedVariable")
  void pile_quickStart() {
    // @start region="quick-start"
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      long p = pile.put("hello");
      String s = pile.getString(p); // "hello"
      pile.update(p, "hello, world"); // same pointer, longer value
      pile.delete(p); // p is now stale
    }
    // @end
  }

  @Test
  // the example names what each call returns, as a reader would write it
  @SuppressWarnings("UnusedVariable")
  void pile_open_keepsPointersAcrossARestart() throws IOException {
    createSmallPile(Durability.SYNC);
    // @start region="open"
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    long p;
    try (Pile pile = Pile.open(dir, options)) {
      p = pile.put("survives kill -9 once put returns");
    }
    try (Pile pile = Pile.open(dir, options)) {
      String s = pile.getString(p); // same pointer, after a restart
    }
    // @end
    try (Pile pile = Pile.open(dir, options)) {
      assertThat(pile.getString(p)).isEqualTo("survives kill -9 once put returns");
    }
  }

  @Test
  void pile_root_findsDataAgainAfterARestart() throws IOException {
    createSmallPile(Durability.SYNC);
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    for (int run = 0; run < 2; run++) { // the second run finds what the first stored
      // @start region="root"
      try (Pile pile = Pile.open(dir, options)) {
        long orders = pile.root("orders");
        if (orders == Pile.NULL) {
          orders = pile.put("the first order");
          pile.setRoot("orders", orders);
        }
        String first = pile.getString(orders);
        // @end
        assertThat(first).isEqualTo("the first order");
      }
    }
    try (Pile pile = Pile.open(dir, options)) {
      assertThat(pile.roots()).containsOnlyKeys("orders");
    }
  }

  @Test
  void pile_scan_visitsEveryValue() {
    try (Pile pile = Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).build())) {
      pile.put("four");
      pile.put(new byte[1000]);
      // @start region="scan"
      long[] bytes = new long[1];
      pile.scan((pointer, kind, buffer, offset, length) -> bytes[0] += length);
      // @end
      assertThat(bytes[0]).isEqualTo(1004);
    }
  }

  @Test
  // the example names what each call returns, as a reader would write it, and leaves the
  // prefetch unwatched: a failed one only leaves the page cache cold
  @SuppressWarnings({"UnusedVariable", "FutureReturnValueIgnored"})
  void pile_prefetch() throws Exception {
    createSmallPile(Durability.PERIODIC);
    long pointer;
    try (Pile pile = Pile.open(dir, PileOptions.defaults())) {
      pointer = pile.put(new byte[] {1, 2, 3});
    }
    // @start region="prefetch"
    try (Pile pile = Pile.open(dir, PileOptions.defaults())) {
      pile.prefetch(); // warm the cache while the application starts serving
      byte[] first = pile.getBytes(pointer);
    }
    // @end
    try (Pile pile = Pile.open(dir, PileOptions.defaults())) {
      pile.prefetch().get(10, TimeUnit.SECONDS);
      assertThat(pile.getBytes(pointer)).containsExactly(1, 2, 3);
    }
  }

  // ============================================================================ PileOptions

  @Test
  void pileOptions_builder() {
    // @start region="options"
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(64L << 20) // 64 MiB segments (the default)
            .maxMemoryBytes(8L << 30) // at most 8 GiB of segments
            .build();
    // @end
    assertThat(options.segmentBytes()).isEqualTo(PileOptions.DEFAULT_SEGMENT_BYTES);
    assertThat(options.maxMemoryBytes()).isEqualTo(8L << 30);
  }

  // ============================================================================ Transaction

  @Test
  // the example names what each call returns, as a reader would write it
  @SuppressWarnings("UnusedVariable")
  void transaction_takesEffectTogether() throws IOException {
    createSmallPile(Durability.SYNC);
    try (Pile pile = Pile.open(dir, PileOptions.builder().durability(Durability.SYNC).build())) {
      long customer = pile.put("customer");
      long cart = pile.put("cart");
      String newOrder = "order 1";
      String customerWithOrder = "customer with order 1";
      // @start region="transaction"
      try (Transaction tx = pile.beginTransaction()) {
        long order = tx.put(newOrder); // a pointer now; committed with the rest
        tx.update(customer, customerWithOrder); // the new value waits aside until commit
        tx.delete(cart);
        tx.commit(); // SYNC: returns once durable
      } // closing without commit rolls back
      // @end
      assertThat(pile.getString(customer)).isEqualTo(customerWithOrder);
      assertThatThrownBy(() -> pile.get(cart)).isInstanceOf(StalePointerException.class);
    }
  }

  @Test
  void transaction_closedWithoutCommit_rollsBack() {
    try (Pile pile = Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).build())) {
      long customer = pile.put("customer");
      long order;
      try (Transaction tx = pile.beginTransaction()) {
        order = tx.put("order");
        tx.update(customer, "changed");
      }
      assertThat(pile.getString(customer)).isEqualTo("customer");
      assertThatThrownBy(() -> pile.get(order)).isInstanceOf(StalePointerException.class);
    }
  }

  // ============================================================================ PileDirectory

  @Test
  void pileDirectory_inspect() throws IOException {
    try (Pile pile =
        Pile.open(
            dir, PileOptions.builder().segmentBytes(1 << 20).durability(Durability.NONE).build())) {
      pile.put("one");
      pile.put("two");
    }
    // @start region="inspect"
    PileDirectory.Inspection info = PileDirectory.inspect(dir);
    System.out.println(
        info.stats().objectCount() + " values, clean close: " + info.lastCloseClean());
    // @end
    assertThat(info.stats().objectCount()).isEqualTo(2);
    assertThat(info.lastCloseClean()).isTrue();
  }

  @Test
  @SuppressWarnings("try") // the example opens the salvaged pile and leaves it to the reader
  void pileDirectory_salvage_ofAnUndamagedPile_dropsNothing() throws IOException {
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .stripes(2)
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .build();
    long p;
    try (Pile pile = Pile.open(dir, options)) {
      p = pile.put("kept");
    }
    // @start region="salvage"
    PileDirectory.Salvage result = PileDirectory.salvage(dir, options);
    if (result.dropped()) {
      System.err.println(result.damage().describe());
    }
    try (Pile pile = Pile.open(dir, options)) {
      // the pile as of the last write before the damage
    }
    // @end
    assertThat(result.dropped()).isFalse();
    try (Pile pile = Pile.open(dir, options)) {
      assertThat(pile.getString(p)).isEqualTo("kept");
    }
  }

  // ============================================================================ codecs

  // @start region="point-codec"
  record Point(int x, int y) {}

  static final class PointCodec
      implements Codec<Point> { // @replace substring="static " replacement=""
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
      return new Point(
          src.get(ValueLayout.JAVA_INT_UNALIGNED, at),
          src.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4));
    }
  }

  // @end

  /** An object type the registry encodes itself, for the examples. */
  record Person(String name, String surname, int born) {}

  // @start region="cairn-name"
  @CairnName(value = "acme.Customer", aliases = "com.acme.old.Client")
  record Customer(String name, @CairnName(aliases = "mail") String email) {}

  // @end

  @Test
  void codec_pointCodec_roundTrips() {
    CodecRegistry codecs = CodecRegistry.builder().register(100, new PointCodec()).build();
    try (Pile pile =
        Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).codecs(codecs).build())) {
      long p = pile.put(new Point(3, -4));
      assertThat(pile.sizeOf(p)).isGreaterThanOrEqualTo(8);
      assertThat(pile.get(p, Point.class)).isEqualTo(new Point(3, -4));
    }
  }

  @Test
  void codecRegistry_builder() {
    // @start region="registry"
    CodecRegistry codecs =
        CodecRegistry.builder()
            .register(100, new PointCodec()) // a hand-written codec
            .allow(Person.class) // a record, and what its fields hold
            .allowPackage("com.acme.model") // every class of a package
            .build();
    Pile pile = Pile.offHeap(PileOptions.builder().codecs(codecs).build());
    long p = pile.put(new Person("Ada", "Lovelace", 1815));
    Person back = pile.get(p, Person.class);
    // @end
    try (pile) {
      assertThat(back).isEqualTo(new Person("Ada", "Lovelace", 1815));
      assertThat(pile.get(pile.put(new Point(1, 2)), Point.class)).isEqualTo(new Point(1, 2));
    }
  }

  @Test
  void cairnName_andTypeCatalog() {
    // @start region="type-catalog"
    TypeCatalog catalog = TypeCatalog.inMemory();
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).catalog(catalog).build();
    // @end
    TypeCatalog pileCatalog = TypeCatalog.inMemory();
    // @start region="with-catalog"
    CodecRegistry forThisPile = codecs.withCatalog(pileCatalog);
    // @end
    CodecRegistry customers = CodecRegistry.builder().allow(Customer.class).build();
    try (Pile pile =
            Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).codecs(forThisPile).build());
        Pile other =
            Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).codecs(customers).build())) {
      long p = pile.put(new Person("Ada", "Lovelace", 1815));
      assertThat(pile.get(p, Person.class)).isEqualTo(new Person("Ada", "Lovelace", 1815));
      assertThat(forThisPile.schemas()).as("the pile's catalog holds Person's schema").isNotEmpty();
      long c = other.put(new Customer("Ada", "ada@example.com"));
      assertThat(other.get(c, Customer.class)).isEqualTo(new Customer("Ada", "ada@example.com"));
      assertThat(customers.schemas().toString()).contains("acme.Customer");
    }
  }
}
