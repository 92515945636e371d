package dev.cairn.bench.jmh;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.LocalDate;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import org.apache.fory.logging.LoggerFactory;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.memory.MemoryUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Is Cairn's object codec at least as fast and as compact as Kryo 5 for the seed's Person, and how
 * does it compare with Apache Fory and Java serialization? And does a Person put and get through a
 * pile reach 3M operations per second per thread?
 *
 * <p>Each library encodes the same Person (three short strings, an int, a double, a long and a
 * {@code LocalDate}) into a reused buffer and decodes it back, with its fastest safe settings:
 * classes registered, reference tracking off. Cairn encodes straight into a native segment, as the
 * pile does; Kryo and Fory into their own reused heap buffers. Fory's figures include its class
 * header, Kryo's do not (it is told the class); Cairn's exclude the one-byte type id the pile
 * writes. {@code shape} runs a record and a POJO with the same fields, since the libraries build
 * the two differently. {@link #pilePut} and {@link #pileGet} go through a whole pile: allocation,
 * header, seqlock read and decode.
 *
 * <p>Encoded sizes, type id or class header included for every library (a stored object must name
 * its type), are printed once per trial, and by {@link #main}.
 *
 * <pre>
 * ./mvnw -B -q -DskipTests -pl cairn-bench -am package
 * . .mvn/find-jdk25.sh; alias jmh='$JAVA_HOME/bin/java --sun-misc-unsafe-memory-access=allow -jar cairn-bench/target/benchmarks.jar'
 * jmh CodecBenchmark                                   # all, about 2 minutes
 * jmh 'CodecBenchmark.(cairn|kryo)' -p shape=record    # the target: Cairn against Kryo
 * jmh CodecBenchmark.cairnEncode -prof gc              # allocation per encode (none but JMH's)
 * $JAVA_HOME/bin/java -cp cairn-bench/target/benchmarks.jar dev.cairn.bench.jmh.CodecBenchmark   # sizes
 * </pre>
 *
 * <p>The forks open {@code java.base} packages and allow {@code sun.misc.Unsafe} for Fory and Kryo,
 * which need them; Cairn needs neither. Scores are operations per microsecond.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xmx1g",
      "--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED"
    })
public class CodecBenchmark {

  /** The seed's Person, as a record. */
  public record Person(
      String name,
      String surname,
      String email,
      int age,
      double salary,
      long id,
      LocalDate birthDate)
      implements Serializable {}

  /** The same Person as a POJO. */
  public static final class PersonBean implements Serializable {
    private String name;
    private String surname;
    private String email;
    private int age;
    private double salary;
    private long id;
    private LocalDate birthDate;

    public PersonBean() {}

    PersonBean(Person p) {
      name = p.name();
      surname = p.surname();
      email = p.email();
      age = p.age();
      salary = p.salary();
      id = p.id();
      birthDate = p.birthDate();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PersonBean b
          && Objects.equals(name, b.name)
          && Objects.equals(surname, b.surname)
          && Objects.equals(email, b.email)
          && age == b.age
          && salary == b.salary
          && id == b.id
          && Objects.equals(birthDate, b.birthDate);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, id);
    }
  }

  static Person person() {
    return new Person(
        "Margaret",
        "Hamilton",
        "margaret.hamilton@example.com",
        42,
        123_456.78,
        1_234_567_890L,
        LocalDate.of(1986, 8, 17));
  }

  @Param({"record", "pojo"})
  public String shape;

  private Object value;
  private Class<?> type;

  private Codec<Object> cairn;
  private int cairnTypeIdBytes;
  private MemorySegment segment;
  private int cairnSize;

  private Kryo kryo;
  private Output kryoOut;
  private Input kryoIn;
  private int kryoSize;

  private Fory fory;
  private MemoryBuffer foryBuffer;

  private byte[] javaBytes;

  private CodecRegistry codecs;

  @Setup(Level.Trial)
  public void setUp() {
    value = shape.equals("record") ? person() : new PersonBean(person());
    type = value.getClass();

    codecs = CodecRegistry.builder().allow(Person.class, PersonBean.class).build();
    int typeId = codecs.typeIdOf(type);
    cairn = codecs.codecOf(typeId);
    cairnTypeIdBytes = typeId < 128 ? 1 : 2;
    segment = Arena.ofShared().allocate(256); // lives as long as the trial's JVM
    cairnSize = cairn.encodedSize(value);
    cairn.encode(value, segment, 0);
    check(cairn.decode(segment, 0, cairnSize));

    kryo = new Kryo();
    kryo.setRegistrationRequired(true);
    kryo.setReferences(false);
    kryo.register(LocalDate.class);
    kryo.register(type);
    kryoOut = new Output(256);
    kryo.writeObject(kryoOut, value);
    kryoSize = kryoOut.position();
    kryoIn = new Input(kryoOut.getBuffer(), 0, kryoSize);
    check(kryo.readObject(kryoIn, type));

    LoggerFactory.disableLogging();
    fory =
        Fory.builder()
            .withLanguage(Language.JAVA)
            .requireClassRegistration(true)
            .withRefTracking(false)
            .build();
    fory.register(type);
    foryBuffer = MemoryUtils.buffer(256);
    fory.serialize(foryBuffer, value);
    check(fory.deserialize(foryBuffer));

    javaBytes = javaSerialize(value);
    check(javaDeserialize(javaBytes));

    printSizes(
        shape,
        cairnTypeIdBytes + cairnSize,
        kryoWithClass(value),
        foryWithClass(value),
        javaBytes.length);
  }

  private void check(Object back) {
    if (!value.equals(back)) {
      throw new AssertionError("round trip changed the value: " + back);
    }
  }

  private int kryoWithClass(Object v) {
    Output out = new Output(256);
    kryo.writeClassAndObject(out, v);
    return out.position();
  }

  private int foryWithClass(Object v) {
    return fory.serialize(v).length;
  }

  private static void printSizes(String shape, int cairn, int kryo, int fory, int java) {
    // Printing is this method's purpose: the sizes are half of the benchmark's answer.
    System.out.printf(
        "%n[sizes] %s Person, type id included: cairn=%d kryo=%d fory=%d java=%d bytes"
            + " (cairn/java=%.0f%%, cairn/kryo=%.0f%%)%n",
        shape, cairn, kryo, fory, java, 100.0 * cairn / java, 100.0 * cairn / kryo);
  }

  // ---------------------------------------------------------------- encode

  @Benchmark
  public int cairnEncode() {
    int n = cairn.encodedSize(value);
    cairn.encode(value, segment, 0);
    return n;
  }

  @Benchmark
  public int kryoEncode() {
    kryoOut.setPosition(0);
    kryo.writeObject(kryoOut, value);
    return kryoOut.position();
  }

  @Benchmark
  public int foryEncode() {
    foryBuffer.writerIndex(0);
    fory.serialize(foryBuffer, value);
    return foryBuffer.writerIndex();
  }

  @Benchmark
  public int javaEncode() {
    return javaSerialize(value).length;
  }

  // ---------------------------------------------------------------- decode

  @Benchmark
  public Object cairnDecode() {
    return cairn.decode(segment, 0, cairnSize);
  }

  @Benchmark
  public Object kryoDecode() {
    kryoIn.setPosition(0);
    return kryo.readObject(kryoIn, type);
  }

  @Benchmark
  public Object foryDecode() {
    foryBuffer.readerIndex(0);
    return fory.deserialize(foryBuffer);
  }

  @Benchmark
  public Object javaDecode() {
    return javaDeserialize(javaBytes);
  }

  // ---------------------------------------------------------------- through a pile

  /**
   * A pile of {@value #RING} persons, for {@link #pilePut} and {@link #pileGet} only: a state of
   * its own, so that the codec benchmarks' forks never warm the codec up through the pile first
   * (which changes what the JIT inlines into them).
   */
  @State(Scope.Thread)
  public static class Piled {
    static final int RING = 1 << 16;
    Pile pile;
    long[] ring = new long[RING];
    Object value;
    int next;

    @Setup(Level.Trial)
    public void open(CodecBenchmark b) {
      value = b.value;
      pile = Pile.offHeap(PileOptions.builder().codecs(b.codecs).segmentBytes(16L << 20).build());
      for (int i = 0; i < RING; i++) {
        ring[i] = pile.put(value);
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      pile.close();
    }
  }

  /** A put (and the delete of the value put {@value Piled#RING} puts ago, to stay bounded). */
  @Benchmark
  public long pilePut(Piled p) {
    int i = p.next++ & (Piled.RING - 1);
    p.pile.delete(p.ring[i]);
    long pointer = p.pile.put(p.value);
    p.ring[i] = pointer;
    return pointer;
  }

  @Benchmark
  public Object pileGet(Piled p) {
    return p.pile.get(p.ring[p.next++ & (Piled.RING - 1)]);
  }

  // ---------------------------------------------------------------- helpers

  private static byte[] javaSerialize(Object v) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(v);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Java serialization of a " + v.getClass().getName() + " failed", e);
    }
    return bytes.toByteArray();
  }

  private static Object javaDeserialize(byte[] b) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
      return in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Java deserialization of " + b.length + " bytes failed", e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "Java deserialization of "
              + b.length
              + " bytes names a"
              + " class the benchmark's class path lacks: "
              + e.getMessage(),
          e);
    }
  }

  /** Prints the encoded sizes only. */
  public static void main(String[] args) {
    for (String shape : new String[] {"record", "pojo"}) {
      CodecBenchmark b = new CodecBenchmark();
      b.shape = shape;
      b.setUp();
    }
  }
}
