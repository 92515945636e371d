package dev.cairn.codec.object;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.IncompatibleSchemaException;
import dev.cairn.codec.object.Desc.Prim;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Codecs of values whose class is chosen per value: user types ({@code ref:}), anything ({@code
 * any}), and enums.
 *
 * <h2>Security</h2>
 *
 * A type id or tag read from storage selects among the registry's entries (schemas of allowed
 * classes, hand-written codecs); an id that names none, or a class not assignable to the field's
 * declared type, is a {@link CorruptValueException}. Nothing here loads a class.
 *
 * <h2>Depth</h2>
 *
 * Each step into a nested object adds one to {@code depth}, and more than {@link
 * ObjectTypes#MAX_DEPTH} levels fail: on write with an {@link IllegalArgumentException} that names
 * the cycle's path if the graph has one (Cairn stores trees), on read with a {@link
 * CorruptValueException}. So neither a cyclic object nor corrupt bytes can overflow the stack.
 */
final class Refs {
  private Refs() {}

  /** Where a user type id sits among {@code any} tags: tag = typeId + USER_TAG_OFFSET. */
  static final int USER_TAG_OFFSET = 48;

  /** Tags of {@code any} values below the user range (see docs/FORMAT.md). */
  static final int TAG_NULL = 0;

  static final int TAG_STRING = 9;
  static final int TAG_COLLECTION = 37;
  static final int TAG_MAP = 38;
  static final int TAG_OPTIONAL = 39;
  static final int TAG_OBJECT_ARRAY = 40;
  static final int FIRST_USER_TAG = 64;

  /** Tags 1-8: the boxes, in {@link Prim} order; 10-17: primitive arrays. */
  static int boxTag(Prim p) {
    return 1 + p.ordinal();
  }

  static int primArrayTag(Prim p) {
    return 10 + p.ordinal();
  }

  static void checkDepth(int depth, String where, Object value) {
    if (depth > ObjectTypes.MAX_DEPTH) {
      throw new GraphTooDeep();
    }
  }

  /**
   * Thrown when writing nests too deeply; each {@code ref} and {@code any} level it unwinds through
   * adds itself (try/catch costs nothing until something is thrown), so the top level can tell a
   * cycle (an object met twice on the path) from a graph that is merely deep.
   */
  static final class GraphTooDeep extends IllegalArgumentException {
    private final java.util.List<Object> objects = new java.util.ArrayList<>();
    private final java.util.List<String> wheres = new java.util.ArrayList<>();

    GraphTooDeep() {
      super("object graph nested deeper than " + ObjectTypes.MAX_DEPTH + " levels");
    }

    GraphTooDeep at(String where, Object value) {
      objects.add(value);
      wheres.add(where);
      return this;
    }

    /** The exception to report: a cycle, with its path, or a graph too deep. */
    IllegalArgumentException explain(Class<?> top, Object root) {
      objects.add(root);
      wheres.add(top.getName());
      java.util.Collections.reverse(objects);
      java.util.Collections.reverse(wheres);
      java.util.IdentityHashMap<Object, Integer> seen = new java.util.IdentityHashMap<>();
      for (int i = 0; i < objects.size(); i++) {
        Integer first = seen.putIfAbsent(objects.get(i), i);
        if (first != null) {
          StringBuilder path = new StringBuilder();
          for (int k = first + 1; k <= i; k++) {
            path.append(k == first + 1 ? "" : " -> ").append(wheres.get(k));
          }
          return new IllegalArgumentException(
              "cyclic reference in a "
                  + top.getName()
                  + ": "
                  + path
                  + " leads back to the same "
                  + objects.get(i).getClass().getName()
                  + ". Cairn stores each value as a tree"
                  + " (shared references are stored as copies) and rejects cycles: break the"
                  + " cycle, or mark the back reference transient");
        }
      }
      return new IllegalArgumentException(
          "object graph of a "
              + top.getName()
              + " nested deeper than "
              + ObjectTypes.MAX_DEPTH
              + " levels (at "
              + (wheres.isEmpty() ? "?" : wheres.getLast())
              + "): too deep to"
              + " store; store the deeper parts separately and link them by pointer");
    }
  }

  static void checkReadDepth(int depth, String where) {
    if (depth > ObjectTypes.MAX_DEPTH) {
      throw new CorruptValueException(
          "stored value nested deeper than " + ObjectTypes.MAX_DEPTH + " levels at " + where);
    }
  }

  // ------------------------------------------------------------------------ ref

  /**
   * A field declared as a user type: {@code Ref --> 0 (null) | TypeId:varint, Body}. The declared
   * type may be a record or class (the id then also names the layout version) or an interface or
   * abstract class (the id picks the implementation).
   */
  static final class RefCodec extends ValueCodec {
    private final ObjectTypes types;
    private final Class<?> declared;
    private final String where;

    /**
     * The last entry written here: a one-element inline cache for the common monomorphic case.
     * Threads race on it harmlessly: an entry's fields are final, so any entry a thread sees is
     * whole, and a stale one only misses the cache.
     */
    private Entries.Entry last;

    RefCodec(ObjectTypes types, Class<?> declared, String where) {
      this.types = types;
      this.declared = declared;
      this.where = where;
    }

    private Entries.Entry entryFor(Object v) {
      Entries.Entry e = last;
      if (e != null && e.type == v.getClass()) {
        return e;
      }
      e = types.entryForWrite(v.getClass(), where);
      if (!declared.isInstance(v)) { // only heap pollution through unchecked generics
        throw new IllegalArgumentException(
            where + " holds a " + v.getClass().getName() + ", not a " + declared.getName());
      }
      last = e;
      return e;
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      checkDepth(depth + 1, where, v);
      Entries.Entry e = entryFor(v);
      out.putVarInt(e.id);
      try {
        e.writeBody(v, out, depth + 1);
      } catch (GraphTooDeep deep) {
        throw deep.at(where, v);
      }
    }

    @Override
    Object read(In in, int depth) {
      int id = in.readVarInt();
      if (id == 0) {
        return null;
      }
      checkReadDepth(depth + 1, where);
      Entries.Entry e = types.entryForRead(id, where);
      if (!declared.isAssignableFrom(e.type)) {
        throw new CorruptValueException(
            "stored type id "
                + id
                + " is a "
                + e.type.getName()
                + " where "
                + where
                + " needs a "
                + declared.getName());
      }
      return e.readBody(in, depth + 1);
    }

    @Override
    void skip(In in, int depth) {
      int id = in.readVarInt();
      if (id != 0) {
        checkReadDepth(depth + 1, where);
        types.skipBody(id, in, depth + 1, where);
      }
    }
  }

  // ------------------------------------------------------------------------ any

  /**
   * A field declared as {@code Object}, a JDK interface or a type variable: {@code Any --> Tag,
   * Body}, where the tag is 0 for null, a built-in kind (1-63), or a user type id + 48.
   */
  static final class AnyCodec extends ValueCodec {
    private final ObjectTypes types;
    private final Class<?> declared;
    private final String where;

    AnyCodec(ObjectTypes types, Class<?> declared, String where) {
      this.types = types;
      this.declared = declared;
      this.where = where;
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      checkDepth(depth + 1, where, v);
      try {
        int tag = types.builtInTag(v.getClass());
        if (tag > 0) {
          out.putVarInt(tag);
          types.builtInCodec(tag).write(v, out, depth + 1);
          return;
        }
        Entries.Entry e = types.entryForWrite(v.getClass(), where);
        out.putVarInt(e.id + USER_TAG_OFFSET);
        e.writeBody(v, out, depth + 1);
      } catch (GraphTooDeep deep) {
        throw deep.at(where, v);
      }
    }

    @Override
    Object read(In in, int depth) {
      int tag = in.readVarInt();
      if (tag == TAG_NULL) {
        return null;
      }
      checkReadDepth(depth + 1, where);
      Object v;
      if (tag < FIRST_USER_TAG) {
        ValueCodec c = tag > 0 ? types.builtInCodec(tag) : null;
        if (c == null) {
          throw new CorruptValueException("unknown value tag " + tag + " at " + where);
        }
        v = c.read(in, depth + 1);
      } else {
        Entries.Entry e = types.entryForRead(tag - USER_TAG_OFFSET, where);
        if (!declared.isAssignableFrom(e.type)) {
          throw new CorruptValueException(
              "stored type "
                  + e.type.getName()
                  + " where "
                  + where
                  + " needs a "
                  + declared.getName());
        }
        return e.readBody(in, depth + 1);
      }
      if (v != null && !declared.isInstance(v)) {
        throw new CorruptValueException(
            "stored "
                + v.getClass().getName()
                + " where "
                + where
                + " needs a "
                + declared.getName());
      }
      return v;
    }

    @Override
    void skip(In in, int depth) {
      int tag = in.readVarInt();
      if (tag == TAG_NULL) {
        return;
      }
      checkReadDepth(depth + 1, where);
      if (tag < FIRST_USER_TAG) {
        ValueCodec c = tag > 0 ? types.builtInCodec(tag) : null;
        if (c == null) {
          throw new CorruptValueException("unknown value tag " + tag + " at " + where);
        }
        c.skip(in, depth + 1);
      } else {
        types.skipBody(tag - USER_TAG_OFFSET, in, depth + 1, where);
      }
    }
  }

  /** The built-in kind a value of class {@code c} is stored as in an {@code any} field, or 0. */
  static int builtInTagOf(Class<?> c) {
    Prim box = Prim.ofBox(c);
    if (box != null) {
      return boxTag(box);
    }
    if (c == String.class) {
      return TAG_STRING;
    }
    if (c.isArray()) {
      Prim p = Prim.ofPrimitive(c.getComponentType());
      if (p != null) {
        return primArrayTag(p);
      }
      return c == Object[].class ? TAG_OBJECT_ARRAY : 0;
    }
    JdkValueType k = JdkValueType.ofRuntime(c);
    if (k != null) {
      return k.tag();
    }
    if (Collection.class.isAssignableFrom(c)) {
      return TAG_COLLECTION;
    }
    if (Map.class.isAssignableFrom(c)) {
      return TAG_MAP;
    }
    if (c == Optional.class) {
      return TAG_OPTIONAL;
    }
    return 0;
  }

  // ------------------------------------------------------------------------ enums

  /**
   * A field declared as an enum: {@code Enum --> Ordinal+1:varint (0 null)}, the ordinal into the
   * constant list of the enum schema the field's descriptor pins ({@code enum#id}). Reading an
   * older schema maps its ordinals by constant name (or {@code @CairnName} alias).
   */
  static final class EnumFieldCodec extends ValueCodec {
    /** Current constants by ordinal, for writing; null for a read-only codec. */
    private final Enum<?>[] constants;

    /** Stored ordinal to constant; a null slot is a constant that no longer exists. */
    private final Enum<?>[] byStoredOrdinal;

    private final String[] storedNames;
    private final String where;

    EnumFieldCodec(
        Enum<?>[] constants, Enum<?>[] byStoredOrdinal, String[] storedNames, String where) {
      this.constants = constants;
      this.byStoredOrdinal = byStoredOrdinal;
      this.storedNames = storedNames;
      this.where = where;
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (constants == null) {
        throw new IllegalStateException("read-only enum codec at " + where);
      }
      out.putVarInt(v == null ? 0 : ((Enum<?>) v).ordinal() + 1);
    }

    @Override
    Object read(In in, int depth) {
      int raw = in.readVarInt();
      return raw == 0 ? null : constant(raw - 1);
    }

    /** The current constant for a stored ordinal. */
    Enum<?> constant(int ordinal) {
      if (ordinal < 0 || ordinal >= byStoredOrdinal.length) {
        throw new CorruptValueException(
            "enum ordinal out of range at "
                + where
                + ": "
                + ordinal
                + " of "
                + byStoredOrdinal.length);
      }
      Enum<?> e = byStoredOrdinal[ordinal];
      if (e == null) {
        throw new IncompatibleSchemaException(
            "stored enum constant "
                + storedNames[ordinal]
                + " no longer exists in "
                + where
                + ": add it back, or name its replacement with"
                + " @CairnName(aliases = \""
                + storedNames[ordinal]
                + "\")");
      }
      return e;
    }

    @Override
    void skip(In in, int depth) {
      in.readVarInt();
    }
  }
}
