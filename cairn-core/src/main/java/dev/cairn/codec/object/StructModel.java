package dev.cairn.codec.object;

import dev.cairn.codec.CairnName;
import dev.cairn.codec.TypeSchema;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Cairn knows about a record or POJO class: its stored name, its fields in stored order, and
 * method handles that read each field and build an instance. Built once per class, under the
 * registry's lock; the handles end up as constants in the generated codec.
 *
 * <h2>Access</h2>
 *
 * Handles come from {@link MethodHandles#privateLookupIn}, which needs the class's package open to
 * Cairn: always true on the class path (the unnamed module opens everything); a named module needs
 * {@code opens com.acme.model to dev.cairn.core;}. A public record in an exported package works
 * without that, through its public canonical constructor and accessors.
 *
 * <h2>Construction</h2>
 *
 * <ol>
 *   <li>A record: its canonical constructor, so its invariants are checked as usual.
 *   <li>A POJO without final fields and with a no-argument constructor (of any access): that
 *       constructor, then each stored field is set. Fields missing from an older object keep the
 *       constructor's value.
 *   <li>Otherwise a "canonical" constructor taking every field: matched by parameter name when the
 *       class was compiled with {@code -parameters}, else by parameter types in field order, which
 *       is accepted only if no two fields share a type (so it cannot swap fields).
 *   <li>Otherwise the no-argument constructor, with final fields set through deep reflection.
 * </ol>
 */
final class StructModel {

  /** A method handle takes at most 255 argument slots; long and double take two. */
  private static final int MAX_CONSTRUCTOR_SLOTS = 254;

  final Class<?> type;
  final TypeSchema.Kind kind;
  final String typeName;
  final List<String> typeAliases;
  final List<FieldModel> fields;

  /** Builds an instance from all fields, in {@link #fields} order: {@code (erased...)Object}. */
  final MethodHandle constructor;

  /** {@code ()Object}, when {@link #constructor} is null. */
  final MethodHandle noArgConstructor;

  /** One stored field. */
  static final class FieldModel {
    final String name;
    final List<String> aliases;
    final Type genericType;
    final Class<?> raw;

    /** {@code (Object)erased}. */
    final MethodHandle getter;

    /** {@code (Object, erased)void}, or null when the class is built by a constructor. */
    MethodHandle setter;

    /** {@code com.acme.Person.name}, for messages. */
    final String where;

    FieldModel(
        String name,
        List<String> aliases,
        Type genericType,
        Class<?> raw,
        MethodHandle getter,
        String where) {
      this.name = name;
      this.aliases = aliases;
      this.genericType = genericType;
      this.raw = raw;
      this.getter = getter;
      this.where = where;
    }

    boolean answersTo(String storedName) {
      return name.equals(storedName) || aliases.contains(storedName);
    }

    @Override
    public String toString() {
      return where;
    }
  }

  private StructModel(
      Class<?> type,
      TypeSchema.Kind kind,
      List<FieldModel> fields,
      MethodHandle constructor,
      MethodHandle noArgConstructor) {
    this.type = type;
    this.kind = kind;
    this.typeName = storedName(type);
    this.typeAliases = aliases(type.getAnnotation(CairnName.class));
    this.fields = fields;
    this.constructor = constructor;
    this.noArgConstructor = noArgConstructor;
  }

  /** Erasure used in generated descriptors: the primitive itself, else Object. */
  static Class<?> erase(Class<?> c) {
    return c.isPrimitive() ? c : Object.class;
  }

  /** The stored name of a type: its {@link CairnName} or its binary name. */
  static String storedName(Class<?> type) {
    CairnName n = type.getAnnotation(CairnName.class);
    return n != null && !n.value().isEmpty()
        ? checkName(n.value(), type.getName())
        : type.getName();
  }

  static List<String> aliases(CairnName n) {
    if (n == null) {
      return List.of();
    }
    for (String a : n.aliases()) {
      checkName(a, "alias");
    }
    return List.of(n.aliases());
  }

  static String checkName(String name, String of) {
    if (name.isEmpty()
        || name.chars()
            .anyMatch(c -> c == '<' || c == '>' || c == ',' || Character.isWhitespace(c))) {
      throw new IllegalArgumentException(
          "@CairnName must be non-empty without '<', '>', ',' or whitespace: \""
              + name
              + "\" on "
              + of);
    }
    return name;
  }

  /**
   * Introspects a record or POJO class.
   *
   * @throws IllegalArgumentException naming the class and what to change, if it cannot be stored
   */
  static StructModel of(Class<?> type) {
    if (type.isInterface()
        || Modifier.isAbstract(type.getModifiers())
        || type.isArray()
        || type.isPrimitive()
        || type.isHidden()
        || type.isAnonymousClass()) {
      throw new IllegalArgumentException(
          "not a storable class: "
              + type.getName()
              + " (an object type must be a record or a concrete class; interfaces and abstract"
              + " classes are stored through their implementations)");
    }
    MethodHandles.Lookup lookup = lookupIn(type);
    return type.isRecord() ? ofRecord(type, lookup) : ofClass(type, lookup);
  }

  /** A full-privilege lookup in {@code type}, or null if its module does not open it to Cairn. */
  static MethodHandles.Lookup lookupIn(Class<?> type) {
    Module ours = StructModel.class.getModule();
    if (ours.isNamed() && !ours.canRead(type.getModule())) {
      ours.addReads(type.getModule());
    }
    try {
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    } catch (IllegalAccessException notOpen) {
      return null;
    }
  }

  private static IllegalArgumentException notOpen(Class<?> type, Exception cause) {
    String module = type.getModule().isNamed() ? type.getModule().getName() : "the unnamed module";
    IllegalArgumentException e =
        new IllegalArgumentException(
            "cannot access "
                + type.getName()
                + " in "
                + module
                + ": open its package to Cairn"
                + " (module-info: opens "
                + type.getPackageName()
                + " to dev.cairn.core;)");
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  private static StructModel ofRecord(Class<?> type, MethodHandles.Lookup privateLookup) {
    MethodHandles.Lookup lookup =
        privateLookup != null ? privateLookup : MethodHandles.publicLookup();
    RecordComponent[] components = type.getRecordComponents();
    List<FieldModel> fields = new ArrayList<>(components.length);
    Class<?>[] types = new Class<?>[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        RecordComponent rc = components[i];
        types[i] = rc.getType();
        Method accessor = rc.getAccessor();
        MethodHandle getter =
            lookup
                .unreflect(accessor)
                .asType(MethodType.methodType(erase(rc.getType()), Object.class));
        CairnName n = rc.getAnnotation(CairnName.class);
        String name =
            n != null && !n.value().isEmpty()
                ? checkName(n.value(), type.getName() + "." + rc.getName())
                : rc.getName();
        fields.add(
            new FieldModel(
                name,
                aliases(n),
                rc.getGenericType(),
                rc.getType(),
                getter,
                type.getName() + "." + rc.getName()));
      }
      checkUnique(type, fields);
      checkSlots(type, types);
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      MethodHandle ctor =
          lookup
              .unreflectConstructor(canonical)
              .asType(MethodType.methodType(Object.class, erasedTypes(types)));
      return new StructModel(type, TypeSchema.Kind.RECORD, List.copyOf(fields), ctor, null);
    } catch (IllegalAccessException | NoSuchMethodException e) {
      throw notOpen(type, e);
    }
  }

  private static StructModel ofClass(Class<?> type, MethodHandles.Lookup lookup) {
    if (lookup == null) {
      throw notOpen(type, null);
    }
    if (type.isMemberClass() && !Modifier.isStatic(type.getModifiers())) {
      throw new IllegalArgumentException(
          "an inner class cannot be stored (it needs its enclosing instance): make "
              + type.getName()
              + " static");
    }
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      chain.addFirst(c);
    }
    List<Field> javaFields = new ArrayList<>();
    List<FieldModel> fields = new ArrayList<>();
    boolean anyFinal = false;
    try {
      for (Class<?> declaring : chain) {
        MethodHandles.Lookup in = declaring == type ? lookup : lookupIn(declaring);
        if (in == null) {
          throw notOpen(declaring, null);
        }
        for (Field f : declaring.getDeclaredFields()) {
          int mod = f.getModifiers();
          if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()) {
            continue;
          }
          anyFinal |= Modifier.isFinal(mod);
          CairnName n = f.getAnnotation(CairnName.class);
          String where = declaring.getName() + "." + f.getName();
          String name =
              n != null && !n.value().isEmpty() ? checkName(n.value(), where) : f.getName();
          MethodHandle getter =
              in.unreflectGetter(f).asType(MethodType.methodType(erase(f.getType()), Object.class));
          fields.add(
              new FieldModel(name, aliases(n), f.getGenericType(), f.getType(), getter, where));
          javaFields.add(f);
        }
      }
    } catch (IllegalAccessException e) {
      throw notOpen(type, e);
    }
    checkUnique(type, fields);
    MethodHandle noArg = null;
    try {
      noArg =
          lookup
              .findConstructor(type, MethodType.methodType(void.class))
              .asType(MethodType.methodType(Object.class));
    } catch (NoSuchMethodException | IllegalAccessException none) {
      // fall through to a canonical constructor
    }
    if (noArg != null && !anyFinal) {
      setters(type, fields, javaFields);
      return new StructModel(type, TypeSchema.Kind.CLASS, List.copyOf(fields), null, noArg);
    }
    MethodHandle canonical = canonicalConstructor(type, lookup, fields, javaFields);
    if (canonical != null) {
      return new StructModel(type, TypeSchema.Kind.CLASS, List.copyOf(fields), canonical, null);
    }
    if (noArg != null) {
      setters(type, fields, javaFields);
      return new StructModel(type, TypeSchema.Kind.CLASS, List.copyOf(fields), null, noArg);
    }
    throw new IllegalArgumentException(
        "no way to build "
            + type.getName()
            + ": give it a no-argument constructor (of any"
            + " access), or a constructor taking every field (compile with -parameters so that"
            + " Cairn can match parameters to fields by name)");
  }

  /**
   * Gives every field a setter. Final fields (only when no constructor takes every field) are set
   * through deep reflection, which their package being open to Cairn allows.
   */
  private static void setters(Class<?> type, List<FieldModel> fields, List<Field> javaFields) {
    for (int i = 0; i < fields.size(); i++) {
      Field f = javaFields.get(i);
      try {
        MethodHandles.Lookup in = lookupIn(f.getDeclaringClass());
        if (Modifier.isFinal(f.getModifiers())) {
          f.setAccessible(true);
        }
        fields.get(i).setter =
            in.unreflectSetter(f)
                .asType(MethodType.methodType(void.class, Object.class, erase(f.getType())));
      } catch (IllegalAccessException | RuntimeException e) {
        throw new IllegalArgumentException(
            "cannot set field "
                + f.getName()
                + " of "
                + type.getName()
                + ": open its package to Cairn, or give the class a constructor taking every field",
            e);
      }
    }
  }

  /** The constructor taking every field, adapted to take them in field order; or null. */
  private static MethodHandle canonicalConstructor(
      Class<?> type, MethodHandles.Lookup lookup, List<FieldModel> fields, List<Field> javaFields) {
    Class<?>[] fieldTypes = javaFields.stream().map(Field::getType).toArray(Class<?>[]::new);
    boolean distinctTypes = new HashSet<>(Arrays.asList(fieldTypes)).size() == fieldTypes.length;
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (c.getParameterCount() != fields.size() || c.isSynthetic()) {
        continue;
      }
      Parameter[] params = c.getParameters();
      int[] fieldOfParam = new int[params.length];
      boolean match;
      if (params.length > 0 && params[0].isNamePresent()) {
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < javaFields.size(); i++) {
          byName.put(javaFields.get(i).getName(), i);
        }
        match = true;
        Set<Integer> used = new HashSet<>();
        for (int p = 0; p < params.length && match; p++) {
          Integer f = byName.get(params[p].getName());
          match = f != null && params[p].getType() == fieldTypes[f] && used.add(f);
          fieldOfParam[p] = f == null ? -1 : f;
        }
      } else {
        match = distinctTypes && Arrays.equals(c.getParameterTypes(), fieldTypes);
        for (int p = 0; p < params.length; p++) {
          fieldOfParam[p] = p;
        }
      }
      if (!match) {
        continue;
      }
      checkSlots(type, fieldTypes);
      try {
        MethodHandle ctor =
            lookup
                .unreflectConstructor(c)
                .asType(MethodType.methodType(Object.class, erasedTypes(c.getParameterTypes())));
        // reorder: the generated code passes arguments in field order
        MethodType inFieldOrder = MethodType.methodType(Object.class, erasedTypes(fieldTypes));
        return MethodHandles.permuteArguments(ctor, inFieldOrder, fieldOfParam);
      } catch (IllegalAccessException e) {
        throw notOpen(type, e);
      }
    }
    return null;
  }

  private static Class<?>[] erasedTypes(Class<?>[] types) {
    Class<?>[] erased = new Class<?>[types.length];
    for (int i = 0; i < types.length; i++) {
      erased[i] = erase(types[i]);
    }
    return erased;
  }

  private static void checkUnique(Class<?> type, List<FieldModel> fields) {
    Set<String> names = new HashSet<>();
    for (FieldModel f : fields) {
      if (!names.add(f.name)) {
        throw new IllegalArgumentException(
            "two fields of "
                + type.getName()
                + " are stored as \""
                + f.name
                + "\": rename one with @CairnName");
      }
    }
  }

  private static void checkSlots(Class<?> type, Class<?>[] types) {
    int slots = 0;
    for (Class<?> t : types) {
      slots += t == long.class || t == double.class ? 2 : 1;
    }
    if (slots > MAX_CONSTRUCTOR_SLOTS) {
      throw new IllegalArgumentException(
          "too many fields to construct "
              + type.getName()
              + ": "
              + types.length
              + " (at most 254 argument slots; long and double take two)");
    }
  }
}
