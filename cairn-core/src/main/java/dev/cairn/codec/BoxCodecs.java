package dev.cairn.codec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Fixed-width little-endian codecs for the primitive boxes. */
final class BoxCodecs {
  private BoxCodecs() {}

  /** A codec whose encoding always has the same width. */
  private abstract static class Fixed<T> implements Codec<T> {
    private final Class<T> type;
    private final int width;

    Fixed(Class<T> type, int width) {
      this.type = type;
      this.width = width;
    }

    @Override
    public final Class<T> type() {
      return type;
    }

    @Override
    public final int encodedSize(T value) {
      return width;
    }

    @Override
    public final T decode(MemorySegment source, long offset, int length) {
      if (length != width) {
        throw new CorruptValueException(
            "wrong length for "
                + type.getSimpleName()
                + ": length="
                + length
                + " expected="
                + width);
      }
      return read(source, offset);
    }

    abstract T read(MemorySegment source, long offset);
  }

  static final Codec<Integer> INT =
      new Fixed<>(Integer.class, Integer.BYTES) {
        @Override
        public void encode(Integer v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_INT_UNALIGNED, o, v);
        }

        @Override
        Integer read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_INT_UNALIGNED, o);
        }
      };

  static final Codec<Long> LONG =
      new Fixed<>(Long.class, Long.BYTES) {
        @Override
        public void encode(Long v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_LONG_UNALIGNED, o, v);
        }

        @Override
        Long read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_LONG_UNALIGNED, o);
        }
      };

  static final Codec<Double> DOUBLE =
      new Fixed<>(Double.class, Double.BYTES) {
        @Override
        public void encode(Double v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, o, v);
        }

        @Override
        Double read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o);
        }
      };

  static final Codec<Float> FLOAT =
      new Fixed<>(Float.class, Float.BYTES) {
        @Override
        public void encode(Float v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_FLOAT_UNALIGNED, o, v);
        }

        @Override
        Float read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o);
        }
      };

  static final Codec<Short> SHORT =
      new Fixed<>(Short.class, Short.BYTES) {
        @Override
        public void encode(Short v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_SHORT_UNALIGNED, o, v);
        }

        @Override
        Short read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_SHORT_UNALIGNED, o);
        }
      };

  static final Codec<Character> CHAR =
      new Fixed<>(Character.class, Character.BYTES) {
        @Override
        public void encode(Character v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_CHAR_UNALIGNED, o, v);
        }

        @Override
        Character read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_CHAR_UNALIGNED, o);
        }
      };

  static final Codec<Byte> BYTE =
      new Fixed<>(Byte.class, Byte.BYTES) {
        @Override
        public void encode(Byte v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_BYTE, o, v);
        }

        @Override
        Byte read(MemorySegment s, long o) {
          return s.get(ValueLayout.JAVA_BYTE, o);
        }
      };

  static final Codec<Boolean> BOOLEAN =
      new Fixed<>(Boolean.class, 1) {
        @Override
        public void encode(Boolean v, MemorySegment t, long o) {
          t.set(ValueLayout.JAVA_BYTE, o, (byte) (v ? 1 : 0));
        }

        @Override
        Boolean read(MemorySegment s, long o) {
          byte b = s.get(ValueLayout.JAVA_BYTE, o);
          if (b != 0 && b != 1) {
            throw new CorruptValueException("not a boolean byte: " + b);
          }
          return b == 1;
        }
      };
}
