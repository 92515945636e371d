package dev.cairn.jcache;

import dev.cairn.codec.Utf8;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.cache.CacheException;

/**
 * How a JCache key or value becomes the bytes Cairn stores, and back: store-by-value, the JCache
 * default. {@code String}, {@code byte[]}, {@code Long} and {@code Integer} are written directly
 * (one tag byte, then their bytes); any other type with Java serialization, read back with the
 * cache manager's class loader.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Key bytes:    I64be                   (a Long: 8 bytes, no tag; the table's long view's key)
 *             | Tag:u8 Payload          (any other key, never 8 bytes long:
 *             | 7:u8 Tag:u8 Payload      one that would be is padded with tag 7 in front)
 *               Two keys are the same key when their bytes are.
 * Value:        the value itself        (eternal byte[], String, Long, Integer: stored natively)
 *             | StoredValue             (ExpireAt:i64le Tag:u8 Payload: the others)
 * Tags: 1 String (UTF-8), 2 byte[], 3 Long (8 bytes LE), 4 Integer (4 bytes LE),
 *       5 Java serialization (ObjectOutputStream), 6 the same with each class descriptor
 *       replaced by its id in the manager's ClassDescriptors (8 bytes), the form written;
 *       7 in a key only: the padding above.
 * A Long key is the 8 bytes of Cache.longKeys, so that a get or put of one goes through the
 * table's long view with no array (CairnJCache J8).
 * A class is resolved by name once per marshaller (the manager's class loader does not change).
 * }</pre>
 *
 * An eternal value of a native type is stored as itself, so that a get decodes it once, straight
 * from the pile into the object returned (one copy of a {@code byte[]}, where a header in front of
 * it would take two), and a put of a {@code byte[]} copies it once, into the pile. An expiring
 * value carries its expiry in front of it ({@link StoredValue}): the cache reads it there to
 * deliver EXPIRED events itself, under the key's lock.
 *
 * <p>Keys compare by their bytes, as in every off-heap store: a key type whose equal instances
 * serialize differently (a HashMap whose iteration order differs) makes different keys.
 *
 * <p>Thread-safety: immutable, safe from any thread.
 */
final class Marshaller {
  /** The expiry of an entry that never expires. */
  static final long ETERNAL = Long.MAX_VALUE;

  private static final byte STRING = 1;
  private static final byte BYTES = 2;
  private static final byte LONG = 3;
  private static final byte INT = 4;
  private static final byte SERIALIZED = 5;
  private static final byte COMPACT = 6;
  private static final byte PADDED = 7;

  private static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle I32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private final ClassLoader loader;
  private final ClassDescriptors descriptors;
  private final Map<String, Class<?>> classes = new ConcurrentHashMap<>();

  Marshaller(ClassLoader loader, ClassDescriptors descriptors) {
    this.loader = loader;
    this.descriptors = descriptors;
  }

  /** The bytes of key {@code key}. */
  byte[] key(Object key) {
    if (key instanceof Long l) { // the commonest key, tested first: no type switch on the way
      return longKey(l);
    }
    byte[] out = encode(key);
    if (out.length == Long.BYTES) { // would read as a Long: padded
      byte[] padded = new byte[Long.BYTES + 1];
      padded[0] = PADDED;
      System.arraycopy(out, 0, padded, 1, out.length);
      return padded;
    }
    return out;
  }

  /** The bytes of the Long key {@code key}: its 8 bytes, big-endian, as Cache.longKeys has it. */
  static byte[] longKey(long key) {
    byte[] out = new byte[Long.BYTES];
    BE64.set(out, 0, key);
    return out;
  }

  /** Whether {@code bytes} are a Long key's ({@link #longKey}): the only keys of 8 bytes. */
  static boolean isLongKey(byte[] bytes) {
    return bytes.length == Long.BYTES;
  }

  /** The long of a Long key's bytes ({@link #isLongKey}). */
  static long longOf(byte[] bytes) {
    return (long) BE64.get(bytes, 0);
  }

  /** The key of bytes {@code bytes}. */
  Object keyOf(byte[] bytes) {
    if (isLongKey(bytes)) {
      return longOf(bytes);
    }
    if (bytes.length > 1 && bytes[0] == PADDED) {
      return decode(Arrays.copyOfRange(bytes, 1, bytes.length));
    }
    return decode(bytes);
  }

  /**
   * How {@code value}, expiring at {@code expireAt}, goes into the table: as itself when it never
   * expires and the cache stores its type natively ({@code byte[]}, which the table copies off the
   * heap at once, {@code String}, {@code Long}, {@code Integer}), else as a {@link StoredValue}.
   */
  Object stored(Object value, long expireAt) {
    if (expireAt == ETERNAL && isNative(value)) {
      return value;
    }
    return new StoredValue(expireAt, encode(value));
  }

  /** The value a stored form holds, the caller's own: a {@code byte[]} is copied. */
  Object valueOf(Object stored) {
    return switch (stored) {
      case StoredValue s -> decode(s.body());
      case byte[] b -> b.clone();
      default -> stored; // String, Long, Integer: immutable
    };
  }

  /**
   * As {@link #valueOf}, for a stored form fresh from the table that the caller uses for nothing
   * else: a {@code byte[]} is handed over as it is, since the table made it for this read alone.
   */
  Object valueOfFresh(Object stored) {
    return stored instanceof byte[] ? stored : valueOf(stored);
  }

  /** When a stored form expires (epoch milliseconds), {@link #ETERNAL} for never. */
  static long expireAt(Object stored) {
    return stored instanceof StoredValue s ? s.expireAt() : ETERNAL;
  }

  /**
   * Whether an entry expiring at {@code expireAt} is live now; an eternal one is without reading
   * the clock (about 20 ns, a third of a whole get of a small value).
   */
  static boolean liveAt(long expireAt) {
    return expireAt == ETERNAL || expireAt > System.currentTimeMillis();
  }

  /** The same value as {@code stored}, expiring at {@code expireAt}. */
  Object withExpiry(Object stored, long expireAt) {
    byte[] body = body(stored);
    if (expireAt == ETERNAL && isNativeTag(body[0])) {
      return decode(body);
    }
    return new StoredValue(expireAt, body);
  }

  /** Whether two stored forms hold the same value, whatever their expiry. */
  boolean sameValue(Object a, Object b) {
    if (!(a instanceof StoredValue) && !(b instanceof StoredValue)) {
      return Objects.deepEquals(a, b);
    }
    return Arrays.equals(body(a), body(b));
  }

  /** A copy of {@code value} as store-by-value hands it out: decoded from its bytes. */
  Object copy(Object value) {
    return decode(encode(value));
  }

  /** The value's bytes (tag, payload) of a stored form. */
  private byte[] body(Object stored) {
    return stored instanceof StoredValue s ? s.body() : encode(stored);
  }

  private static boolean isNative(Object value) {
    return value instanceof byte[]
        || value instanceof String
        || value instanceof Long
        || value instanceof Integer;
  }

  private static boolean isNativeTag(byte tag) {
    return tag == STRING || tag == BYTES || tag == LONG || tag == INT;
  }

  private byte[] encode(Object o) {
    byte[] out;
    switch (o) {
      case String s -> {
        byte[] utf8 = Utf8.encode(s); // lossless: an unpaired surrogate is not a '?'
        out = new byte[1 + utf8.length];
        out[0] = STRING;
        System.arraycopy(utf8, 0, out, 1, utf8.length);
      }
      case byte[] b -> {
        out = new byte[1 + b.length];
        out[0] = BYTES;
        System.arraycopy(b, 0, out, 1, b.length);
      }
      case Long l -> {
        out = new byte[1 + Long.BYTES];
        out[0] = LONG;
        I64.set(out, 1, l.longValue());
      }
      case Integer i -> {
        out = new byte[1 + Integer.BYTES];
        out[0] = INT;
        I32.set(out, 1, i.intValue());
      }
      default -> {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(64);
        buffer.write(0); // the tag's place
        try (ObjectOutputStream stream = new CompactOutputStream(buffer, descriptors)) {
          stream.writeObject(o);
        } catch (NotSerializableException e) {
          throw new IllegalArgumentException(
              "a "
                  + o.getClass().getName()
                  + " cannot be stored by value: it is not Serializable (Cairn stores String,"
                  + " byte[], Long, Integer and Serializable keys and values)",
              e);
        } catch (IOException e) {
          throw new CacheException("cannot serialize a " + o.getClass().getName(), e);
        }
        out = buffer.toByteArray();
        out[0] = COMPACT;
      }
    }
    return out;
  }

  private Object decode(byte[] bytes) {
    if (bytes.length == 0) {
      throw new CacheException("stored bytes of no length: a tag is at byte 0");
    }
    int at = 1;
    return switch (bytes[0]) {
      case STRING -> Utf8.decode(bytes, at, bytes.length - at);
      case BYTES -> Arrays.copyOfRange(bytes, at, bytes.length);
      case LONG -> (long) I64.get(bytes, at);
      case INT -> (int) I32.get(bytes, at);
      case SERIALIZED -> deserialize(bytes, at, false);
      case COMPACT -> deserialize(bytes, at, true);
      default ->
          throw new CacheException(
              "stored bytes of an unknown kind "
                  + bytes[0]
                  + " (a file of another program, or damaged)");
    };
  }

  private Object deserialize(byte[] bytes, int at, boolean compact) {
    try (ObjectInputStream in =
        new LoaderObjectInputStream(
            new ByteArrayInputStream(bytes, at, bytes.length - at), this, compact)) {
      return in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new CacheException(
          "cannot deserialize a stored value with class loader " + loader + ": " + e, e);
    }
  }

  /** The class named {@code name}: the manager's class loader first, resolved once. */
  private Class<?> resolve(ObjectStreamClass desc, ObjectInputStream stream)
      throws ClassNotFoundException, IOException {
    Class<?> c = classes.get(desc.getName());
    if (c != null) {
      return c;
    }
    try {
      c = Class.forName(desc.getName(), false, loader);
    } catch (ClassNotFoundException e) {
      c = ((LoaderObjectInputStream) stream).defaultResolve(desc);
    }
    classes.put(desc.getName(), c);
    return c;
  }

  /** Writes each class descriptor as its id (tag COMPACT). */
  private static final class CompactOutputStream extends ObjectOutputStream {
    private final ClassDescriptors descriptors;

    CompactOutputStream(OutputStream out, ClassDescriptors descriptors) throws IOException {
      super(out);
      this.descriptors = descriptors;
    }

    @Override
    protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
      writeLong(descriptors.idOf(desc));
    }
  }

  /** Resolves classes with the cache manager's class loader first; reads ids (tag COMPACT). */
  private static final class LoaderObjectInputStream extends ObjectInputStream {
    private final Marshaller marshaller;
    private final boolean compact;

    LoaderObjectInputStream(InputStream in, Marshaller marshaller, boolean compact)
        throws IOException {
      super(in);
      this.marshaller = marshaller;
      this.compact = compact;
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      return compact ? marshaller.descriptors.descriptor(readLong()) : super.readClassDescriptor();
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return marshaller.resolve(desc, this);
    }

    Class<?> defaultResolve(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
      return super.resolveClass(desc);
    }
  }
}
