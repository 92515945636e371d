package dev.cairn.codec;

import static dev.cairn.codec.CodecTestSupport.concat;
import static dev.cairn.codec.CodecTestSupport.load;
import static dev.cairn.codec.CodecTestSupport.store;
import static dev.cairn.codec.CodecTestSupport.unhex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CodecFixtures.Everything;
import dev.cairn.codec.CodecFixtures.Tree;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Corrupt bytes: random, mutated from real encodings, and crafted to claim huge lengths or deep
 * nesting. Every decode must either return an object of the class its type id names, or throw
 * {@link CorruptValueException}, {@link IncompatibleSchemaException} or {@link
 * UnknownTypeException}: never hang (each decode has a time limit), never run out of memory or
 * stack, never throw anything else (ObjectTypes I3: a stored id selects only among allowed types,
 * checked against the declared type). jqwik prints the seed of a failing run.
 */
class ObjectCodecFuzzTest {

  record Bomb(List<String> list, byte[] bytes, String text, int[][] grid, Object any) {}

  private static final CodecRegistry CODECS =
      CodecRegistry.builder()
          .allow(
              Everything.class,
              CodecFixtures.Zoo.class,
              CodecFixtures.Dog.class,
              CodecFixtures.Bird.class,
              Tree.class,
              Person.class,
              PersonBean.class,
              Bomb.class,
              ObjectCodecPropertyTest.Order.class)
          .build();

  private static final List<byte[]> SAMPLES = new ArrayList<>();
  private static ExecutorService decoder;

  @BeforeContainer
  static void setUp() {
    decoder =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "fuzz-decoder");
              t.setDaemon(true);
              return t;
            });
    Random random = new Random(1);
    for (Class<?> type :
        List.of(
            Everything.class,
            CodecFixtures.Zoo.class,
            Tree.class,
            Person.class,
            PersonBean.class,
            ObjectCodecPropertyTest.Order.class)) {
      var values = TypeArbitraries.of(type);
      for (int i = 0; i < 8; i++) {
        SAMPLES.add(store(CODECS, values.sample()));
      }
    }
    SAMPLES.add(
        store(
            CODECS,
            new Bomb(
                List.of("a", "b"),
                new byte[] {1, 2},
                "text",
                new int[][] {{1}, {2, 3}},
                List.of(1, "x"))));
    SAMPLES.add(store(CODECS, Person.sample(random.nextLong())));
  }

  @AfterContainer
  static void tearDown() {
    decoder.shutdownNow();
  }

  /** Decodes {@code payload} under a time limit and checks the outcome is one of the allowed. */
  private static void decodesOrFailsCleanly(byte[] payload) throws Exception {
    Future<Object> result =
        decoder.submit(
            () -> {
              try {
                Object value = load(CODECS, payload);
                int first = payload[0] & 0xFF;
                int id = first < 0x80 ? first : (first & 0x7F) | ((payload[1] & 0xFF) << 7);
                Class<?> type = CODECS.codecOf(id).type();
                assertThat(value).as("decoded value of type id %d", id).isInstanceOf(type);
                // the same bytes inside a larger segment, followed by bytes that would extend a
                // scan or a
                // varint: the codec must not read them as part of the value
                byte[] padded = Arrays.copyOf(payload, payload.length + 32);
                Arrays.fill(padded, payload.length, padded.length, (byte) 0x80);
                Object again =
                    CODECS
                        .codecOf(id)
                        .decode(
                            java.lang.foreign.MemorySegment.ofArray(padded), 1, payload.length - 1);
                CodecTestSupport.assertDeepEquals(value, again);
                return value;
              } catch (CorruptValueException
                  | IncompatibleSchemaException
                  | UnknownTypeException e) {
                assertThat(e.getMessage()).isNotBlank();
                return e;
              } catch (IndexOutOfBoundsException e) {
                if (payload.length < 3) {
                  return e; // no type id at all: the pile itself checks that (TypeIds.read)
                }
                throw e;
              }
            });
    try {
      result.get(10, TimeUnit.SECONDS);
    } catch (TimeoutException hang) {
      result.cancel(true);
      throw new AssertionError("decode did not finish in 10 s: " + CodecTestSupport.hex(payload));
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError(
          "decode threw " + e.getCause() + " for " + CodecTestSupport.hex(payload), e.getCause());
    }
  }

  @Property(tries = 4000)
  void mutatedEncodings_decodeOrFailCleanly(@ForAll("mutated") byte[] payload) throws Exception {
    decodesOrFailsCleanly(payload);
  }

  @Property(tries = 2000)
  void randomBytes_afterAKnownTypeId_decodeOrFailCleanly(
      @ForAll("typeIds") int typeId, @ForAll("noise") byte[] noise) throws Exception {
    decodesOrFailsCleanly(concat(new byte[] {(byte) typeId}, noise));
  }

  @Provide
  Arbitrary<Integer> typeIds() {
    int last = CODECS.schemas().getLast().typeId();
    return Arbitraries.integers().between(16, Math.min(last + 2, 127));
  }

  @Provide
  Arbitrary<byte[]> noise() {
    return Arbitraries.oneOf(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
        Arbitraries.of((byte) 0xFF, (byte) 0x80, (byte) 0x7F, (byte) 0x01, (byte) 0x00)
            .array(byte[].class)
            .ofMaxSize(40));
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    Arbitrary<byte[]> sample = Arbitraries.of(SAMPLES);
    Arbitrary<List<int[]>> edits =
        Combinators.combine(
                Arbitraries.integers().between(0, 6), // what
                Arbitraries.integers().between(0, 1 << 20), // where
                Arbitraries.integers().between(0, 255), // value
                Arbitraries.integers().between(1, 12)) // span
            .as((what, where, value, span) -> new int[] {what, where, value, span})
            .list()
            .ofMinSize(1)
            .ofMaxSize(4);
    return Combinators.combine(sample, edits).as(ObjectCodecFuzzTest::mutate);
  }

  /** Applies edits to a copy; the type id (first byte) is kept, so the decoder goes deep. */
  private static byte[] mutate(byte[] original, List<int[]> edits) {
    byte[] b = original.clone();
    for (int[] e : edits) {
      if (b.length < 2) {
        break;
      }
      int at = 1 + e[1] % (b.length - 1);
      switch (e[0]) {
        case 0 -> b[at] = (byte) e[2]; // overwrite a byte
        case 1 -> b[at] ^= (byte) (1 << (e[2] & 7)); // flip a bit
        case 2 -> b = Arrays.copyOf(b, at); // truncate
        case 3 -> { // insert bytes
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          out.write(b, 0, at);
          for (int i = 0; i < e[3]; i++) {
            out.write(e[2] + i * 37);
          }
          out.write(b, at, b.length - at);
          b = out.toByteArray();
        }
        case 4 -> Arrays.fill(b, at, Math.min(b.length, at + e[3]), (byte) 0xFF); // varint bomb
        case 5 -> Arrays.fill(b, at, Math.min(b.length, at + e[3]), (byte) e[2]);
        default -> { // delete bytes
          int end = Math.min(b.length, at + e[3]);
          byte[] shorter = new byte[b.length - (end - at)];
          System.arraycopy(b, 0, shorter, 0, at);
          System.arraycopy(b, end, shorter, at, b.length - end);
          b = shorter;
        }
      }
    }
    return b;
  }

  // ---------------------------------------------------------------- crafted attacks

  @Example
  void hugeClaimedLengths_failFast_withoutAllocating() throws Exception {
    int id = CODECS.typeIdOf(Bomb.class);
    String maxVarint = "ff ff ff ff 07"; // 2^31 - 1
    for (String body :
        List.of(
            "01 " + maxVarint, // list: ArrayList flavour, 2^31 - 1 elements
            "00 " + maxVarint, // bytes: a 2^31 - 2 byte array
            "00 00 c0 ff ff ff ff 0f", // text: a header claiming ~2^35 bytes
            "00 00 80 " + maxVarint, // grid: 2^31 - 2 rows
            "00 00 80 00 25 01 " + maxVarint, // any: a collection (tag 37) of 2^31 - 1 elements
            "00 00 80 00 0b " + maxVarint)) { // any: a byte[] (tag 11) of 2^31 - 2 bytes
      byte[] payload = concat(new byte[] {(byte) id}, unhex(body));
      decodesOrFailsCleanly(payload);
      assertThatThrownBy(() -> load(CODECS, payload))
          .as(body)
          .isInstanceOf(CorruptValueException.class);
    }
  }

  @Example
  void nestingBeyondTheLimit_failsAsCorrupt_withoutOverflowingTheStack() {
    int id = CODECS.typeIdOf(Tree.class);
    // Tree("ab", [Tree("ab", [ ... ])]) nested 5,000 deep: far beyond what an encoder writes
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(id);
    for (int i = 0; i < 5_000; i++) {
      out.writeBytes(new byte[] {0x61, (byte) 0xe2, 0x01, 0x01, (byte) id});
    }
    out.writeBytes(new byte[] {0x61, (byte) 0xe2, 0x00});
    byte[] payload = out.toByteArray();
    assertThatThrownBy(() -> load(CODECS, payload))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining("nested deeper than");
  }

  @Example
  void typeIdOfAnotherType_inAField_isRefused() {
    // a Person where the Zoo's Animal field expects an Animal: the decoder checks the class
    int zoo = CODECS.typeIdOf(CodecFixtures.Zoo.class);
    int person = CODECS.typeIdOf(Person.class);
    byte[] payload =
        concat(
            new byte[] {(byte) zoo, 0x61, (byte) 0xe2, (byte) person},
            Arrays.copyOfRange(store(CODECS, Person.sample(1)), 1, 49),
            unhex("00 00"));
    assertThatThrownBy(() -> load(CODECS, payload))
        .isInstanceOf(CorruptValueException.class)
        .hasMessageContaining(Person.class.getName())
        .hasMessageContaining("Zoo.star");
  }

  @Example
  void unknownAndOutOfRangeTypeIds_inAField_areRefused() {
    int zoo = CODECS.typeIdOf(CodecFixtures.Zoo.class);
    for (String id : List.of("7f", "ff 7f", "ff ff ff ff 07", "08")) {
      byte[] payload =
          concat(new byte[] {(byte) zoo, 0x61, (byte) 0xe2}, unhex(id), unhex("00 00 00"));
      assertThatThrownBy(() -> load(CODECS, payload))
          .as(id)
          .isInstanceOf(CorruptValueException.class);
    }
  }

  @Property(tries = 500)
  void corruptSchemaBytes_areRefusedCleanly(@ForAll("mutatedSchemas") byte[] bytes) {
    try {
      TypeSchema s = TypeSchema.fromBytes(bytes);
      TypeCatalog catalog = TypeCatalog.inMemory();
      catalog.onNewSchema(s);
      CodecRegistry.builder().catalog(catalog).build(); // parses every field type
    } catch (CorruptValueException | UnknownTypeException | IllegalArgumentException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<byte[]> mutatedSchemas() {
    List<byte[]> schemas = CODECS.schemas().stream().map(TypeSchema::toBytes).toList();
    return Combinators.combine(
            Arbitraries.of(schemas), Arbitraries.integers().between(0, 1000), Arbitraries.bytes())
        .as(
            (b, at, v) -> {
              byte[] copy = b.clone();
              copy[at % copy.length] = v;
              return copy;
            });
  }
}
