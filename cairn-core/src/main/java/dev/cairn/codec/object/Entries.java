package dev.cairn.codec.object;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.IncompatibleSchemaException;
import dev.cairn.codec.TypeSchema;
import dev.cairn.codec.UnknownTypeException;
import java.lang.foreign.MemorySegment;

/**
 * What a type id stands for: a record or POJO layout, an enum's constant list, or a hand-written
 * codec. An entry is also the top-level {@link Codec} the pile uses for objects of its type.
 */
final class Entries {
  private Entries() {}

  /** Values larger than this cannot be stored in any pile (a segment is at most 1 GiB). */
  static final long MAX_ENCODED_BYTES = Integer.MAX_VALUE - 64;

  /** One type id: how to size, write, read and skip a body of that id. */
  abstract static class Entry implements Codec<Object> {
    final int id;
    final Class<?> type;

    /** The layout this id stands for; null for a hand-written codec. */
    final TypeSchema schema;

    /** Whether objects are written with this entry (the class's current layout). */
    final boolean current;

    Entry(int id, Class<?> type, TypeSchema schema, boolean current) {
      this.id = id;
      this.type = type;
      this.schema = schema;
      this.current = current;
    }

    abstract void writeBody(Object v, Out out, int depth);

    abstract Object readBody(In in, int depth);

    abstract void skipBody(In in, int depth);

    // ---------------------------------------------------------------- top-level Codec

    @Override
    @SuppressWarnings("unchecked")
    public Class<Object> type() {
      return (Class<Object>) type;
    }

    /**
     * Encodes {@code value} into this thread's {@link Out} buffer and returns its length; the
     * {@link #encode} that follows on this thread copies those bytes instead of encoding again.
     */
    @Override
    public int encodedSize(Object value) {
      checkWritable();
      Out out = Out.acquire();
      try {
        out.reset();
        writeBody(value, out, 0);
        out.remember(value, this);
        return out.pos;
      } catch (Refs.GraphTooDeep deep) {
        out.reset();
        throw deep.explain(type, value);
      } catch (RuntimeException e) {
        out.reset();
        throw e;
      } finally {
        out.release();
      }
    }

    /** Copies the bytes {@link #encodedSize} made for {@code value}, or encodes it now. */
    @Override
    public void encode(Object value, MemorySegment target, long offset) {
      checkWritable();
      Out out = Out.acquire();
      try {
        if (!out.holds(value, this)) {
          out.reset();
          writeBody(value, out, 0);
        }
        out.copyTo(target, offset);
      } catch (Refs.GraphTooDeep deep) {
        throw deep.explain(type, value);
      } finally {
        out.reset();
        out.release();
      }
    }

    private void checkWritable() {
      if (!current) {
        throw new IllegalStateException(
            "type id "
                + id
                + " is an older layout of "
                + type.getName()
                + ": objects are written with its current layout");
      }
    }

    @Override
    public Object decode(MemorySegment source, long offset, int length) {
      In in = In.acquire(source, offset, length);
      try {
        Object v = readBody(in, 0);
        if (in.pos != offset + length) {
          throw new CorruptValueException(
              "stored "
                  + type.getName()
                  + " (type id "
                  + id
                  + ") ends after "
                  + (in.pos - offset)
                  + " of its "
                  + length
                  + " bytes");
        }
        return v;
      } catch (CorruptValueException
          | IncompatibleSchemaException
          | UnknownTypeException
          | IllegalStateException e) {
        throw e; // IllegalStateException: a closed segment, which the pile reports itself
      } catch (RuntimeException e) {
        throw new CorruptValueException(
            "stored " + type.getName() + " (type id " + id + ") does not decode: " + e, e);
      } finally {
        in.release();
      }
    }

    @Override
    public String toString() {
      return getClass().getSimpleName() + "[" + id + " " + type.getName() + "]";
    }
  }

  /** A record or POJO layout, through its generated codec. */
  static final class StructEntry extends Entry {
    final StructModel model;
    private final StructCodec codec;
    private final ObjectTypes types;

    StructEntry(
        int id,
        TypeSchema schema,
        boolean current,
        StructModel model,
        StructCodec codec,
        ObjectTypes types) {
      super(id, model.type, schema, current);
      this.model = model;
      this.codec = codec;
      this.types = types;
    }

    @Override
    void writeBody(Object v, Out out, int depth) {
      codec.write(v, out, depth);
    }

    @Override
    Object readBody(In in, int depth) {
      return codec.read(in, depth);
    }

    @Override
    void skipBody(In in, int depth) {
      types.skipBody(id, in, depth, type.getName());
    }
  }

  /** An enum: {@code EnumBody --> Ordinal:varint} into this schema's constant list. */
  static final class EnumEntry extends Entry {
    private final Refs.EnumFieldCodec constants;

    EnumEntry(
        int id, Class<?> type, TypeSchema schema, boolean current, Refs.EnumFieldCodec constants) {
      super(id, type, schema, current);
      this.constants = constants;
    }

    @Override
    void writeBody(Object v, Out out, int depth) {
      out.putVarInt(((Enum<?>) v).ordinal());
    }

    @Override
    Object readBody(In in, int depth) {
      return constants.constant(in.readVarIntNonNegative("enum ordinal"));
    }

    @Override
    void skipBody(In in, int depth) {
      in.readVarInt();
    }
  }

  /**
   * A hand-written codec, where a field or an {@code any} value holds its type: {@code CustomBody
   * --> Length:varint, Bytes[Length]}.
   */
  static final class CustomEntry extends Entry {
    private final Codec<Object> codec;

    @SuppressWarnings("unchecked")
    CustomEntry(int id, Codec<?> codec) {
      super(id, codec.type(), null, true);
      this.codec = (Codec<Object>) codec;
    }

    private int checkedSize(Object v) {
      int n = codec.encodedSize(v);
      if (n < 0) {
        throw new IllegalStateException(
            "codec returned a negative size: codec=" + codec.getClass().getName() + " size=" + n);
      }
      return n;
    }

    @Override
    void writeBody(Object v, Out out, int depth) {
      int n = checkedSize(v);
      out.putVarInt(n);
      codec.encode(v, out.slice(n), 0); // bounded: the codec cannot touch its neighbours
      out.pos += n;
    }

    @Override
    Object readBody(In in, int depth) {
      int n = in.readVarIntNonNegative("value length");
      if (n > in.remaining()) {
        throw new CorruptValueException(
            "value length out of range: length=" + n + " remainingBytes=" + in.remaining());
      }
      Object v = codec.decode(in.seg, in.pos, n);
      in.pos += n;
      if (v != null && !type.isInstance(v)) {
        throw new CorruptValueException(
            "codec " + codec.getClass().getName() + " returned a " + v.getClass().getName());
      }
      return v;
    }

    @Override
    void skipBody(In in, int depth) {
      in.skipBytes(in.readVarIntNonNegative("value length"));
    }

    @Override
    public int encodedSize(Object value) {
      return codec.encodedSize(value);
    }

    @Override
    public void encode(Object value, MemorySegment target, long offset) {
      codec.encode(value, target, offset);
    }

    @Override
    public Object decode(MemorySegment source, long offset, int length) {
      return codec.decode(source, offset, length);
    }
  }
}
