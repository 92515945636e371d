package dev.cairn.codec;

import dev.cairn.codec.object.ObjectTypes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Maps a value's class to its codec (on put) and a stored type id back to the codec (on get).
 *
 * <p>Two kinds of types are stored:
 *
 * <ul>
 *   <li><b>Registered codecs</b> ({@link Builder#register}): a hand-written {@link Codec} under a
 *       fixed id. It takes precedence over everything else for its class, also where the class
 *       appears inside an object.
 *   <li><b>Object types</b> ({@link Builder#allow}, {@link Builder#allowPackage}): records, POJOs
 *       and enums, encoded by codecs Cairn generates once per class, with their nested objects,
 *       collections and JDK value types. Each gets a type id the first time it is stored, from
 *       {@link #FIRST_USER_TYPE_ID} up, skipping registered ids; the id names the class's {@link
 *       TypeSchema schema}, which the registry keeps in its {@link TypeCatalog} before the id is
 *       used. See docs/FORMAT.md, "Object encoding".
 * </ul>
 *
 * <p>Only registered and allowed types are ever decoded: a type id read from storage selects among
 * them and can never make Cairn load or instantiate an arbitrary class.
 *
 * <p>Thread-safe. Registered codecs are fixed at {@link Builder#build()}; object type ids are
 * assigned lazily, exactly once per layout, and stay the same for the registry's life.
 *
 * <p>Type ids 1-15 are reserved for the built-in codecs of the primitive boxes, which every
 * registry holds. User ids run from {@link #FIRST_USER_TYPE_ID} to {@link #MAX_TYPE_ID}. A
 * registered codec for a built-in type replaces the built-in one.
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=registry}
 */
public final class CodecRegistry {

  /** The lowest id a user codec or an object type may have ({@link TypeSchema#FIRST_TYPE_ID}). */
  public static final int FIRST_USER_TYPE_ID = TypeSchema.FIRST_TYPE_ID;

  /** The highest type id ({@link TypeSchema#MAX_TYPE_ID}). */
  public static final int MAX_TYPE_ID = TypeSchema.MAX_TYPE_ID;

  private static final CodecRegistry BUILT_IN = builder().build();

  private final Codec<?>[] byId;
  private final ClassValue<Integer> idByClass;

  /**
   * The object types, or null if the registry allows none (no allow rule, no catalog) or they are
   * not made yet ({@link #objectTypes}).
   */
  private volatile ObjectTypes objects;

  /**
   * The catalog to make the object types over at their first use, or null: withCatalog over an
   * empty catalog waits, as building them loads the object codec's classes, which a pile of byte
   * arrays and strings never needs, and an open of any persistent pile makes this registry.
   */
  private final TypeCatalog deferredCatalog;

  private final Object objectsLock = new Object();

  // what the registry was built from, for withCatalog
  private final Set<Class<?>> allowed;
  private final Set<String> packages;
  private final List<ClassLoader> loaders;

  private CodecRegistry(
      Codec<?>[] byId,
      ObjectTypes objects,
      TypeCatalog deferredCatalog,
      Set<Class<?>> allowed,
      Set<String> packages,
      List<ClassLoader> loaders) {
    this.byId = byId;
    this.objects = objects;
    this.deferredCatalog = deferredCatalog;
    this.allowed = Set.copyOf(allowed);
    this.packages = Set.copyOf(packages);
    this.loaders = List.copyOf(loaders);
    Map<Class<?>, Integer> ids = new HashMap<>();
    for (int id = 0; id < byId.length; id++) {
      if (byId[id] != null) {
        ids.put(byId[id].type(), id);
      }
    }
    this.idByClass =
        new ClassValue<>() {
          @Override
          protected Integer computeValue(Class<?> type) {
            return ids.get(type);
          }
        };
  }

  /** The registry with only the built-in codecs. */
  public static CodecRegistry builtIn() {
    return BUILT_IN;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The type id registered for {@code type}, or, for an allowed object type, the id of its current
   * schema (assigned now if this is the first time the class is stored).
   *
   * @throws UnknownTypeException if the class is neither registered nor allowed
   * @throws IllegalArgumentException if it is allowed but cannot be stored; the message says why
   *     (an unsupported field type, no usable constructor, a package not open to Cairn)
   */
  public int typeIdOf(Class<?> type) {
    Integer id = idByClass.get(type);
    if (id == null) {
      ObjectTypes types = objectTypes();
      if (types != null) {
        return types.typeIdOf(type);
      }
      throw ObjectTypes.notAllowed(type);
    }
    return id;
  }

  /**
   * The codec of a stored type id.
   *
   * @throws UnknownTypeException if the id names no registered codec (corrupt data, or a pile
   *     written with codecs this registry lacks)
   */
  @SuppressWarnings("unchecked")
  public <T> Codec<T> codecOf(int typeId) {
    Codec<?> codec = typeId >= 0 && typeId < byId.length ? byId[typeId] : null;
    if (codec == null) {
      ObjectTypes types = objectTypes();
      if (types != null) {
        codec = types.codecOf(typeId);
      }
    }
    if (codec == null) {
      throw new UnknownTypeException("no codec registered for stored type id " + typeId);
    }
    return (Codec<T>) codec;
  }

  /**
   * A registry with the same codecs and allowed types whose schemas live in {@code catalog}: how a
   * persistent pile keeps the schemas of its objects with its data. The new registry loads the
   * catalog now (and checks its schemas; over an empty catalog it makes its object types at their
   * first use); it shares nothing with this one.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=with-catalog}
   */
  public CodecRegistry withCatalog(TypeCatalog catalog) {
    Objects.requireNonNull(catalog, "catalog");
    if (catalog.load().isEmpty()) { // nothing to check in it: the types are made at first use
      return new CodecRegistry(byId, null, catalog, allowed, packages, loaders);
    }
    return new CodecRegistry(
        byId,
        new ObjectTypes(byId, allowed, packages, loaders, catalog),
        null,
        allowed,
        packages,
        loaders);
  }

  /** The object types, made now if they were deferred; null if the registry allows none. */
  private ObjectTypes objectTypes() {
    ObjectTypes types = objects;
    if (types == null && deferredCatalog != null) {
      synchronized (objectsLock) {
        types = objects;
        if (types == null) {
          types = new ObjectTypes(byId, allowed, packages, loaders, deferredCatalog);
          objects = types;
        }
      }
    }
    return types;
  }

  /**
   * The schemas of the object types stored so far, and those the catalog held, in id order. Empty
   * if the registry allows no object types.
   */
  public List<TypeSchema> schemas() {
    ObjectTypes types = objects; // none made yet: the catalog was empty and nothing was stored
    return types == null ? List.of() : types.schemas();
  }

  /** Builder of a {@link CodecRegistry}; starts with the built-in codecs. */
  public static final class Builder {
    /**
     * The walker that finds allowPackage's caller, made at its first use: a StackWalker's first
     * instance initializes the JDK's stack walking, which every open of a pile would pay for
     * otherwise (the builder makes each pile's default registry).
     */
    private static final class Caller {
      static final StackWalker WALKER =
          StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    }

    private Codec<?>[] byId = new Codec<?>[FIRST_USER_TYPE_ID];
    private final Set<Class<?>> allowed = new LinkedHashSet<>();
    private final Set<String> packages = new LinkedHashSet<>();
    private final Set<ClassLoader> loaders = new LinkedHashSet<>();
    private TypeCatalog catalog;

    private Builder() {
      byId[1] = BoxCodecs.INT;
      byId[2] = BoxCodecs.LONG;
      byId[3] = BoxCodecs.DOUBLE;
      byId[4] = BoxCodecs.FLOAT;
      byId[5] = BoxCodecs.SHORT;
      byId[6] = BoxCodecs.CHAR;
      byId[7] = BoxCodecs.BYTE;
      byId[8] = BoxCodecs.BOOLEAN;
    }

    /**
     * Registers {@code codec} under {@code typeId}, which is stored with every value and must
     * therefore stay the same for as long as stored values live.
     *
     * @throws IllegalArgumentException if the id is out of range or taken, or the type already has
     *     a user codec
     */
    public Builder register(int typeId, Codec<?> codec) {
      if (typeId < FIRST_USER_TYPE_ID || typeId > MAX_TYPE_ID) {
        throw new IllegalArgumentException(
            "type id out of range ["
                + FIRST_USER_TYPE_ID
                + ", "
                + MAX_TYPE_ID
                + "]: typeId="
                + typeId);
      }
      if (typeId >= byId.length) {
        byId = Arrays.copyOf(byId, Math.max(typeId + 1, byId.length * 2));
      }
      if (byId[typeId] != null) {
        throw new IllegalArgumentException(
            "type id taken: typeId=" + typeId + " by " + byId[typeId].type().getName());
      }
      for (int id = 0; id < byId.length; id++) {
        if (byId[id] != null && byId[id].type() == codec.type()) {
          if (id < FIRST_USER_TYPE_ID) {
            byId[id] = null; // a user codec for a built-in type takes precedence
          } else {
            throw new IllegalArgumentException(
                "type already registered: " + codec.type().getName() + " as typeId=" + id);
          }
        }
      }
      byId[typeId] = codec;
      return this;
    }

    /**
     * Allows records, POJOs and enums of these classes to be stored and read. Also allowed, since
     * the allowed code fixes them: the declared types of their fields (an {@code Address} field, a
     * {@code List<Item>}) and the permitted subclasses of a sealed class or interface. Other
     * implementations of an interface-typed field must be allowed themselves.
     *
     * @throws IllegalArgumentException if a class is a JDK class other than an enum (JDK value
     *     types are stored natively, as fields)
     */
    public Builder allow(Class<?>... types) {
      for (Class<?> type : types) {
        Objects.requireNonNull(type, "type");
        allowed.add(type);
      }
      return this;
    }

    /**
     * Allows every class of a package (not of its subpackages) to be stored and read, as {@link
     * #allow} does for one class. A stored object of such a class is readable at once, also in a
     * new process that has not used the class yet: the registry finds the class by its stored name,
     * which is its binary name, through the class loader of the code that called this method (else
     * the thread's context class loader), without initializing it, and only in the allowed
     * packages. A class stored under a {@link CairnName} other than its binary name cannot be found
     * so: allow it by class as well.
     *
     * @throws IllegalArgumentException if the name is empty or a JDK package
     */
    public Builder allowPackage(String packageName) {
      Objects.requireNonNull(packageName, "packageName");
      if (packageName.isBlank()
          || packageName.startsWith("java.")
          || packageName.startsWith("javax.")
          || packageName.startsWith("jdk.")) {
        throw new IllegalArgumentException(
            "not a package that may be allowed: \"" + packageName + "\"");
      }
      packages.add(packageName);
      ClassLoader loader = Caller.WALKER.getCallerClass().getClassLoader();
      if (loader != null) {
        loaders.add(loader);
      }
      return this;
    }

    /**
     * Where the schemas of object types are kept. By default a new {@link TypeCatalog#inMemory()}
     * catalog, which is right for a volatile pile; a persistent pile passes its own.
     */
    public Builder catalog(TypeCatalog catalog) {
      this.catalog = Objects.requireNonNull(catalog, "catalog");
      return this;
    }

    /**
     * Builds the registry.
     *
     * @throws IllegalArgumentException if an allowed class cannot be stored (two share a stored
     *     name, one is a JDK class) or the catalog's ids collide with registered ones
     */
    public CodecRegistry build() {
      Codec<?>[] codecs = byId.clone();
      ObjectTypes objects =
          allowed.isEmpty() && packages.isEmpty() && catalog == null
              ? null
              : new ObjectTypes(
                  codecs,
                  allowed,
                  packages,
                  List.copyOf(loaders),
                  catalog != null ? catalog : TypeCatalog.inMemory());
      return new CodecRegistry(codecs, objects, null, allowed, packages, List.copyOf(loaders));
    }
  }
}
