package dev.cairn.codec.object;

import dev.cairn.codec.CorruptValueException;
import java.util.Locale;

/**
 * The declared type of a field as the schema records it, which fixes the field's wire layout.
 *
 * <p>Every descriptor has a canonical text form (its {@code toString()}), which is what a {@link
 * dev.cairn.codec.TypeSchema.Field} carries and what {@link #parse(String)} reads back:
 *
 * <pre>
 * Desc --> boolean | byte | short | char | int | long | float | double       (primitive, never null)
 *        | Boolean | Byte | Short | Character | Integer | Long | Float | Double  (box, nullable)
 *        | String | ValueName                      (a JDK value type, see {@link JdkValueType})
 *        | Prim[]                                  (a primitive array, e.g. int[])
 *        | array&lt;Desc&gt; | coll&lt;Desc&gt; | map&lt;Desc,Desc&gt; | optional&lt;Desc&gt;
 *        | enum#SchemaId                           (an enum, ordinals per that enum schema)
 *        | ref:TypeName                            (a user type: record, POJO, enum, custom codec)
 *        | any                                     (anything allowed: Object, JDK interfaces)
 * </pre>
 */
sealed interface Desc {

  /** The eight primitive kinds, with their wire width ({@code 0}: a zig-zag varint). */
  enum Prim {
    BOOLEAN("boolean", "Boolean", boolean.class, Boolean.class, 1),
    BYTE("byte", "Byte", byte.class, Byte.class, 1),
    SHORT("short", "Short", short.class, Short.class, 2),
    CHAR("char", "Character", char.class, Character.class, 2),
    INT("int", "Integer", int.class, Integer.class, 0),
    LONG("long", "Long", long.class, Long.class, 0),
    FLOAT("float", "Float", float.class, Float.class, 4),
    DOUBLE("double", "Double", double.class, Double.class, 8);

    final String primName;
    final String boxName;
    final Class<?> primitive;
    final Class<?> box;

    /** Fixed wire width in bytes, or 0 for a zig-zag varint. */
    final int width;

    Prim(String primName, String boxName, Class<?> primitive, Class<?> box, int width) {
      this.primName = primName;
      this.boxName = boxName;
      this.primitive = primitive;
      this.box = box;
      this.width = width;
    }

    static Prim ofPrimitive(Class<?> c) {
      for (Prim p : values()) {
        if (p.primitive == c) {
          return p;
        }
      }
      return null;
    }

    static Prim ofBox(Class<?> c) {
      for (Prim p : values()) {
        if (p.box == c) {
          return p;
        }
      }
      return null;
    }

    /** Whether a stored {@code this} can be read losslessly into a {@code target}. */
    boolean widensTo(Prim target) {
      if (this == target) {
        return true;
      }
      return switch (this) {
        case BYTE ->
            target == SHORT
                || target == INT
                || target == LONG
                || target == FLOAT
                || target == DOUBLE;
        case SHORT, CHAR -> target == INT || target == LONG || target == FLOAT || target == DOUBLE;
        case INT -> target == LONG || target == DOUBLE;
        case FLOAT -> target == DOUBLE;
        default -> false;
      };
    }
  }

  /** A primitive field: never null, no marker. */
  record PrimDesc(Prim prim) implements Desc {
    @Override
    public String toString() {
      return prim.primName;
    }
  }

  /** A box field: a presence byte, then the primitive. */
  record BoxDesc(Prim prim) implements Desc {
    @Override
    public String toString() {
      return prim.boxName;
    }
  }

  /** A {@code String}. */
  record StringDesc() implements Desc {
    @Override
    public String toString() {
      return "String";
    }
  }

  /** One of the JDK value types Cairn encodes natively. */
  record ValueDesc(JdkValueType kind) implements Desc {
    @Override
    public String toString() {
      return kind.typeName();
    }
  }

  /** A primitive array, stored as a length and fixed-width little-endian elements. */
  record PrimArrayDesc(Prim prim) implements Desc {
    @Override
    public String toString() {
      return prim.primName + "[]";
    }
  }

  /** An array of references. */
  record ArrayDesc(Desc element) implements Desc {
    @Override
    public String toString() {
      return "array<" + element + ">";
    }
  }

  /** A {@code Collection}: list or set, its concrete flavour stored per value. */
  record CollectionDesc(Desc element) implements Desc {
    @Override
    public String toString() {
      return "coll<" + element + ">";
    }
  }

  /** A {@code Map}, its concrete flavour stored per value. */
  record MapDesc(Desc key, Desc value) implements Desc {
    @Override
    public String toString() {
      return "map<" + key + "," + value + ">";
    }
  }

  /** An {@code Optional}. */
  record OptionalDesc(Desc element) implements Desc {
    @Override
    public String toString() {
      return "optional<" + element + ">";
    }
  }

  /** An enum whose constants the named enum schema lists: the ordinal refers to that list. */
  record EnumDesc(int schemaId) implements Desc {
    @Override
    public String toString() {
      return "enum#" + schemaId;
    }
  }

  /** A user type: each value carries its type id (or 0 for null), then its body. */
  record RefDesc(String typeName) implements Desc {
    @Override
    public String toString() {
      return "ref:" + typeName;
    }
  }

  /** Anything: each value carries a tag (0 null, a built-in kind, or a user type id). */
  record AnyDesc() implements Desc {
    @Override
    public String toString() {
      return "any";
    }
  }

  StringDesc STRING = new StringDesc();
  AnyDesc ANY = new AnyDesc();

  /**
   * Parses the canonical text form.
   *
   * @throws CorruptValueException if {@code text} is not a descriptor
   */
  static Desc parse(String text) {
    Parser parser = new Parser(text);
    Desc desc = parser.desc(0);
    if (parser.at != text.length()) {
      throw parser.error("trailing characters");
    }
    return desc;
  }

  /** Recursive-descent parser of the canonical form, bounded in depth. */
  final class Parser {
    private static final int MAX_DEPTH = 64;
    private final String text;
    private int at;

    private Parser(String text) {
      this.text = text;
    }

    private Desc desc(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nested too deeply");
      }
      if (text.startsWith("array<", at)) {
        at += 6;
        Desc e = desc(depth + 1);
        expect('>');
        return new ArrayDesc(e);
      }
      if (text.startsWith("coll<", at)) {
        at += 5;
        Desc e = desc(depth + 1);
        expect('>');
        return new CollectionDesc(e);
      }
      if (text.startsWith("optional<", at)) {
        at += 9;
        Desc e = desc(depth + 1);
        expect('>');
        return new OptionalDesc(e);
      }
      if (text.startsWith("map<", at)) {
        at += 4;
        Desc k = desc(depth + 1);
        expect(',');
        Desc v = desc(depth + 1);
        expect('>');
        return new MapDesc(k, v);
      }
      if (text.startsWith("ref:", at)) {
        at += 4;
        int start = at;
        while (at < text.length() && !isDelimiter(text.charAt(at))) {
          at++;
        }
        if (at == start) {
          throw error("empty type name");
        }
        return new RefDesc(text.substring(start, at));
      }
      if (text.startsWith("enum#", at)) {
        at += 5;
        int start = at;
        while (at < text.length() && Character.isDigit(text.charAt(at)) && at - start < 6) {
          at++;
        }
        if (at == start) {
          throw error("enum without schema id");
        }
        return new EnumDesc(Integer.parseInt(text, start, at, 10));
      }
      int start = at;
      while (at < text.length() && !isDelimiter(text.charAt(at))) {
        at++;
      }
      String word = text.substring(start, at);
      if (word.equals("any")) {
        return ANY;
      }
      if (word.equals("String")) {
        return STRING;
      }
      for (Prim p : Prim.values()) {
        if (word.equals(p.primName)) {
          return new PrimDesc(p);
        }
        if (word.equals(p.boxName)) {
          return new BoxDesc(p);
        }
        if (word.equals(p.primName + "[]")) {
          return new PrimArrayDesc(p);
        }
      }
      JdkValueType kind = JdkValueType.byName(word);
      if (kind != null) {
        return new ValueDesc(kind);
      }
      at = start;
      throw error("unknown type '" + word + "'");
    }

    private static boolean isDelimiter(char c) {
      return c == '<' || c == '>' || c == ',';
    }

    private void expect(char c) {
      if (at >= text.length() || text.charAt(at) != c) {
        throw error("expected '" + c + "'");
      }
      at++;
    }

    private CorruptValueException error(String what) {
      return new CorruptValueException(
          String.format(
              Locale.ROOT, "bad field type descriptor: %s at %d in \"%s\"", what, at, text));
    }
  }
}
