package dev.cairn.codec.object;

import dev.cairn.codec.IncompatibleSchemaException;
import dev.cairn.codec.TypeSchema;
import dev.cairn.codec.UnknownTypeException;
import dev.cairn.codec.object.Desc.AnyDesc;
import dev.cairn.codec.object.Desc.ArrayDesc;
import dev.cairn.codec.object.Desc.BoxDesc;
import dev.cairn.codec.object.Desc.CollectionDesc;
import dev.cairn.codec.object.Desc.EnumDesc;
import dev.cairn.codec.object.Desc.MapDesc;
import dev.cairn.codec.object.Desc.OptionalDesc;
import dev.cairn.codec.object.Desc.Prim;
import dev.cairn.codec.object.Desc.PrimArrayDesc;
import dev.cairn.codec.object.Desc.PrimDesc;
import dev.cairn.codec.object.Desc.RefDesc;
import dev.cairn.codec.object.Desc.StringDesc;
import dev.cairn.codec.object.Desc.ValueDesc;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a field's declared Java type to its {@link Desc} (what the schema records) and to the {@link
 * ValueCodec} that writes it; builds readers of an older descriptor into a current type (schema
 * evolution), and skippers that need no class at all.
 *
 * <p>Classification, in order: primitive; a class with a registered codec ({@code ref}, so the
 * codec takes precedence everywhere); box; {@code String}; arrays; the JDK value types; {@code
 * Optional}; collections and maps Cairn can build; enums; other non-JDK classes ({@code ref}); and
 * {@code Object}, JDK interfaces, abstract JDK classes and type variables ({@code any}). Any other
 * JDK class is refused with a message naming the field.
 */
final class FieldTypes {
  private final ObjectTypes types;

  FieldTypes(ObjectTypes types) {
    this.types = types;
  }

  static Class<?> raw(Type t) {
    return switch (t) {
      case Class<?> c -> c;
      case ParameterizedType p -> raw(p.getRawType());
      case GenericArrayType g ->
          java.lang.reflect.Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
      case WildcardType w -> raw(w.getUpperBounds()[0]);
      case TypeVariable<?> v -> raw(v.getBounds()[0]);
      default -> Object.class;
    };
  }

  /** The {@code i}-th type argument of {@code t} seen as a {@code generic}, or Object. */
  private static Type argument(Type t, Class<?> generic, int i) {
    if (t instanceof ParameterizedType p && raw(p) == generic) {
      return p.getActualTypeArguments()[i];
    }
    if (t instanceof ParameterizedType p) {
      // a declared ArrayList<E> or HashMap<K, V>: same parameters as the interface
      Type[] args = p.getActualTypeArguments();
      if (args.length == generic.getTypeParameters().length) {
        return args[i];
      }
    }
    return Object.class;
  }

  private static Type component(Type t) {
    return t instanceof GenericArrayType g
        ? g.getGenericComponentType()
        : raw(t).getComponentType();
  }

  // ------------------------------------------------------------------------ classification

  Desc classify(Type type, String where) {
    if (type instanceof TypeVariable<?> || type instanceof WildcardType) {
      Class<?> bound = raw(type);
      return bound == Object.class || bound.isInterface() ? Desc.ANY : classify(bound, where);
    }
    Class<?> raw = raw(type);
    if (raw.isPrimitive()) {
      if (raw == void.class) {
        throw unsupported(raw, where);
      }
      return new PrimDesc(Prim.ofPrimitive(raw));
    }
    if (types.explicitId(raw) >= 0) {
      return new RefDesc(raw.getName());
    }
    Prim box = Prim.ofBox(raw);
    if (box != null) {
      return new BoxDesc(box);
    }
    if (raw == String.class) {
      return Desc.STRING;
    }
    if (raw.isArray()) {
      Prim p = Prim.ofPrimitive(raw.getComponentType());
      return p != null ? new PrimArrayDesc(p) : new ArrayDesc(classify(component(type), where));
    }
    JdkValueType kind = JdkValueType.ofDeclared(raw);
    if (kind != null) {
      return new ValueDesc(kind);
    }
    if (raw == Optional.class) {
      return new OptionalDesc(classify(argument(type, Optional.class, 0), where + "<value>"));
    }
    if (Containers.isCollectionType(raw)) {
      return new CollectionDesc(classify(argument(type, Collection.class, 0), where + "<element>"));
    }
    if (Containers.isMapType(raw)) {
      return new MapDesc(
          classify(argument(type, Map.class, 0), where + "<key>"),
          classify(argument(type, Map.class, 1), where + "<value>"));
    }
    if (raw.isEnum()) {
      types.addClosure(raw);
      return new EnumDesc(types.entryForWrite(raw, where).id);
    }
    if (!ObjectTypes.isJdk(raw)) {
      types.addClosure(raw);
      return new RefDesc(StructModel.storedName(raw));
    }
    if (raw == Object.class || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      return Desc.ANY;
    }
    throw unsupported(raw, where);
  }

  private static IllegalArgumentException unsupported(Class<?> raw, String where) {
    return new IllegalArgumentException(
        "cannot store field "
            + where
            + " of type "
            + raw.getName()
            + ": Cairn stores records,"
            + " POJOs, enums, primitives and boxes, String, arrays, List/Set/Map/Collection,"
            + " Optional, UUID, BigDecimal/BigInteger and the java.time value types; register a"
            + " codec for "
            + raw.getSimpleName()
            + ", or mark the field transient");
  }

  // ------------------------------------------------------------------------ natural codecs

  /** The codec that writes and reads {@code type}, whose descriptor is {@code desc}. */
  ValueCodec codec(Desc desc, Type type, String where) {
    Class<?> raw = raw(type);
    return switch (desc) {
      case PrimDesc(Prim p) -> ValueCodecs.prim(p);
      case BoxDesc(Prim p) -> ValueCodecs.box(p);
      case StringDesc s -> ValueCodecs.STRING;
      case ValueDesc(JdkValueType k) -> ValueCodecs.value(k);
      case PrimArrayDesc(Prim p) -> ValueCodecs.primArray(p);
      case ArrayDesc(Desc e) ->
          new Containers.ArrayCodec(
              codec(e, component(type), where + "[]"), raw.getComponentType());
      case CollectionDesc(Desc e) -> {
        Type et = argument(type, Collection.class, 0);
        yield new Containers.CollectionCodec(codec(e, et, where + "<element>"), raw, where);
      }
      case MapDesc(Desc k, Desc v) ->
          new Containers.MapCodec(
              codec(k, argument(type, Map.class, 0), where + "<key>"),
              codec(v, argument(type, Map.class, 1), where + "<value>"),
              raw,
              where);
      case OptionalDesc(Desc e) ->
          new Containers.OptionalCodec(codec(e, argument(type, Optional.class, 0), where));
      case EnumDesc(int id) -> types.enumCodec(types.enumSchema(id, where), raw, where);
      case RefDesc r -> new Refs.RefCodec(types, raw, where);
      case AnyDesc a -> new Refs.AnyCodec(types, raw, where);
    };
  }

  // ------------------------------------------------------------------------ evolution

  /**
   * A codec that reads values stored as {@code stored} into a field now declared {@code target}.
   *
   * @param what the stored field, for messages
   * @throws IncompatibleSchemaException if the stored values cannot become {@code target}s
   */
  ValueCodec reader(Desc stored, Type target, String where, String what) {
    Class<?> raw = raw(target);
    Desc natural;
    try {
      natural = classify(target, where);
    } catch (IllegalArgumentException | UnknownTypeException e) {
      throw incompatible(stored, target, where, what);
    }
    if (stored.equals(natural)) {
      return codec(natural, target, where);
    }
    Class<?> holder = raw.isPrimitive() ? Prim.ofPrimitive(raw).box : raw;
    switch (stored) {
      case PrimDesc(Prim p) -> {
        return widening(ValueCodecs.prim(p), p, holder, stored, target, where, what);
      }
      case BoxDesc(Prim p) -> {
        return widening(ValueCodecs.box(p), p, holder, stored, target, where, what);
      }
      case StringDesc s -> {
        return check(
            holder.isAssignableFrom(String.class), ValueCodecs.STRING, stored, target, where, what);
      }
      case ValueDesc(JdkValueType k) -> {
        return check(
            holder.isAssignableFrom(k.type()), ValueCodecs.value(k), stored, target, where, what);
      }
      case PrimArrayDesc(Prim p) -> {
        Class<?> array = java.lang.reflect.Array.newInstance(p.primitive, 0).getClass();
        return check(
            holder.isAssignableFrom(array), ValueCodecs.primArray(p), stored, target, where, what);
      }
      case ArrayDesc(Desc e) -> {
        if (raw.isArray() && !raw.getComponentType().isPrimitive()) {
          return new Containers.ArrayCodec(
              reader(e, component(target), where + "[]", what), raw.getComponentType());
        }
        if (raw == Object.class) {
          return new Containers.ArrayCodec(
              reader(e, Object.class, where + "[]", what), Object.class);
        }
        throw incompatible(stored, target, where, what);
      }
      case CollectionDesc(Desc e) -> {
        if (natural instanceof CollectionDesc || raw == Object.class || raw == Iterable.class) {
          Type et =
              natural instanceof CollectionDesc
                  ? argument(target, Collection.class, 0)
                  : Object.class;
          return new Containers.CollectionCodec(
              reader(e, et, where + "<element>", what), raw, where);
        }
        throw incompatible(stored, target, where, what);
      }
      case MapDesc(Desc k, Desc v) -> {
        if (natural instanceof MapDesc || raw == Object.class) {
          boolean typed = natural instanceof MapDesc;
          return new Containers.MapCodec(
              reader(
                  k, typed ? argument(target, Map.class, 0) : Object.class, where + "<key>", what),
              reader(
                  v,
                  typed ? argument(target, Map.class, 1) : Object.class,
                  where + "<value>",
                  what),
              raw,
              where);
        }
        throw incompatible(stored, target, where, what);
      }
      case OptionalDesc(Desc e) -> {
        if (natural instanceof OptionalDesc) {
          return new Containers.OptionalCodec(
              reader(e, argument(target, Optional.class, 0), where, what));
        }
        throw incompatible(stored, target, where, what);
      }
      case EnumDesc(int id) -> {
        TypeSchema schema = types.enumSchema(id, where);
        if (raw.isEnum()) {
          return types.enumCodec(schema, raw, where);
        }
        throw incompatible(stored, target, where, what);
      }
      case RefDesc r -> {
        if (natural instanceof RefDesc || natural instanceof AnyDesc) {
          return new Refs.RefCodec(types, holder, where);
        }
        throw incompatible(stored, target, where, what);
      }
      case AnyDesc a -> {
        return new Refs.AnyCodec(types, holder, where);
      }
    }
  }

  private static ValueCodec widening(
      ValueCodec source,
      Prim from,
      Class<?> holder,
      Desc stored,
      Type target,
      String where,
      String what) {
    Prim to = Prim.ofBox(holder);
    if (to != null && from.widensTo(to)) {
      return new ValueCodec.ReadOnly() {
        @Override
        Object read(In in, int depth) {
          return ValueCodecs.widen(source.read(in, depth), from, to);
        }

        @Override
        void skip(In in, int depth) {
          source.skip(in, depth);
        }
      };
    }
    return check(holder.isAssignableFrom(from.box), source, stored, target, where, what);
  }

  private static ValueCodec check(
      boolean ok, ValueCodec codec, Desc stored, Type target, String where, String what) {
    if (!ok) {
      throw incompatible(stored, target, where, what);
    }
    return codec;
  }

  private static IncompatibleSchemaException incompatible(
      Desc stored, Type target, String where, String what) {
    return new IncompatibleSchemaException(
        what
            + " holds "
            + stored
            + " values, which field "
            + where
            + " (now "
            + target.getTypeName()
            + ") cannot take: an incompatible change; keep a field of the"
            + " old type to read them, or store the objects again");
  }

  // ------------------------------------------------------------------------ skipping

  /** A codec that can skip (never build) values stored as {@code desc}; needs no class. */
  ValueCodec skipper(Desc desc, String where) {
    return switch (desc) {
      case PrimDesc(Prim p) -> ValueCodecs.prim(p);
      case BoxDesc(Prim p) -> ValueCodecs.box(p);
      case StringDesc s -> ValueCodecs.STRING;
      case ValueDesc(JdkValueType k) -> ValueCodecs.value(k);
      case PrimArrayDesc(Prim p) -> ValueCodecs.primArray(p);
      case ArrayDesc(Desc e) -> new Containers.ArrayCodec(skipper(e, where), Object.class);
      case CollectionDesc(Desc e) ->
          new Containers.CollectionCodec(skipper(e, where), Object.class, where);
      case MapDesc(Desc k, Desc v) ->
          new Containers.MapCodec(skipper(k, where), skipper(v, where), Object.class, where);
      case OptionalDesc(Desc e) -> new Containers.OptionalCodec(skipper(e, where));
      case EnumDesc e -> ValueCodecs.prim(Prim.INT); // an unsigned varint: skipped alike
      case RefDesc r -> new Refs.RefCodec(types, Object.class, where);
      case AnyDesc a -> new Refs.AnyCodec(types, Object.class, where);
    };
  }
}
