package dev.cairn.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The schema of one stored object layout: which type, and its fields in stored order with their
 * declared types. Stored objects carry no field names: an object's type id names its schema, and
 * the schema says what the bytes mean. A type gets a new schema (and id) whenever its fields
 * change; the old one stays, so older objects can still be read.
 *
 * <p>{@link #toBytes()} is the durable form a persistent {@link TypeCatalog} keeps (see
 * docs/FORMAT.md, "Type schema"):
 *
 * <pre>
 * TypeSchema --> Version:u8 (=1), TypeId:varint, Kind:u8, TypeName:Str,
 *                FieldCount:varint, (FieldName:Str, FieldType:Str)^FieldCount,
 *                ConstantCount:varint, (ConstantName:Str)^ConstantCount
 * Kind       --> 1 record | 2 class (a POJO) | 3 enum
 * Str        --> ByteLength:varint, UTF-8 bytes
 * </pre>
 *
 * <p>A field type is a descriptor such as {@code int}, {@code String}, {@code LocalDate}, {@code
 * coll<ref:com.acme.Address>}, {@code map<String,Integer>}, {@code enum#17} or {@code any}; the
 * grammar is in docs/FORMAT.md.
 *
 * @param typeId the id stored objects of this layout carry
 * @param typeName the stored type name ({@link CairnName} or the binary class name)
 * @param kind record, class or enum
 * @param fields the fields in stored order (empty for an enum)
 * @param constants an enum's constant names, by ordinal (empty otherwise)
 */
public record TypeSchema(
    int typeId, String typeName, Kind kind, List<Field> fields, List<String> constants) {

  /** Format version of {@link #toBytes()}. */
  public static final int VERSION_CURRENT = 1;

  /**
   * The lowest id a schema may have; ids below it belong to the built-in codecs of the primitive
   * boxes. {@link CodecRegistry#FIRST_USER_TYPE_ID} is this value.
   */
  public static final int FIRST_TYPE_ID = 16;

  /** The highest type id a stored value can carry. {@link CodecRegistry#MAX_TYPE_ID} is this. */
  public static final int MAX_TYPE_ID = 16383;

  private static final int MAX_STRING_BYTES = 1 << 16;

  /** What a schema describes. */
  public enum Kind {
    RECORD(1),
    CLASS(2),
    ENUM(3);

    private final int code;

    Kind(int code) {
      this.code = code;
    }

    /** The byte that stands for this kind in {@link TypeSchema#toBytes()}. */
    public int code() {
      return code;
    }
  }

  /**
   * One stored field.
   *
   * @param name the stored name
   * @param type the declared type's descriptor
   */
  public record Field(String name, String type) {
    public Field {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }

  public TypeSchema {
    if (typeId < FIRST_TYPE_ID || typeId > MAX_TYPE_ID) {
      throw new IllegalArgumentException(
          "schema type id out of range ["
              + FIRST_TYPE_ID
              + ", "
              + MAX_TYPE_ID
              + "]: typeId="
              + typeId);
    }
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(kind, "kind");
    fields = List.copyOf(fields);
    constants = List.copyOf(constants);
    if (kind == Kind.ENUM ? !fields.isEmpty() : !constants.isEmpty()) {
      throw new IllegalArgumentException(
          "an enum schema has constants and no fields, others the reverse: " + typeName);
    }
  }

  /** Whether {@code other} describes the same layout, whatever its id. */
  public boolean sameLayout(TypeSchema other) {
    return typeName.equals(other.typeName)
        && kind == other.kind
        && fields.equals(other.fields)
        && constants.equals(other.constants);
  }

  /** The durable form. */
  public byte[] toBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    out.write(VERSION_CURRENT);
    putVarInt(out, typeId);
    out.write(kind.code);
    putString(out, typeName);
    putVarInt(out, fields.size());
    for (Field f : fields) {
      putString(out, f.name);
      putString(out, f.type);
    }
    putVarInt(out, constants.size());
    for (String c : constants) {
      putString(out, c);
    }
    return out.toByteArray();
  }

  /**
   * Reads the durable form.
   *
   * @throws CorruptValueException if the bytes are not a schema of a supported version
   */
  public static TypeSchema fromBytes(byte[] bytes) {
    Reader r = new Reader(bytes);
    int version = r.u8();
    if (version != VERSION_CURRENT) {
      throw new CorruptValueException(
          "type schema format version "
              + version
              + " not supported (supported: "
              + VERSION_CURRENT
              + ")");
    }
    int typeId = r.varInt();
    int code = r.u8();
    Kind kind = null;
    for (Kind k : Kind.values()) {
      if (k.code == code) {
        kind = k;
      }
    }
    if (kind == null) {
      throw new CorruptValueException("unknown type schema kind " + code);
    }
    String name = r.string();
    int fieldCount = r.count();
    List<Field> fields = new ArrayList<>(Math.min(fieldCount, 256));
    for (int i = 0; i < fieldCount; i++) {
      fields.add(new Field(r.string(), r.string()));
    }
    int constantCount = r.count();
    List<String> constants = new ArrayList<>(Math.min(constantCount, 256));
    for (int i = 0; i < constantCount; i++) {
      constants.add(r.string());
    }
    if (r.at != bytes.length) {
      throw new CorruptValueException("trailing bytes after type schema of " + name);
    }
    try {
      return new TypeSchema(typeId, name, kind, fields, constants);
    } catch (IllegalArgumentException e) {
      throw new CorruptValueException("invalid type schema: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(kind.name().toLowerCase(java.util.Locale.ROOT))
        .append(' ')
        .append(typeName)
        .append(" #")
        .append(typeId)
        .append(kind == Kind.ENUM ? " {" : " (");
    List<?> items = kind == Kind.ENUM ? constants : fields;
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      Object item = items.get(i);
      sb.append(item instanceof Field f ? f.type + " " + f.name : item);
    }
    return sb.append(kind == Kind.ENUM ? "}" : ")").toString();
  }

  private static void putVarInt(ByteArrayOutputStream out, int v) {
    while ((v & ~0x7F) != 0) {
      out.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  private static void putString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putVarInt(out, b.length);
    out.write(b, 0, b.length);
  }

  /** A bounds-checked reader of the durable form. */
  private static final class Reader {
    private final byte[] bytes;
    private int at;

    Reader(byte[] bytes) {
      this.bytes = bytes;
    }

    int u8() {
      if (at >= bytes.length) {
        throw new CorruptValueException("type schema truncated at byte " + at);
      }
      return bytes[at++] & 0xFF;
    }

    int varInt() {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = u8();
        v |= (b & 0x7F) << shift;
        if (b < 0x80) {
          if (v < 0) {
            break;
          }
          return v;
        }
      }
      throw new CorruptValueException("bad varint in type schema at byte " + at);
    }

    int count() {
      int n = varInt();
      if (n > bytes.length - at) {
        throw new CorruptValueException("type schema count out of range: " + n);
      }
      return n;
    }

    String string() {
      int n = varInt();
      if (n > bytes.length - at || n > MAX_STRING_BYTES) {
        throw new CorruptValueException("type schema string length out of range: " + n);
      }
      String s = new String(bytes, at, n, StandardCharsets.UTF_8);
      at += n;
      return s;
    }
  }
}
