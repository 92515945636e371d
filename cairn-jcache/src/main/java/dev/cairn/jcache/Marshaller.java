package dev.cairn.jcache;

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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
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
 * Key bytes:    Tag:u8 Payload                  (two keys are the same key when their bytes are)
 * Value bytes:  ExpireAt:i64le Tag:u8 Payload   (ExpireAt: epoch milliseconds, ETERNAL for none)
 * Tags: 1 String (UTF-8), 2 byte[], 3 Long (8 bytes LE), 4 Integer (4 bytes LE),
 *       5 Java serialization (ObjectOutputStream), 6 the same with each class descriptor
 *       replaced by its id in the manager's ClassDescriptors (8 bytes), the form written.
 * A class is resolved by name once per marshaller (the manager's class loader does not change).
 * }</pre>
 *
 * Keys compare by their bytes, as in every off-heap store: a key type whose equal instances
 * serialize differently (a HashMap whose iteration order differs) makes different keys.
 *
 * <p>Thread-safety: immutable, safe from any thread.
 */
final class Marshaller {
  /** The expiry of an entry that never expires. */
  static final long ETERNAL = Long.MAX_VALUE;

  static final int HEADER_BYTES = Long.BYTES;

  private static final byte STRING = 1;
  private static final byte BYTES = 2;
  private static final byte LONG = 3;
  private static final byte INT = 4;
  private static final byte SERIALIZED = 5;
  private static final byte COMPACT = 6;

  private static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
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
    return encode(key, 0, 0);
  }

  /** The key of bytes {@code bytes}. */
  Object keyOf(byte[] bytes) {
    return decode(bytes, 0);
  }

  /** The stored bytes of {@code value}, expiring at {@code expireAt}. */
  byte[] value(Object value, long expireAt) {
    return encode(value, HEADER_BYTES, expireAt);
  }

  /** The value in stored bytes {@code bytes}. */
  Object valueOf(byte[] bytes) {
    return decode(bytes, HEADER_BYTES);
  }

  /** The expiry (epoch milliseconds) in stored bytes {@code bytes}. */
  static long expireAt(byte[] bytes) {
    return (long) I64.get(bytes, 0);
  }

  /** Stored bytes {@code bytes} with expiry {@code expireAt}: a copy. */
  static byte[] withExpiry(byte[] bytes, long expireAt) {
    byte[] copy = bytes.clone();
    I64.set(copy, 0, expireAt);
    return copy;
  }

  /** Whether two stored values hold the same value, whatever their expiry. */
  static boolean sameValue(byte[] a, byte[] b) {
    return Arrays.equals(a, HEADER_BYTES, a.length, b, HEADER_BYTES, b.length);
  }

  /** A copy of {@code value} as store-by-value hands it out: decoded from its bytes. */
  Object copy(Object value) {
    return decode(encode(value, 0, 0), 0);
  }

  private byte[] encode(Object o, int header, long expireAt) {
    byte[] out;
    switch (o) {
      case String s -> {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out = new byte[header + 1 + utf8.length];
        out[header] = STRING;
        System.arraycopy(utf8, 0, out, header + 1, utf8.length);
      }
      case byte[] b -> {
        out = new byte[header + 1 + b.length];
        out[header] = BYTES;
        System.arraycopy(b, 0, out, header + 1, b.length);
      }
      case Long l -> {
        out = new byte[header + 1 + Long.BYTES];
        out[header] = LONG;
        I64.set(out, header + 1, l.longValue());
      }
      case Integer i -> {
        out = new byte[header + 1 + Integer.BYTES];
        out[header] = INT;
        I32.set(out, header + 1, i.intValue());
      }
      default -> {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(64);
        buffer.write(new byte[header + 1], 0, header + 1);
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
        out[header] = COMPACT;
      }
    }
    if (header != 0) {
      I64.set(out, 0, expireAt);
    }
    return out;
  }

  private Object decode(byte[] bytes, int header) {
    if (bytes.length <= header) {
      throw new CacheException(
          "stored bytes too short: " + bytes.length + " bytes, a tag is at byte " + header);
    }
    int at = header + 1;
    return switch (bytes[header]) {
      case STRING -> new String(bytes, at, bytes.length - at, StandardCharsets.UTF_8);
      case BYTES -> Arrays.copyOfRange(bytes, at, bytes.length);
      case LONG -> (long) I64.get(bytes, at);
      case INT -> (int) I32.get(bytes, at);
      case SERIALIZED -> deserialize(bytes, at, false);
      case COMPACT -> deserialize(bytes, at, true);
      default ->
          throw new CacheException(
              "stored bytes of an unknown kind "
                  + bytes[header]
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
