package dev.cairn.codec.object;

import dev.cairn.codec.CairnName;
import dev.cairn.codec.Codec;
import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.IncompatibleSchemaException;
import dev.cairn.codec.TypeCatalog;
import dev.cairn.codec.TypeSchema;
import dev.cairn.codec.UnknownTypeException;
import dev.cairn.codec.object.Entries.CustomEntry;
import dev.cairn.codec.object.Entries.Entry;
import dev.cairn.codec.object.Entries.EnumEntry;
import dev.cairn.codec.object.Entries.StructEntry;
import dev.cairn.codec.object.StructGenerator.ReadStep;
import dev.cairn.codec.object.StructModel.FieldModel;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The object side of a {@code CodecRegistry}: which classes may be stored, their schemas and type
 * ids, and the generated codecs. One per registry that allows object types.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Ids: a type id names one layout (schema) of one type. A class gets an id the first time it is
 * needed (a put, or a field that holds it), as the lowest id from FIRST_USER_TYPE_ID up that no
 * registered codec and no schema holds, unless the catalog already holds a schema with exactly
 * its layout, whose id is then reused. Older layouts of the class keep their ids; objects stored
 * with them are read through a read-only codec generated for (old layout, current class).
 *
 * Concurrency: all creation (introspection, code generation, id assignment, the catalog call)
 * runs under one lock; the hot path reads a ClassValue (class -> entry) or an atomic array
 * (id -> entry) and takes no lock.
 *
 * Invariants:
 *   I1  The catalog holds a schema before any object with its id is written: onNewSchema
 *       returns before the id is published in entries or returned from typeIdOf.
 *   I2  An id is never reused for another layout within a registry, and never collides with a
 *       registered codec's id.
 *   I3  Only allowed classes get entries; a stored id or name selects among entries and known
 *       classes. The one load by name: a stored name that is the binary name of a class in an
 *       allowed package (findInAllowedPackage), never initialized there; a name outside the
 *       allowed packages makes Cairn load nothing.
 *   I4  Allowed = registered by class (plus, transitively, the declared types of their fields
 *       and the permitted subclasses of sealed types, all fixed by the allowed code) or in an
 *       allowed package; never a JDK class other than an enum.
 * }</pre>
 */
public final class ObjectTypes {

  /** Nesting limit for objects within objects; see {@link Refs}. */
  public static final int MAX_DEPTH = 100;

  private static final int FIRST = TypeSchema.FIRST_TYPE_ID;
  private static final int MAX = TypeSchema.MAX_TYPE_ID;

  private final Codec<?>[] explicit;
  private final Map<Class<?>, Integer> explicitIds = new HashMap<>();
  private final Set<String> packages;
  private final List<ClassLoader> loaders;
  private final TypeCatalog catalog;
  private final FieldTypes fieldTypes = new FieldTypes(this);

  private final Set<Class<?>> allowed = ConcurrentHashMap.newKeySet();
  private final Map<String, Class<?>> byName = new ConcurrentHashMap<>();
  private final AtomicReferenceArray<TypeSchema> schemas = new AtomicReferenceArray<>(MAX + 1);
  private final AtomicReferenceArray<Entry> entries = new AtomicReferenceArray<>(MAX + 1);
  private final AtomicReferenceArray<ValueCodec[]> skippers = new AtomicReferenceArray<>(MAX + 1);
  // the codecs of the built-in tags, made at the first any value: a pile that stores no objects
  // never loads them (nor the JDK value types they name), which keeps its open short
  private volatile ValueCodec[] builtIns;

  private final Object lock = new Object();
  private final Map<Class<?>, Entry> current = new HashMap<>(); // guarded by lock
  private int nextId = FIRST; // guarded by lock

  private final ClassValue<Entry> byClass =
      new ClassValue<>() {
        @Override
        protected Entry computeValue(Class<?> type) {
          return create(type);
        }
      };

  private final ClassValue<Integer> builtInTags =
      new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
          return explicitIds.containsKey(type) ? 0 : Refs.builtInTagOf(type);
        }
      };

  /**
   * @param explicit codecs by id, as registered (ids below {@link TypeSchema#FIRST_TYPE_ID} are the
   *     built-in boxes)
   * @param classes classes allowed by name
   * @param packages packages whose classes are allowed
   * @param loaders where to look for a stored class of an allowed package that this registry has
   *     not met yet: the loaders of the code that allowed the packages
   * @param catalog where schemas are kept
   * @throws IllegalArgumentException if an allowed class cannot be stored, two allowed classes
   *     share a stored name, or the catalog's ids collide with registered codecs
   */
  public ObjectTypes(
      Codec<?>[] explicit,
      Collection<Class<?>> classes,
      Collection<String> packages,
      Collection<ClassLoader> loaders,
      TypeCatalog catalog) {
    this.explicit = explicit.clone();
    for (int id = FIRST; id < this.explicit.length; id++) {
      if (this.explicit[id] != null) {
        explicitIds.put(this.explicit[id].type(), id);
      }
    }
    this.packages = Set.copyOf(packages);
    this.loaders = List.copyOf(loaders);
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    for (TypeSchema s : catalog.load()) {
      if (s.typeId() < this.explicit.length && this.explicit[s.typeId()] != null) {
        throw new IllegalArgumentException(
            "catalog schema "
                + s
                + " has the id of registered codec "
                + this.explicit[s.typeId()].getClass().getName());
      }
      if (!schemas.compareAndSet(s.typeId(), null, s)) {
        throw new IllegalArgumentException("catalog holds two schemas with id " + s.typeId());
      }
      for (TypeSchema.Field f : s.fields()) {
        Desc.parse(f.type()); // fail now, not at the first read, if the catalog is corrupt
      }
    }
    synchronized (lock) {
      for (Class<?> c : classes) {
        if (!explicitIds.containsKey(c) && Refs.builtInTagOf(c) == 0) {
          if (isJdk(c) && !c.isEnum()) {
            throw new IllegalArgumentException(
                "cannot allow JDK class "
                    + c.getName()
                    + ": Cairn stores JDK value types"
                    + " natively and no other JDK class");
          }
          addClosure(c);
        }
      }
    }
  }

  // =========================================================================================
  // the registry's view

  /**
   * The id objects of {@code type} are written with.
   *
   * @throws UnknownTypeException if the class is not allowed
   * @throws IllegalArgumentException if it is allowed but cannot be stored (the message says why)
   */
  public int typeIdOf(Class<?> type) {
    return entryForWrite(type, null).id;
  }

  /** The top-level codec of a stored id, or null if the id names no object type. */
  public Codec<?> codecOf(int typeId) {
    if (typeId < FIRST || typeId > MAX) {
      return null;
    }
    Entry e = entries.get(typeId);
    if (e != null) {
      return e;
    }
    if (schemas.get(typeId) == null) {
      return null;
    }
    return entryForRead(typeId, "a stored object");
  }

  /** Every schema known: the catalog's and those created since, by id. */
  public List<TypeSchema> schemas() {
    List<TypeSchema> list = new ArrayList<>();
    for (int id = FIRST; id <= MAX; id++) {
      TypeSchema s = schemas.get(id);
      if (s != null) {
        list.add(s);
      }
    }
    return list;
  }

  // =========================================================================================
  // entries

  /** The entry objects of class {@code type} are written with (created on first use). */
  Entry entryForWrite(Class<?> type, String where) {
    try {
      return byClass.get(type);
    } catch (UnknownTypeException e) {
      if (where == null) {
        throw e;
      }
      throw new UnknownTypeException(e.getMessage() + " (found in " + where + ")");
    }
  }

  /** The entry of a stored id; its class may be an older layout's current class. */
  Entry entryForRead(int id, String where) {
    Entry e = id >= FIRST && id <= MAX ? entries.get(id) : null;
    if (e != null) {
      return e;
    }
    if (id < FIRST || id > MAX) {
      throw new CorruptValueException("stored type id out of range at " + where + ": " + id);
    }
    synchronized (lock) {
      e = entries.get(id);
      if (e != null) {
        return e;
      }
      if (id < explicit.length && explicit[id] != null) {
        e = new CustomEntry(id, explicit[id]);
        entries.set(id, e);
        return e;
      }
      TypeSchema schema = schemas.get(id);
      if (schema == null) {
        throw new CorruptValueException(
            "stored type id " + id + " names no type (at " + where + ")");
      }
      Class<?> type = byName.get(schema.typeName());
      if (type == null) {
        type = findInAllowedPackage(schema.typeName());
      }
      if (type == null) {
        throw new UnknownTypeException(
            "stored type "
                + schema.typeName()
                + " (type id "
                + id
                + ") is not an allowed class"
                + " of this registry: allow the class stored under that name with"
                + " CodecRegistry.builder().allow(TheClass.class), or its package with"
                + " .allowPackage(...), and pass the registry to PileOptions.builder().codecs(...)"
                + " (a class whose @CairnName is not its class name must be allowed by class)");
      }
      Entry now = byClass.get(type);
      if (now.id == id) {
        return now;
      }
      e = olderLayout(schema, type, now);
      entries.set(id, e);
      return e;
    }
  }

  /**
   * Under the lock: the class a stored schema names when this registry has not met it yet, found by
   * name if that is the binary name of a class in an allowed package (I3, I4), or null. It is
   * loaded without being initialized, through the loaders of the code that allowed the packages,
   * the thread's context loader, then Cairn's own; a name outside the allowed packages loads
   * nothing. The class then joins the allowed classes, with what its code fixes.
   */
  private Class<?> findInAllowedPackage(String storedName) {
    int dot = storedName.lastIndexOf('.');
    if (dot <= 0 || !packages.contains(storedName.substring(0, dot))) {
      return null;
    }
    List<ClassLoader> candidates = new ArrayList<>(loaders);
    candidates.add(Thread.currentThread().getContextClassLoader());
    candidates.add(ObjectTypes.class.getClassLoader());
    for (ClassLoader loader : candidates) {
      if (loader == null) {
        continue;
      }
      Class<?> type;
      try {
        type = Class.forName(storedName, false, loader);
      } catch (ClassNotFoundException | LinkageError notThere) {
        continue;
      }
      if (!type.getName().equals(storedName)
          || !isAllowed(type)
          || !StructModel.storedName(type).equals(storedName)) {
        continue; // stored under another name (@CairnName): only allow-by-class reads it
      }
      addClosure(type);
      return byName.get(storedName);
    }
    return null;
  }

  /** Under the lock: creates the entry of a class, or throws if it may not be stored. */
  private Entry create(Class<?> type) {
    synchronized (lock) {
      Entry e = current.get(type);
      if (e != null) {
        return e;
      }
      Class<?> superclass = type.getSuperclass();
      if (!type.isEnum() && superclass != null && superclass.isEnum()) {
        e = byClass.get(superclass); // an enum constant with a body
      } else if (explicitIds.containsKey(type)) {
        int id = explicitIds.get(type);
        e = entryForRead(id, type.getName());
      } else {
        if (!isAllowed(type)) {
          throw notAllowed(type);
        }
        addClosure(type);
        e = type.isEnum() ? createEnum(type) : createStruct(type);
      }
      current.put(type, e);
      return e;
    }
  }

  /**
   * The name a user declares a field of {@code type} with: its simple name if public, else the JDK
   * collection interface it implements ({@code List.of(1, 2)} is an ImmutableCollections.List12).
   */
  private static String declarableName(Class<?> type) {
    if (!java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
      for (Class<?> api :
          new Class<?>[] {
            java.util.List.class,
            java.util.Set.class,
            java.util.Map.class,
            java.util.Collection.class
          }) {
        if (api.isAssignableFrom(type)) {
          return api.getSimpleName() + "<...>";
        }
      }
    }
    return type.getSimpleName();
  }

  /**
   * The refusal of a class that is neither registered nor allowed, saying what the user most likely
   * wants, with calls that work when made (never one that would then throw): allow a class of their
   * own, by class or package; wrap a JDK value type in a record of their own; for any other JDK
   * class, why it cannot be stored.
   */
  public static UnknownTypeException notAllowed(Class<?> type) {
    String name = type.getName();
    String registry = "PileOptions.builder().codecs(CodecRegistry.builder()";
    if (Refs.builtInTagOf(type) != 0 || type.isArray()) {
      return new UnknownTypeException(
          "type "
              + name
              + " cannot be stored on its own: "
              + (type.isArray()
                  ? "an array"
                  : "a JDK value type (date, number, UUID, collection," + " ...)")
              + " is stored as a field of your own records and classes: wrap it in a"
              + " record, e.g. record Holder("
              + declarableName(type)
              + " value) {}, and allow that: "
              + registry
              + ".allow(Holder.class).build())");
    }
    if (type.isAnonymousClass() || type.isHidden()) {
      return new UnknownTypeException(
          "type "
              + name
              + " cannot be stored: it is an "
              + (type.isHidden() ? "hidden class (a lambda?)" : "anonymous class")
              + ", which has no name to store. Declare a named record or class for the value and"
              + " allow it: "
              + registry
              + ".allow(YourRecord.class).build())");
    }
    if (isJdk(type) && type.isEnum()) {
      return new UnknownTypeException(
          "type "
              + name
              + " is not allowed in this pile's codec"
              + " registry. A JDK enum can be allowed by class: "
              + registry
              + ".allow("
              + type.getCanonicalName()
              + ".class).build())");
    }
    if (isJdk(type)) {
      String why =
          type == Object.class
              ? "a plain java.lang.Object has no state to store"
              : "Cairn stores JDK classes only as the values of fields (String, numbers, dates,"
                  + " UUID, collections, ...), and no JDK class other than an enum can be allowed";
      return new UnknownTypeException(
          "type "
              + name
              + " cannot be stored: "
              + why
              + ". Store"
              + " the data in a record or class of your own and allow it with "
              + registry
              + ".allow(YourRecord.class).build()), or register a hand-written Codec<"
              + type.getSimpleName()
              + "> with CodecRegistry.builder().register(id, codec), id from "
              + FIRST
              + " up");
    }
    String canonical = type.getCanonicalName();
    String written =
        canonical == null
            ? type.getSimpleName() // a local class
            : type.getPackageName().isEmpty()
                ? canonical
                : canonical.substring(type.getPackageName().length() + 1);
    String byPackage =
        type.getPackageName().isEmpty()
            ? ""
            : ", or every class of its package with .allowPackage(\""
                + type.getPackageName()
                + "\")";
    return new UnknownTypeException(
        "type "
            + name
            + " is not allowed in this pile's codec"
            + " registry. Allow it: "
            + registry
            + ".allow("
            + written
            + ".class).build())"
            + byPackage
            + "; a class with a hand-written Codec is registered with"
            + " .register(id, codec) instead");
  }

  private Entry createEnum(Class<?> type) {
    Enum<?>[] constants = (Enum<?>[]) type.getEnumConstants();
    List<String> names = new ArrayList<>(constants.length);
    for (Enum<?> c : constants) {
      names.add(constantName(type, c));
    }
    TypeSchema schema =
        assignId(
            new TypeSchema(
                FIRST, StructModel.storedName(type), TypeSchema.Kind.ENUM, List.of(), names));
    Refs.EnumFieldCodec codec =
        new Refs.EnumFieldCodec(constants, constants, names.toArray(String[]::new), type.getName());
    Entry e = new EnumEntry(schema.typeId(), type, schema, true, codec);
    entries.set(schema.typeId(), e);
    return e;
  }

  private static String constantName(Class<?> type, Enum<?> constant) {
    CairnName n = constantAnnotation(type, constant);
    return n != null && !n.value().isEmpty()
        ? StructModel.checkName(n.value(), type.getName() + "." + constant.name())
        : constant.name();
  }

  private static CairnName constantAnnotation(Class<?> type, Enum<?> constant) {
    try {
      return type.getField(constant.name()).getAnnotation(CairnName.class);
    } catch (NoSuchFieldException e) {
      return null;
    }
  }

  private Entry createStruct(Class<?> type) {
    StructModel model = StructModel.of(type);
    List<FieldModel> fields = model.fields;
    ValueCodec[] codecs = new ValueCodec[fields.size()];
    List<TypeSchema.Field> stored = new ArrayList<>(fields.size());
    List<ReadStep> plan = new ArrayList<>(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      FieldModel f = fields.get(i);
      Desc desc = fieldTypes.classify(f.genericType, f.where);
      stored.add(new TypeSchema.Field(f.name, desc.toString()));
      if (desc instanceof Desc.PrimDesc(Desc.Prim p)) {
        plan.add(new StructGenerator.Direct(p, i));
      } else {
        codecs[i] = fieldTypes.codec(desc, f.genericType, f.where);
        plan.add(new StructGenerator.Via(codecs[i], i));
      }
    }
    StructCodec codec = StructGenerator.generate(model, codecs, plan);
    TypeSchema schema =
        assignId(new TypeSchema(FIRST, model.typeName, model.kind, stored, List.of()));
    Entry e = new StructEntry(schema.typeId(), schema, true, model, codec, this);
    entries.set(schema.typeId(), e);
    return e;
  }

  /** A read-only entry for objects stored with an older layout of {@code type}. */
  private Entry olderLayout(TypeSchema schema, Class<?> type, Entry now) {
    String what = "stored " + schema + " read as " + type.getName();
    if (schema.kind() == TypeSchema.Kind.ENUM) {
      if (!type.isEnum()) {
        throw new IncompatibleSchemaException(what + ": an enum became a " + now.schema.kind());
      }
      return new EnumEntry(
          schema.typeId(), type, schema, false, enumCodec(schema, type, type.getName()));
    }
    if (!(now instanceof StructEntry current)) {
      throw new IncompatibleSchemaException(
          what + ": a " + schema.kind() + " became " + (type.isEnum() ? "an enum" : "a codec"));
    }
    StructModel model = current.model;
    List<ReadStep> plan = new ArrayList<>();
    boolean[] taken = new boolean[model.fields.size()];
    for (TypeSchema.Field sf : schema.fields()) {
      Desc storedDesc = Desc.parse(sf.type());
      int match = -1;
      for (int i = 0; i < model.fields.size() && match < 0; i++) {
        if (!taken[i] && model.fields.get(i).answersTo(sf.name())) {
          match = i;
        }
      }
      if (match < 0) {
        plan.add(new StructGenerator.Skip(fieldTypes.skipper(storedDesc, type.getName())));
        continue;
      }
      taken[match] = true;
      FieldModel f = model.fields.get(match);
      Desc.Prim target = Desc.Prim.ofPrimitive(f.raw);
      if (storedDesc instanceof Desc.PrimDesc(Desc.Prim p)
          && target != null
          && p.widensTo(target)) {
        plan.add(new StructGenerator.Direct(p, match));
      } else {
        ValueCodec reader =
            fieldTypes.reader(
                storedDesc,
                f.genericType,
                f.where,
                "stored "
                    + schema.typeName()
                    + "."
                    + sf.name()
                    + " (type id "
                    + schema.typeId()
                    + ")");
        plan.add(new StructGenerator.Via(reader, match));
      }
    }
    StructCodec codec = StructGenerator.generate(model, null, plan);
    return new StructEntry(schema.typeId(), schema, false, model, codec, this);
  }

  /** Maps a stored enum schema's ordinals to {@code type}'s constants by name and alias. */
  Refs.EnumFieldCodec enumCodec(TypeSchema stored, Class<?> type, String where) {
    Enum<?>[] constants = (Enum<?>[]) type.getEnumConstants();
    List<String> names = stored.constants();
    Enum<?>[] byStored = new Enum<?>[names.size()];
    for (int i = 0; i < names.size(); i++) {
      for (Enum<?> c : constants) {
        CairnName n = constantAnnotation(type, c);
        if (constantName(type, c).equals(names.get(i))
            || StructModel.aliases(n).contains(names.get(i))) {
          byStored[i] = c;
          break;
        }
      }
    }
    boolean isCurrent = false;
    Entry now = byClass.get(type);
    if (now.id == stored.typeId()) {
      isCurrent = true;
    }
    return new Refs.EnumFieldCodec(
        isCurrent ? constants : null, byStored, names.toArray(String[]::new), where);
  }

  /** The schema of a stored enum id, which must name an enum. */
  TypeSchema enumSchema(int id, String where) {
    TypeSchema s = id >= FIRST && id <= MAX ? schemas.get(id) : null;
    if (s == null || s.kind() != TypeSchema.Kind.ENUM) {
      throw new CorruptValueException(
          "field "
              + where
              + " names enum schema "
              + id
              + ", which is "
              + (s == null ? "unknown" : "not an enum: " + s));
    }
    return s;
  }

  /** Under the lock: gives {@code shape} an id (I1, I2) and returns it with that id. */
  private TypeSchema assignId(TypeSchema shape) {
    TypeSchema reuse = null;
    for (int id = FIRST; id <= MAX; id++) {
      TypeSchema s = schemas.get(id);
      if (s != null && s.sameLayout(shape) && entries.get(id) == null) {
        reuse = s; // the newest such schema wins
      }
    }
    if (reuse != null) {
      return reuse;
    }
    while (nextId <= MAX
        && (schemas.get(nextId) != null
            || (nextId < explicit.length && explicit[nextId] != null))) {
      nextId++;
    }
    if (nextId > MAX) {
      throw new IllegalStateException("all type ids up to " + MAX + " are taken");
    }
    TypeSchema schema =
        new TypeSchema(nextId, shape.typeName(), shape.kind(), shape.fields(), shape.constants());
    catalog.onNewSchema(schema); // durable before the id is used (I1)
    schemas.set(nextId, schema);
    nextId++;
    return schema;
  }

  // =========================================================================================
  // skipping by schema alone

  /** Skips a body of stored type id {@code id}, knowing only its schema. */
  void skipBody(int id, In in, int depth, String where) {
    if (id < FIRST || id > MAX) {
      throw new CorruptValueException("stored type id out of range at " + where + ": " + id);
    }
    if (id < explicit.length && explicit[id] != null) {
      in.skipBytes(in.readVarIntNonNegative("value length"));
      return;
    }
    TypeSchema schema = schemas.get(id);
    if (schema == null) {
      throw new CorruptValueException("stored type id " + id + " names no type (at " + where + ")");
    }
    if (schema.kind() == TypeSchema.Kind.ENUM) {
      in.readVarInt();
      return;
    }
    ValueCodec[] fields = skippers.get(id);
    if (fields == null) {
      fields = new ValueCodec[schema.fields().size()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] =
            fieldTypes.skipper(
                Desc.parse(schema.fields().get(i).type()),
                schema.typeName() + "." + schema.fields().get(i).name());
      }
      skippers.compareAndSet(id, null, fields);
    }
    for (ValueCodec f : fields) {
      f.skip(in, depth);
    }
  }

  // =========================================================================================
  // built-in tags of any values

  int builtInTag(Class<?> type) {
    return builtInTags.get(type);
  }

  ValueCodec builtInCodec(int tag) {
    if (tag <= 0 || tag >= Refs.FIRST_USER_TAG) {
      return null;
    }
    ValueCodec[] codecs = builtIns;
    if (codecs == null) {
      codecs = makeBuiltIns();
      builtIns = codecs; // racing threads make equal tables; either may win
    }
    ValueCodec codec = codecs[tag];
    if (codec == null) {
      JdkValueType kind = JdkValueType.byTag(tag);
      codec = kind == null ? null : ValueCodecs.value(kind);
    }
    return codec;
  }

  private ValueCodec[] makeBuiltIns() {
    ValueCodec[] codecs = new ValueCodec[Refs.FIRST_USER_TAG];
    ValueCodec anyCodec = new Refs.AnyCodec(this, Object.class, "an any value");
    for (Desc.Prim p : Desc.Prim.values()) {
      codecs[Refs.boxTag(p)] = ValueCodecs.prim(p);
      codecs[Refs.primArrayTag(p)] = ValueCodecs.primArray(p);
    }
    codecs[Refs.TAG_STRING] = ValueCodecs.STRING;
    // the JDK value types' codecs are left to builtInCodec: built on first use
    codecs[Refs.TAG_COLLECTION] =
        new Containers.CollectionCodec(anyCodec, Object.class, "a collection in an any value");
    codecs[Refs.TAG_MAP] =
        new Containers.MapCodec(anyCodec, anyCodec, Object.class, "a map in an any value");
    codecs[Refs.TAG_OPTIONAL] = new Containers.OptionalCodec(anyCodec);
    codecs[Refs.TAG_OBJECT_ARRAY] = new Containers.ArrayCodec(anyCodec, Object.class);
    return codecs;
  }

  /** The registered (user) codec id of {@code type}, or -1. */
  int explicitId(Class<?> type) {
    Integer id = explicitIds.get(type);
    return id == null ? -1 : id;
  }

  // =========================================================================================
  // allow rules (I4)

  boolean isAllowed(Class<?> type) {
    return allowed.contains(type) || (!isJdk(type) && packages.contains(type.getPackageName()));
  }

  static boolean isJdk(Class<?> type) {
    Module m = type.getModule();
    if (m.isNamed()) {
      String name = m.getName();
      return name.startsWith("java.") || name.startsWith("jdk.");
    }
    return type.getClassLoader() == null;
  }

  /**
   * Allows {@code type} and what its code fixes: its sealed subclasses and its fields' declared
   * types. Records the stored names of the classes so stored schemas can find them.
   */
  void addClosure(Class<?> type) {
    if (type.isArray()) {
      addClosure(type.getComponentType());
      return;
    }
    if (type.isPrimitive()
        || (isJdk(type) && !type.isEnum())
        || Refs.builtInTagOf(type) != 0
        || explicitIds.containsKey(type)) {
      return;
    }
    if (!allowed.add(type)) {
      return;
    }
    name(StructModel.storedName(type), type);
    for (String alias : StructModel.aliases(type.getAnnotation(CairnName.class))) {
      name(alias, type);
    }
    if (type.isEnum() || isJdk(type)) {
      return;
    }
    if (type.isSealed()) {
      for (Class<?> sub : type.getPermittedSubclasses()) {
        addClosure(sub);
      }
    }
    if (type.isRecord()) {
      for (RecordComponent rc : type.getRecordComponents()) {
        addTypeClosure(rc.getGenericType());
      }
    } else if (!type.isInterface()) {
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (!Modifier.isStatic(f.getModifiers())
              && !Modifier.isTransient(f.getModifiers())
              && !f.isSynthetic()) {
            addTypeClosure(f.getGenericType());
          }
        }
      }
    }
  }

  private void addTypeClosure(Type t) {
    switch (t) {
      case Class<?> c -> addClosure(c);
      case ParameterizedType p -> {
        addTypeClosure(p.getRawType());
        for (Type arg : p.getActualTypeArguments()) {
          addTypeClosure(arg);
        }
      }
      case GenericArrayType g -> addTypeClosure(g.getGenericComponentType());
      case WildcardType w -> {
        for (Type b : w.getUpperBounds()) {
          addTypeClosure(b);
        }
      }
      default -> {} // a type variable: its values are allowed, or not, on their own
    }
  }

  private void name(String name, Class<?> type) {
    Class<?> other = byName.putIfAbsent(name, type);
    if (other != null && other != type) {
      throw new IllegalArgumentException(
          "two allowed classes are stored as \""
              + name
              + "\": "
              + other.getName()
              + " and "
              + type.getName()
              + "; give one another name with @CairnName");
    }
  }
}
