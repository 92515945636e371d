package dev.cairn.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Shared helpers of the object-codec tests: stored payloads exactly as the pile lays them out
 * ({@code TypeId:varint, Encoded}), and a deep equality that sees into arrays, records and POJOs.
 */
final class CodecTestSupport {
  private CodecTestSupport() {}

  /** The pile's object payload: the type id varint (one or two bytes), then the encoding. */
  static byte[] store(CodecRegistry codecs, Object value) {
    int id = codecs.typeIdOf(value.getClass());
    Codec<Object> codec = codecs.codecOf(id);
    int idBytes = id < 0x80 ? 1 : 2;
    int size = codec.encodedSize(value);
    byte[] bytes = new byte[idBytes + size];
    MemorySegment segment = MemorySegment.ofArray(bytes);
    if (idBytes == 1) {
      bytes[0] = (byte) id;
    } else {
      bytes[0] = (byte) (0x80 | (id & 0x7F));
      bytes[1] = (byte) (id >>> 7);
    }
    // encode into a slice of exactly the size, as the pile does: a codec writing past its size
    // or leaving bytes unwritten would show
    codec.encode(value, segment.asSlice(0, idBytes + size), idBytes);
    return bytes;
  }

  /** Reads a payload {@link #store} made, as the pile's get does. */
  static Object load(CodecRegistry codecs, byte[] payload) {
    MemorySegment segment = MemorySegment.ofArray(payload).asReadOnly();
    int first = payload[0] & 0xFF;
    int id = first < 0x80 ? first : (first & 0x7F) | ((payload[1] & 0xFF) << 7);
    int idBytes = first < 0x80 ? 1 : 2;
    return codecs.codecOf(id).decode(segment, idBytes, payload.length - idBytes);
  }

  /** Stores and loads {@code value}, and checks that the result is deeply equal to it. */
  @SuppressWarnings("unchecked")
  static <T> T roundTrip(CodecRegistry codecs, T value) {
    byte[] payload = store(codecs, value);
    Object back = load(codecs, payload);
    assertDeepEquals(value, back);
    // the copy encodes to as many bytes (the same bytes, but for hash-ordered collections)
    assertThat(store(codecs, back)).as("re-encoding of %s", value).hasSameSizeAs(payload);
    return (T) back;
  }

  static void assertDeepEquals(Object expected, Object actual) {
    String diff = diff(expected, actual, "value");
    assertThat(diff).as("deep difference").isNull();
  }

  /** The first difference between two values, or null when they are deeply equal. */
  static String diff(Object a, Object b, String path) {
    if (a == b) {
      return null;
    }
    if (a == null || b == null) {
      return path + ": " + a + " != " + b;
    }
    if (a.getClass().isArray()) {
      if (a.getClass() != b.getClass()) {
        return path + ": " + a.getClass().getSimpleName() + " != " + b.getClass().getSimpleName();
      }
      int n = java.lang.reflect.Array.getLength(a);
      if (n != java.lang.reflect.Array.getLength(b)) {
        return path + ": array length " + n + " != " + java.lang.reflect.Array.getLength(b);
      }
      for (int i = 0; i < n; i++) {
        String d =
            diff(
                java.lang.reflect.Array.get(a, i),
                java.lang.reflect.Array.get(b, i),
                path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (a instanceof Optional<?> oa) {
      if (!(b instanceof Optional<?> ob) || oa.isPresent() != ob.isPresent()) {
        return path + ": " + a + " != " + b;
      }
      return oa.isPresent() ? diff(oa.get(), ob.get(), path + ".get()") : null;
    }
    if (a instanceof List<?> la) {
      if (!(b instanceof List<?> lb) || la.size() != lb.size()) {
        return path + ": " + a + " != " + b;
      }
      for (int i = 0; i < la.size(); i++) {
        String d = diff(la.get(i), lb.get(i), path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (a instanceof Collection<?> ca) { // sets and other collections: match elements
      if (!(b instanceof Collection<?> cb)
          || ca.size() != cb.size()
          || (a instanceof Set<?>) != (b instanceof Set<?>)) {
        return path + ": " + a + " != " + b;
      }
      List<Object> left = new ArrayList<>(cb);
      outer:
      for (Object x : ca) {
        for (int i = 0; i < left.size(); i++) {
          if (diff(x, left.get(i), path) == null) {
            left.remove(i);
            continue outer;
          }
        }
        return path + ": element " + x + " missing from " + b;
      }
      return null;
    }
    if (a instanceof Map<?, ?> ma) {
      if (!(b instanceof Map<?, ?> mb) || ma.size() != mb.size()) {
        return path + ": " + a + " != " + b;
      }
      for (Map.Entry<?, ?> e : ma.entrySet()) {
        Object key = e.getKey();
        if (!mb.containsKey(key)) {
          return path + ": key " + key + " missing from " + b;
        }
        String d = diff(e.getValue(), mb.get(key), path + "[" + key + "]");
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (a.getClass() != b.getClass()) {
      return path + ": " + a.getClass().getName() + " != " + b.getClass().getName();
    }
    if (a.getClass().isRecord()) {
      for (RecordComponent rc : a.getClass().getRecordComponents()) {
        try {
          rc.getAccessor().setAccessible(true);
          String d =
              diff(
                  rc.getAccessor().invoke(a),
                  rc.getAccessor().invoke(b),
                  path + "." + rc.getName());
          if (d != null) {
            return d;
          }
        } catch (ReflectiveOperationException e) {
          throw new LinkageError(e.getMessage(), e);
        }
      }
      return null;
    }
    if (!a.getClass().getName().startsWith("java.") && !a.getClass().isEnum()) {
      for (Class<?> c = a.getClass(); c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || Modifier.isTransient(f.getModifiers())) {
            continue;
          }
          try {
            f.setAccessible(true);
            String d = diff(f.get(a), f.get(b), path + "." + f.getName());
            if (d != null) {
              return d;
            }
          } catch (IllegalAccessException e) {
            throw new AssertionError(e);
          }
        }
      }
      return null;
    }
    return a.equals(b) ? null : path + ": " + a + " != " + b;
  }

  /** A hex dump, for golden-byte assertions and failure messages. */
  static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte b : bytes) {
      if (!sb.isEmpty()) {
        sb.append(' ');
      }
      sb.append(String.format("%02x", b & 0xFF));
    }
    return sb.toString();
  }

  static byte[] unhex(String hex) {
    String[] parts = hex.trim().split("\\s+");
    byte[] bytes = new byte[parts.length];
    for (int i = 0; i < parts.length; i++) {
      bytes[i] = (byte) Integer.parseInt(parts[i], 16);
    }
    return bytes;
  }

  static byte[] concat(byte[]... parts) {
    int n = Arrays.stream(parts).mapToInt(p -> p.length).sum();
    byte[] all = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }
}
