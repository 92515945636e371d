package dev.cairn.codec.object;

import dev.cairn.codec.CorruptValueException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * Codecs of collections, maps, optionals and reference arrays.
 *
 * <p>A collection or map stores its <em>flavour</em>, a byte naming the concrete class it was, so a
 * {@code List.of(...)} comes back immutable and a {@code TreeMap} sorted. On reading, the flavour
 * is used if it fits the field's declared type; otherwise (an evolved field, or a declared concrete
 * class) the declared type's natural class is built instead. Implementations Cairn does not know
 * are stored as the nearest flavour (a sorted set as {@code TreeSet}, any other set as {@code
 * LinkedHashSet}, any other collection as {@code ArrayList}).
 */
final class Containers {
  private Containers() {}

  /** Initial capacity cap, so a corrupt count can never pre-allocate a large table. */
  private static final int MAX_INITIAL_CAPACITY = 1024;

  // Collection flavours (0 is null).
  static final int ARRAY_LIST = 1;
  static final int LINKED_LIST = 2;
  static final int IMMUTABLE_LIST = 3;
  static final int HASH_SET = 4;
  static final int LINKED_HASH_SET = 5;
  static final int TREE_SET = 6;
  static final int IMMUTABLE_SET = 7;
  static final int MAX_COLLECTION_FLAVOUR = 7;

  // Map flavours (0 is null).
  static final int HASH_MAP = 1;
  static final int LINKED_HASH_MAP = 2;
  static final int TREE_MAP = 3;
  static final int IMMUTABLE_MAP = 4;
  static final int CONCURRENT_HASH_MAP = 5;
  static final int CONCURRENT_SKIP_LIST_MAP = 6;
  static final int MAX_MAP_FLAVOUR = 6;

  /** A class each flavour builds, to test against a declared type. */
  private static final Class<?>[] COLLECTION_CLASSES = {
    null,
    ArrayList.class,
    LinkedList.class,
    List.of().getClass(),
    HashSet.class,
    LinkedHashSet.class,
    TreeSet.class,
    Set.of().getClass()
  };

  private static final Class<?>[] MAP_CLASSES = {
    null,
    HashMap.class,
    LinkedHashMap.class,
    TreeMap.class,
    Map.of().getClass(),
    ConcurrentHashMap.class,
    ConcurrentSkipListMap.class
  };

  // JdkObsolete: the unmodifiable view of a list that is not RandomAccess is a class of its own,
  // and a LinkedList is the JDK's list to make one of
  @SuppressWarnings("JdkObsolete")
  private static final Set<Class<?>> IMMUTABLE_LISTS =
      classesOf(
          List.of(),
          List.of(1),
          List.of(1, 2, 3),
          List.of(1, 2, 3).subList(0, 2),
          Collections.emptyList(),
          Collections.singletonList(1),
          Collections.unmodifiableList(new ArrayList<>()),
          Collections.unmodifiableList(new LinkedList<>()),
          Stream.of(1, 2).toList());

  private static final Set<Class<?>> IMMUTABLE_SETS =
      classesOf(
          Set.of(),
          Set.of(1),
          Set.of(1, 2, 3),
          Collections.emptySet(),
          Collections.singleton(1),
          Collections.unmodifiableSet(new HashSet<>()));

  private static final Set<Class<?>> IMMUTABLE_MAPS =
      classesOf(
          Map.of(),
          Map.of(1, 1),
          Map.of(1, 1, 2, 2),
          Collections.emptyMap(),
          Collections.singletonMap(1, 1),
          Collections.unmodifiableMap(new HashMap<>()));

  private static Set<Class<?>> classesOf(Object... samples) {
    Set<Class<?>> set = new HashSet<>();
    for (Object o : samples) {
      set.add(o.getClass());
    }
    return Set.copyOf(set);
  }

  private static final ClassValue<Integer> COLLECTION_FLAVOUR =
      new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
          if (c == ArrayList.class) {
            return ARRAY_LIST;
          } else if (c == LinkedList.class) {
            return LINKED_LIST;
          } else if (IMMUTABLE_LISTS.contains(c)) {
            return IMMUTABLE_LIST;
          } else if (c == HashSet.class) {
            return HASH_SET;
          } else if (c == LinkedHashSet.class) {
            return LINKED_HASH_SET;
          } else if (TreeSet.class.isAssignableFrom(c) || SortedSet.class.isAssignableFrom(c)) {
            return TREE_SET;
          } else if (IMMUTABLE_SETS.contains(c)) {
            return IMMUTABLE_SET;
          } else if (Set.class.isAssignableFrom(c)) {
            return LINKED_HASH_SET;
          }
          return ARRAY_LIST;
        }
      };

  private static final ClassValue<Integer> MAP_FLAVOUR =
      new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
          if (c == HashMap.class) {
            return HASH_MAP;
          } else if (c == LinkedHashMap.class) {
            return LINKED_HASH_MAP;
          } else if (IMMUTABLE_MAPS.contains(c)) {
            return IMMUTABLE_MAP;
          } else if (c == ConcurrentHashMap.class) {
            return CONCURRENT_HASH_MAP;
          } else if (ConcurrentNavigableMap.class.isAssignableFrom(c)) {
            return CONCURRENT_SKIP_LIST_MAP;
          } else if (SortedMap.class.isAssignableFrom(c)) {
            return TREE_MAP;
          } else if (ConcurrentMap.class.isAssignableFrom(c)) {
            return CONCURRENT_HASH_MAP;
          }
          return LINKED_HASH_MAP;
        }
      };

  /** Whether {@code declared} is a collection type Cairn can build. */
  static boolean isCollectionType(Class<?> declared) {
    return Collection.class.isAssignableFrom(declared) && fallbackCollection(declared) != 0;
  }

  /** Whether {@code declared} is a map type Cairn can build. */
  static boolean isMapType(Class<?> declared) {
    return Map.class.isAssignableFrom(declared) && fallbackMap(declared) != 0;
  }

  /** The flavour to build for {@code declared} when the stored one does not fit, or 0. */
  private static int fallbackCollection(Class<?> declared) {
    for (int f : new int[] {ARRAY_LIST, LINKED_HASH_SET, TREE_SET, LINKED_LIST, HASH_SET}) {
      if (declared.isAssignableFrom(COLLECTION_CLASSES[f])) {
        return f;
      }
    }
    return 0;
  }

  private static int fallbackMap(Class<?> declared) {
    for (int f :
        new int[] {
          LINKED_HASH_MAP, TREE_MAP, CONCURRENT_HASH_MAP, CONCURRENT_SKIP_LIST_MAP, HASH_MAP
        }) {
      if (declared.isAssignableFrom(MAP_CLASSES[f])) {
        return f;
      }
    }
    return 0;
  }

  private static void checkNaturalOrder(Object sorted, String where) {
    Object comparator =
        sorted instanceof SortedSet<?> s
            ? s.comparator()
            : sorted instanceof SortedMap<?, ?> m ? m.comparator() : null;
    if (comparator != null) {
      throw new IllegalArgumentException(
          "a sorted collection with a comparator cannot be stored (the comparator is code, not"
              + " data): "
              + where
              + " holds a "
              + sorted.getClass().getName()
              + "; use natural ordering, or register a codec for the enclosing type");
    }
  }

  // ------------------------------------------------------------------------ collections

  /** {@code Collection --> 0 (null) | Flavour:u8, Size:varint, Element*}. */
  static final class CollectionCodec extends ValueCodec {
    private final ValueCodec element;
    private final String where;

    /** For each stored flavour, the flavour to build for the declared type. */
    private final int[] build = new int[MAX_COLLECTION_FLAVOUR + 1];

    CollectionCodec(ValueCodec element, Class<?> declared, String where) {
      this.element = element;
      this.where = where;
      int fallback = fallbackCollection(declared);
      for (int f = 1; f <= MAX_COLLECTION_FLAVOUR; f++) {
        build[f] = declared.isAssignableFrom(COLLECTION_CLASSES[f]) ? f : fallback;
      }
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      Collection<?> c = (Collection<?>) v;
      int flavour = COLLECTION_FLAVOUR.get(c.getClass());
      if (flavour == TREE_SET) {
        checkNaturalOrder(c, where);
      }
      int n = c.size();
      out.putByte(flavour);
      out.putVarInt(n);
      if (c instanceof List<?> list && c instanceof RandomAccess) {
        for (int i = 0; i < n; i++) {
          element.write(list.get(i), out, depth);
        }
      } else {
        Iterator<?> it = c.iterator();
        for (int i = 0; i < n; i++) {
          element.write(it.next(), out, depth);
        }
        if (it.hasNext()) {
          throw new ConcurrentModificationException(where + " changed while being stored");
        }
      }
    }

    @Override
    Object read(In in, int depth) {
      int flavour = in.readUnsignedByte();
      if (flavour == 0) {
        return null;
      }
      if (flavour > MAX_COLLECTION_FLAVOUR) {
        throw new CorruptValueException("unknown collection flavour " + flavour + " at " + where);
      }
      int n = in.checkCount(in.readVarIntNonNegative("collection size"), 1, "collection");
      int capacity = Math.min(n, MAX_INITIAL_CAPACITY);
      switch (build[flavour]) {
        case IMMUTABLE_LIST, IMMUTABLE_SET -> {
          Object[] items = new Object[n];
          boolean hasNull = false;
          for (int i = 0; i < n; i++) {
            items[i] = element.read(in, depth);
            hasNull |= items[i] == null;
          }
          if (build[flavour] == IMMUTABLE_LIST) {
            return hasNull ? Collections.unmodifiableList(Arrays.asList(items)) : List.of(items);
          }
          return hasNull
              ? Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(items)))
              : Set.copyOf(Arrays.asList(items));
        }
        default -> {
          // JdkObsolete: a LinkedList was stored, or is what the declared type asks for
          @SuppressWarnings("JdkObsolete")
          Collection<Object> c =
              switch (build[flavour]) {
                case ARRAY_LIST -> new ArrayList<>(capacity);
                case LINKED_LIST -> new LinkedList<>();
                case HASH_SET -> HashSet.newHashSet(capacity);
                case LINKED_HASH_SET -> LinkedHashSet.newLinkedHashSet(capacity);
                case TREE_SET -> new TreeSet<>();
                default ->
                    throw new CorruptValueException(
                        "collection flavour " + flavour + " does not fit " + where);
              };
          for (int i = 0; i < n; i++) {
            c.add(element.read(in, depth));
          }
          return c;
        }
      }
    }

    @Override
    void skip(In in, int depth) {
      int flavour = in.readUnsignedByte();
      if (flavour == 0) {
        return;
      }
      int n = in.checkCount(in.readVarIntNonNegative("collection size"), 1, "collection");
      for (int i = 0; i < n; i++) {
        element.skip(in, depth);
      }
    }
  }

  // ------------------------------------------------------------------------ maps

  /** {@code Map --> 0 (null) | Flavour:u8, Size:varint, (Key, Value)*}. */
  static final class MapCodec extends ValueCodec {
    private final ValueCodec key;
    private final ValueCodec value;
    private final String where;
    private final int[] build = new int[MAX_MAP_FLAVOUR + 1];

    MapCodec(ValueCodec key, ValueCodec value, Class<?> declared, String where) {
      this.key = key;
      this.value = value;
      this.where = where;
      int fallback = fallbackMap(declared);
      for (int f = 1; f <= MAX_MAP_FLAVOUR; f++) {
        build[f] = declared.isAssignableFrom(MAP_CLASSES[f]) ? f : fallback;
      }
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      Map<?, ?> m = (Map<?, ?>) v;
      int flavour = MAP_FLAVOUR.get(m.getClass());
      if (flavour == TREE_MAP || flavour == CONCURRENT_SKIP_LIST_MAP) {
        checkNaturalOrder(m, where);
      }
      int n = m.size();
      out.putByte(flavour);
      out.putVarInt(n);
      Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
      for (int i = 0; i < n; i++) {
        Map.Entry<?, ?> e = it.next();
        key.write(e.getKey(), out, depth);
        value.write(e.getValue(), out, depth);
      }
      if (it.hasNext()) {
        throw new ConcurrentModificationException(where + " changed while being stored");
      }
    }

    @Override
    Object read(In in, int depth) {
      int flavour = in.readUnsignedByte();
      if (flavour == 0) {
        return null;
      }
      if (flavour > MAX_MAP_FLAVOUR) {
        throw new CorruptValueException("unknown map flavour " + flavour + " at " + where);
      }
      int n = in.checkCount(in.readVarIntNonNegative("map size"), 2, "map");
      int capacity = Math.min(n, MAX_INITIAL_CAPACITY);
      int kind = build[flavour];
      Map<Object, Object> m =
          switch (kind) {
            case HASH_MAP -> HashMap.newHashMap(capacity);
            case LINKED_HASH_MAP, IMMUTABLE_MAP -> LinkedHashMap.newLinkedHashMap(capacity);
            case TREE_MAP -> new TreeMap<>();
            case CONCURRENT_HASH_MAP -> new ConcurrentHashMap<>(capacity);
            case CONCURRENT_SKIP_LIST_MAP -> new ConcurrentSkipListMap<>();
            default ->
                throw new CorruptValueException(
                    "map flavour " + flavour + " does not fit " + where);
          };
      boolean hasNull = false;
      for (int i = 0; i < n; i++) {
        Object k = key.read(in, depth);
        Object val = value.read(in, depth);
        hasNull |= k == null || val == null;
        m.put(k, val);
      }
      if (kind == IMMUTABLE_MAP) {
        return hasNull ? Collections.unmodifiableMap(m) : Map.copyOf(m);
      }
      return m;
    }

    @Override
    void skip(In in, int depth) {
      int flavour = in.readUnsignedByte();
      if (flavour == 0) {
        return;
      }
      int n = in.checkCount(in.readVarIntNonNegative("map size"), 2, "map");
      for (int i = 0; i < n; i++) {
        key.skip(in, depth);
        value.skip(in, depth);
      }
    }
  }

  // ------------------------------------------------------------------------ optional

  /** {@code Optional --> 0 (null) | 1 (empty) | 2, Element}. */
  static final class OptionalCodec extends ValueCodec {
    private final ValueCodec element;

    OptionalCodec(ValueCodec element) {
      this.element = element;
    }

    @Override
    void write(Object v, Out out, int depth) {
      Optional<?> o = (Optional<?>) v;
      if (o == null || o.isEmpty()) {
        out.putByte(o == null ? 0 : 1);
      } else {
        out.putByte(2);
        element.write(o.get(), out, depth);
      }
    }

    @Override
    Object read(In in, int depth) {
      return switch (in.readUnsignedByte()) {
        case 0 -> null;
        case 1 -> Optional.empty();
        case 2 -> Optional.ofNullable(element.read(in, depth));
        default -> throw new CorruptValueException("not an optional marker");
      };
    }

    @Override
    void skip(In in, int depth) {
      int marker = in.readUnsignedByte();
      if (marker == 2) {
        element.skip(in, depth);
      } else if (marker > 2) {
        throw new CorruptValueException("not an optional marker");
      }
    }
  }

  // ------------------------------------------------------------------------ arrays

  /** {@code Array --> 0 (null) | Length+1:varint, Element*}. */
  static final class ArrayCodec extends ValueCodec {
    private final ValueCodec element;
    private final Class<?> component;

    ArrayCodec(ValueCodec element, Class<?> component) {
      this.element = element;
      this.component = component;
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      Object[] a = (Object[]) v;
      out.putVarInt(a.length + 1);
      for (Object e : a) {
        element.write(e, out, depth);
      }
    }

    @Override
    Object read(In in, int depth) {
      int header = in.readVarIntNonNegative("array length");
      if (header == 0) {
        return null;
      }
      int n = in.checkCount(header - 1L, 1, "array");
      Object[] a = (Object[]) java.lang.reflect.Array.newInstance(component, n);
      for (int i = 0; i < n; i++) {
        Object e = element.read(in, depth);
        if (e != null && !component.isInstance(e)) {
          throw new CorruptValueException(
              "array element of " + e.getClass().getName() + " in a " + component.getName() + "[]");
        }
        a[i] = e;
      }
      return a;
    }

    @Override
    void skip(In in, int depth) {
      int header = in.readVarIntNonNegative("array length");
      if (header != 0) {
        int n = in.checkCount(header - 1L, 1, "array");
        for (int i = 0; i < n; i++) {
          element.skip(in, depth);
        }
      }
    }
  }
}
