package dev.cairn.bench.harness;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The bench's values: a pool of up to {@link #MAX_POOL_VALUES} distinct values, made before any
 * store runs, and cycled by index, so value {@code i} is pool entry {@code i mod pool size} for
 * every store alike.
 *
 * <p>Why a pool, rather than N values made ahead or a new value per put: N pre-made values would
 * sit on the heap during the pile's run, and a new String per put would be garbage; either way the
 * pile's GC pauses and RSS growth would then measure the bench's own heap, not the pile (a young
 * generation that G1 keeps growing shows up as RSS growth). With a pool, a put allocates nothing
 * but what the store itself allocates. Values repeat every pool-size indices; neither store looks
 * at a value's content, so that changes nothing for them.
 *
 * <p>A string value is ASCII, so its UTF-8 form has one byte per character. Pool entries differ in
 * their last 3 characters (or 2 bytes), where the entry's number is stamped: all distinct for sizes
 * of at least that. The pool holds at most {@link #MAX_POOL_BYTES}, so large values get fewer
 * entries.
 *
 * <p>A {@link Person} has a first name and a surname drawn from short lists of common ones (the
 * lengths of real names, 3 to 9 letters), an email made of them, and an id that is the entry's
 * number from {@link #FIRST_PERSON_ID}, so every entry is distinct; its size is its encoding's,
 * about that of the seed's {@code Person("Ada", "Lovelace", "ada.lovelace@example.com", ...)}.
 *
 * <p>Thread-safe: read-only after construction.
 */
public final class ValueSource {

  /** Distinct values at most: enough that gets of consecutive indices read different values. */
  static final int MAX_POOL_VALUES = 1 << 16;

  /** The pool's size bound: a few MiB of heap for 32-byte values, never more than this. */
  static final long MAX_POOL_BYTES = 64L << 20;

  private static final byte[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          .getBytes(StandardCharsets.US_ASCII);

  /**
   * A Person's id is its entry's number plus this: ids of a table of millions of rows, 4 bytes as a
   * varint, rather than small numbers that would flatter the encoding's size.
   */
  static final long FIRST_PERSON_ID = 10_000_000;

  private static final String[] FIRST_NAMES = {
    "Ada",
    "Alan",
    "Grace",
    "Edsger",
    "Barbara",
    "Donald",
    "Margaret",
    "John",
    "Frances",
    "Dennis",
    "Radia",
    "Ken",
    "Sophie",
    "Tim",
    "Hedy",
    "Claude",
    "Joan",
    "Niklaus",
    "Karen",
    "Leslie",
    "Anita",
    "Linus",
    "Mary",
    "Guido",
    "Shafi",
    "Bjarne",
    "Lynn",
    "James",
    "Jean",
    "Robin",
    "Adele",
    "Ivan"
  };
  private static final String[] SURNAMES = {
    "Lovelace",
    "Turing",
    "Hopper",
    "Dijkstra",
    "Liskov",
    "Knuth",
    "Hamilton",
    "Backus",
    "Allen",
    "Ritchie",
    "Perlman",
    "Thompson",
    "Wilson",
    "Lee",
    "Lamarr",
    "Shannon",
    "Clarke",
    "Wirth",
    "Jones",
    "Lamport",
    "Borg",
    "Torvalds",
    "Keller",
    "Rossum",
    "Gold",
    "Kay",
    "Conway",
    "Gosling",
    "Bartik",
    "Milner",
    "Goldberg",
    "Moore"
  };

  /** Birth dates fall in [1940-01-01, 2005-12-31]. */
  private static final long FIRST_BIRTH_DAY = LocalDate.of(1940, 1, 1).toEpochDay();

  private static final int BIRTH_DAYS =
      (int) (LocalDate.of(2006, 1, 1).toEpochDay() - FIRST_BIRTH_DAY);

  private final BenchValueKind kind;
  private final int size;

  /** String, byte[] or Person entries, by kind. */
  private final Object[] pool;

  /** What a get of each entry adds to a checksum: see {@link #checksumOf(byte[], int)}. */
  private final long[] checksums;

  private final int mask;

  /**
   * @param size characters of a string, bytes of a byte[]; ignored for a Person
   * @param seed seeds the pool; the bench uses a fixed one, so runs are repeatable
   */
  public ValueSource(BenchValueKind kind, int size, long seed) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be positive: size=" + size);
    }
    this.kind = kind;
    this.size = size;
    int entries =
        kind.sized()
            ? (int) Math.min(MAX_POOL_VALUES, Math.max(1, MAX_POOL_BYTES / size))
            : MAX_POOL_VALUES;
    entries = Integer.highestOneBit(entries); // a power of two: index mod size is a mask
    this.pool = new Object[entries];
    this.checksums = new long[entries];
    this.mask = entries - 1;
    SplittableRandom random = new SplittableRandom(seed);
    for (int e = 0; e < entries; e++) {
      if (kind == BenchValueKind.PERSON) {
        Person person = person(e, random);
        pool[e] = person;
        checksums[e] = checksumOf(person);
        continue;
      }
      byte[] bytes = new byte[size];
      if (kind == BenchValueKind.STRING) {
        for (int i = 0; i < size; i++) {
          bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        stampBase62(e, bytes);
        pool[e] = new String(bytes, StandardCharsets.US_ASCII);
      } else {
        random.nextBytes(bytes);
        stampBigEndian(e, bytes);
        pool[e] = bytes;
      }
      checksums[e] = checksumOf(bytes, size);
    }
  }

  public BenchValueKind kind() {
    return kind;
  }

  /**
   * Characters of a string value, bytes of a byte[] value; for both, the stored bytes. For a
   * Person, only the size of {@link #newBuffer()}, which a Person's get does not use.
   */
  public int size() {
    return size;
  }

  /** A buffer for one thread to read values back into. */
  public byte[] newBuffer() {
    return new byte[size];
  }

  /**
   * Value {@code index}: a String, a byte[] or a Person, shared by all callers; a store must copy
   * it and must not change it.
   */
  public Object value(int index) {
    return pool[index & mask];
  }

  /** What a get of value {@code index} must add to a checksum. */
  long checksumOf(int index) {
    return checksums[index & mask];
  }

  /**
   * What a get of a value adds to a store's checksum: its length plus its last byte, where pool
   * entries differ. Both stores compute exactly this from what they return, so a wrong, stale or
   * truncated value shows as a checksum mismatch, at the cost of touching the value once (which a
   * real reader does anyway).
   */
  static long checksumOf(byte[] value, int length) {
    return (long) length + value[length - 1];
  }

  /**
   * {@link #checksumOf(byte[], int)} of {@code length} bytes of {@code bytes} at {@code offset}.
   */
  static long checksumOf(MemorySegment bytes, long offset, int length) {
    return (long) length + bytes.get(ValueLayout.JAVA_BYTE, offset + length - 1);
  }

  /**
   * What a get of a Person adds to a store's checksum: its id, where pool entries differ, plus two
   * fields from elsewhere in its encoding (an int, a string's length), so that a Person decoded
   * from the wrong bytes, or with a field lost, shows as a mismatch.
   */
  static long checksumOf(Person person) {
    return person.id() + person.age() + person.email().length();
  }

  /** The checksum that gets of values {@code [0, n)} must add up to. */
  public long expectedChecksum(int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += checksums[i & mask];
    }
    return sum;
  }

  private static Person person(int entry, SplittableRandom random) {
    String name = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)];
    String surname = SURNAMES[random.nextInt(SURNAMES.length)];
    String email = (name + "." + surname).toLowerCase(Locale.ROOT) + "@example.com";
    int age = 18 + random.nextInt(62);
    double salary = 20_000 + 100 * random.nextInt(1_800); // whole hundreds, 20k to 200k
    LocalDate birthDate = LocalDate.ofEpochDay(FIRST_BIRTH_DAY + random.nextInt(BIRTH_DAYS));
    return new Person(name, surname, email, age, salary, FIRST_PERSON_ID + entry, birthDate);
  }

  /** Writes {@code number} as the last base-62 digits: 3 of them tell 62^3 > 2^16 entries apart. */
  private static void stampBase62(int number, byte[] bytes) {
    for (int at = bytes.length - 1; at >= Math.max(0, bytes.length - 3); at--) {
      bytes[at] = ALPHABET[number % ALPHABET.length];
      number /= ALPHABET.length;
    }
  }

  /** Writes {@code number} as the last 2 bytes, big-endian: they tell 2^16 entries apart. */
  private static void stampBigEndian(int number, byte[] bytes) {
    for (int at = bytes.length - 1; at >= Math.max(0, bytes.length - 2); at--) {
      bytes[at] = (byte) number;
      number >>>= Byte.SIZE;
    }
  }
}
