package dev.cairn.codec;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Builds a jqwik {@link Arbitrary} for any Java type the object codec supports, by reflection:
 * records through their canonical constructor, POJOs through their fields, sealed types through
 * their permitted subclasses, collections in every flavour (mutable, immutable, sorted) and with
 * nulls where the flavour allows them. So a property test covers generated instances of every
 * fixture type, not a hand-picked few.
 *
 * <p>Depth bounds recursion (a {@code Tree} of {@code Tree}s): past {@link #MAX_DEPTH}, nullable
 * references are null and collections empty.
 */
final class TypeArbitraries {
  private TypeArbitraries() {}

  static final int MAX_DEPTH = 4;

  /** Concrete implementations to use for an abstract field type. */
  private static final Map<Class<?>, List<Class<?>>> IMPLEMENTATIONS =
      Map.of(
          CodecFixtures.Animal.class, List.of(CodecFixtures.Dog.class, CodecFixtures.Bird.class));

  /** Values of {@code type}, never null themselves (their fields may be). */
  @SuppressWarnings("unchecked")
  static <T> Arbitrary<T> of(Class<T> type) {
    return (Arbitrary<T>) nonNull(type, type, 0);
  }

  static Arbitrary<?> of(Type type, int depth) {
    Class<?> raw = raw(type);
    boolean deep = depth >= MAX_DEPTH;
    if (raw.isPrimitive()) {
      return primitive(raw);
    }
    return deep ? Arbitraries.just(null) : nonNull(type, raw, depth).injectNull(0.08);
  }

  private static Arbitrary<?> nonNull(Type type, Class<?> raw, int depth) {
    if (raw == Boolean.class
        || raw == Byte.class
        || raw == Short.class
        || raw == Character.class
        || raw == Integer.class
        || raw == Long.class
        || raw == Float.class
        || raw == Double.class) {
      return primitive(unbox(raw));
    }
    if (raw == String.class) {
      return strings();
    }
    if (raw.isArray()) {
      Class<?> component = raw.getComponentType();
      Type componentType =
          type instanceof GenericArrayType g ? g.getGenericComponentType() : component;
      Arbitrary<?> element =
          component.isPrimitive() ? primitive(component) : of(componentType, depth + 1);
      return element.list().ofMaxSize(6).map(list -> toArray(component, list));
    }
    Arbitrary<?> value = valueType(raw);
    if (value != null) {
      return value;
    }
    if (raw == Optional.class) {
      return of(argument(type, 0), depth + 1).map(Optional::ofNullable);
    }
    if (Collection.class.isAssignableFrom(raw)) {
      return collection(type, raw, depth);
    }
    if (Map.class.isAssignableFrom(raw)) {
      return map(type, raw, depth);
    }
    if (raw.isEnum()) {
      return Arbitraries.of(raw.getEnumConstants());
    }
    if (raw.isSealed()) {
      List<Arbitrary<?>> choices = new ArrayList<>();
      for (Class<?> sub : raw.getPermittedSubclasses()) {
        choices.add(nonNull(sub, sub, depth + 1));
      }
      return oneOf(choices);
    }
    if (IMPLEMENTATIONS.containsKey(raw)) {
      List<Arbitrary<?>> choices = new ArrayList<>();
      for (Class<?> sub : IMPLEMENTATIONS.get(raw)) {
        choices.add(nonNull(sub, sub, depth + 1));
      }
      return oneOf(choices);
    }
    if (raw == Object.class || raw == Comparable.class || raw == Number.class) {
      return anything(raw, depth);
    }
    if (raw.isRecord()) {
      return record(type, raw, depth);
    }
    if (!raw.getName().startsWith("java.")) {
      return pojo(raw, depth);
    }
    throw new IllegalArgumentException("no arbitrary for " + type);
  }

  // ---------------------------------------------------------------- leaves

  private static Arbitrary<?> primitive(Class<?> c) {
    if (c == boolean.class) {
      return Arbitraries.of(true, false);
    } else if (c == byte.class) {
      return Arbitraries.bytes();
    } else if (c == short.class) {
      return Arbitraries.shorts();
    } else if (c == char.class) {
      return Arbitraries.chars();
    } else if (c == int.class) {
      return Arbitraries.integers();
    } else if (c == long.class) {
      return Arbitraries.longs();
    } else if (c == float.class) {
      return Arbitraries.floats()
          .withSpecialValue(Float.NaN)
          .withSpecialValue(-0.0f)
          .withSpecialValue(Float.NEGATIVE_INFINITY);
    } else {
      return Arbitraries.doubles()
          .withSpecialValue(Double.NaN)
          .withSpecialValue(-0.0)
          .withSpecialValue(Double.MAX_VALUE);
    }
  }

  private static Class<?> unbox(Class<?> box) {
    return switch (box.getSimpleName()) {
      case "Boolean" -> boolean.class;
      case "Byte" -> byte.class;
      case "Short" -> short.class;
      case "Character" -> char.class;
      case "Integer" -> int.class;
      case "Long" -> long.class;
      case "Float" -> float.class;
      default -> double.class;
    };
  }

  static Arbitrary<String> strings() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ascii().ofMaxLength(80),
        Arbitraries.strings().alpha().ofMinLength(2).ofMaxLength(12),
        Arbitraries.strings().all().ofMaxLength(20), // unpaired surrogates included
        Arbitraries.strings().withCharRange('\u0080', '\u07ff').ofMaxLength(10),
        Arbitraries.of("", "x", "\ud83d\ude00", "\ud800", "é", "a\u0000b"));
  }

  private static Arbitrary<?> valueType(Class<?> raw) {
    Arbitrary<Long> epochDay =
        Arbitraries.longs().between(LocalDate.MIN.toEpochDay(), LocalDate.MAX.toEpochDay());
    Arbitrary<LocalDate> date =
        Arbitraries.oneOf(
            epochDay.map(LocalDate::ofEpochDay),
            Arbitraries.longs().between(-30_000, 30_000).map(LocalDate::ofEpochDay));
    Arbitrary<LocalTime> time =
        Arbitraries.longs().between(0, LocalTime.MAX.toNanoOfDay()).map(LocalTime::ofNanoOfDay);
    Arbitrary<ZoneOffset> offset =
        Arbitraries.integers().between(-18 * 3600, 18 * 3600).map(ZoneOffset::ofTotalSeconds);
    Arbitrary<LocalDateTime> dateTime = Combinators.combine(date, time).as(LocalDateTime::of);
    Arbitrary<ZoneId> zone =
        Arbitraries.of("UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "+05:30")
            .map(ZoneId::of);
    if (raw == UUID.class) {
      return Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(UUID::new);
    } else if (raw == BigInteger.class) {
      return Arbitraries.oneOf(
          Arbitraries.longs().map(BigInteger::valueOf),
          Arbitraries.bigIntegers()
              .between(BigInteger.ONE.shiftLeft(200).negate(), BigInteger.ONE.shiftLeft(200)));
    } else if (raw == BigDecimal.class) {
      return Combinators.combine(
              Arbitraries.bigIntegers()
                  .between(BigInteger.ONE.shiftLeft(100).negate(), BigInteger.ONE.shiftLeft(100)),
              Arbitraries.integers().between(-40, 40))
          .as(BigDecimal::new);
    } else if (raw == LocalDate.class) {
      return date;
    } else if (raw == LocalTime.class) {
      return time;
    } else if (raw == LocalDateTime.class) {
      return dateTime;
    } else if (raw == Instant.class) {
      return Combinators.combine(
              Arbitraries.longs()
                  .between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
              Arbitraries.integers().between(0, 999_999_999))
          .as(Instant::ofEpochSecond);
    } else if (raw == Duration.class) {
      return Combinators.combine(
              Arbitraries.longs(), Arbitraries.integers().between(0, 999_999_999))
          .as(Duration::ofSeconds);
    } else if (raw == Period.class) {
      return Combinators.combine(
              Arbitraries.integers(), Arbitraries.integers(), Arbitraries.integers())
          .as(Period::of);
    } else if (raw == OffsetDateTime.class) {
      return Combinators.combine(dateTime, offset).as(OffsetDateTime::of);
    } else if (raw == OffsetTime.class) {
      return Combinators.combine(time, offset).as(OffsetTime::of);
    } else if (raw == ZonedDateTime.class) {
      return Combinators.combine(Arbitraries.longs().between(-5_000_000_000L, 5_000_000_000L), zone)
          .as((s, z) -> ZonedDateTime.ofInstant(Instant.ofEpochSecond(s), z));
    } else if (raw == ZoneId.class) {
      return Arbitraries.oneOf(zone, offset);
    } else if (raw == ZoneOffset.class) {
      return offset;
    } else if (raw == Year.class) {
      return Arbitraries.integers().between(Year.MIN_VALUE, Year.MAX_VALUE).map(Year::of);
    } else if (raw == YearMonth.class) {
      return Combinators.combine(
              Arbitraries.integers().between(-999_999, 999_999),
              Arbitraries.integers().between(1, 12))
          .as(YearMonth::of);
    } else if (raw == MonthDay.class) {
      return date.map(d -> MonthDay.of(d.getMonth(), d.getDayOfMonth()));
    } else if (raw == DayOfWeek.class) {
      return Arbitraries.of(DayOfWeek.class);
    } else if (raw == Month.class) {
      return Arbitraries.of(Month.class);
    }
    return null;
  }

  /** A value for an {@code Object}, {@code Comparable} or {@code Number} field. */
  private static Arbitrary<?> anything(Class<?> raw, int depth) {
    List<Arbitrary<?>> choices =
        new ArrayList<>(
            List.of(
                Arbitraries.integers(),
                Arbitraries.longs(),
                Arbitraries.doubles(),
                Arbitraries.bytes(),
                Arbitraries.bigIntegers()
                    .between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000))));
    if (raw != Number.class) {
      choices.add(strings());
      choices.add(valueType(LocalDate.class));
      choices.add(Arbitraries.of(CodecFixtures.Color.class));
    }
    if (raw == Object.class) {
      choices.add(of(CodecFixtures.Point.class, depth + 1));
      choices.add(Arbitraries.integers().array(int[].class));
      choices.add(strings().list().ofMaxSize(3));
      choices.add(
          Arbitraries.maps(strings(), Arbitraries.integers()).ofMaxSize(3).map(LinkedHashMap::new));
      choices.add(strings().map(Optional::of));
      choices.add(strings().list().ofMaxSize(3).map(l -> l.toArray(Object[]::new)));
    }
    return oneOf(choices);
  }

  // ---------------------------------------------------------------- containers

  @SuppressWarnings("JdkObsolete") // LinkedList is one of the list classes the codec builds
  private static Arbitrary<?> collection(Type type, Class<?> raw, int depth) {
    Arbitrary<?> element = of(argument(type, 0), depth + 1);
    int max = depth >= MAX_DEPTH ? 0 : 5;
    boolean sortedOnly = SortedSet.class.isAssignableFrom(raw);
    if (sortedOnly) {
      return element.filter(Objects::nonNull).set().ofMaxSize(max).map(TreeSet::new);
    }
    if (Set.class.isAssignableFrom(raw)) {
      return Combinators.combine(element.set().ofMaxSize(max), Arbitraries.integers().between(0, 3))
          .as(
              (set, flavour) ->
                  switch (set.contains(null) ? flavour % 2 : flavour) {
                    case 0 -> new HashSet<>(set);
                    case 1 -> new LinkedHashSet<>(set);
                    case 2 -> Set.copyOf(set);
                    default -> Collections.unmodifiableSet(new HashSet<>(set));
                  });
    }
    if (raw == Deque.class) {
      return element.filter(Objects::nonNull).list().ofMaxSize(max).map(ArrayDeque::new);
    }
    if (raw == ArrayList.class) {
      return element.list().ofMaxSize(max).map(ArrayList::new);
    }
    if (raw == LinkedList.class) {
      return element.list().ofMaxSize(max).map(LinkedList::new);
    }
    return Combinators.combine(element.list().ofMaxSize(max), Arbitraries.integers().between(0, 4))
        .as(
            (list, flavour) ->
                switch (list.contains(null) && flavour == 2 ? 0 : flavour) {
                  case 0 -> new ArrayList<>(list);
                  case 1 -> new LinkedList<>(list);
                  case 2 -> List.copyOf(list);
                  case 3 -> Collections.unmodifiableList(new ArrayList<>(list));
                  default -> list.stream().toList(); // immutable, nulls allowed
                });
  }

  private static Arbitrary<?> map(Type type, Class<?> raw, int depth) {
    Arbitrary<?> key = of(argument(type, 0), depth + 1).filter(Objects::nonNull);
    Arbitrary<?> value = of(argument(type, 1), depth + 1);
    int max = depth >= MAX_DEPTH ? 0 : 4;
    Arbitrary<? extends Map<?, ?>> maps = Arbitraries.maps(key, value).ofMaxSize(max);
    if (NavigableMap.class.isAssignableFrom(raw)) {
      return maps.map(TreeMap::new);
    }
    if (raw == HashMap.class) {
      return maps.map(HashMap::new);
    }
    return Combinators.combine(maps, Arbitraries.integers().between(0, 3))
        .as(
            (m, flavour) ->
                switch (m.containsValue(null) && flavour == 2 ? 0 : flavour) {
                  case 0 -> new HashMap<>(m);
                  case 1 -> new LinkedHashMap<>(m);
                  case 2 -> Map.copyOf(m);
                  default ->
                      m.containsValue(null) ? new LinkedHashMap<>(m) : new ConcurrentHashMap<>(m);
                });
  }

  // ---------------------------------------------------------------- user types

  private static Arbitrary<?> record(Type type, Class<?> raw, int depth) {
    RecordComponent[] components = raw.getRecordComponents();
    List<Arbitrary<Object>> parts = new ArrayList<>();
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      Type t = components[i].getGenericType();
      if (t instanceof TypeVariable<?> && type instanceof ParameterizedType p) {
        t = p.getActualTypeArguments()[0]; // Box<String>
      }
      parts.add(of(t, depth + 1).map(o -> o));
    }
    Constructor<?> ctor;
    try {
      ctor = raw.getDeclaredConstructor(types);
      ctor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(e);
    }
    if (parts.isEmpty()) {
      return Arbitraries.create(() -> newInstance(ctor, new Object[0]));
    }
    return Combinators.combine(parts).as(values -> newInstance(ctor, values.toArray()));
  }

  private static Arbitrary<?> pojo(Class<?> raw, int depth) {
    List<Field> fields = new ArrayList<>();
    for (Class<?> c = raw; c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers())) {
          f.setAccessible(true);
          fields.add(f);
        }
      }
    }
    List<Arbitrary<Object>> parts = new ArrayList<>();
    for (Field f : fields) {
      parts.add(of(f.getGenericType(), depth + 1).map(o -> o));
    }
    Constructor<?> ctor;
    try {
      ctor = raw.getDeclaredConstructor();
      ctor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new AssertionError("test POJOs need a no-argument constructor: " + raw, e);
    }
    return Combinators.combine(parts)
        .as(
            values -> {
              Object o = newInstance(ctor, new Object[0]);
              for (int i = 0; i < fields.size(); i++) {
                try {
                  fields.get(i).set(o, values.get(i));
                } catch (IllegalAccessException e) {
                  throw new AssertionError(e);
                }
              }
              return o;
            });
  }

  // ---------------------------------------------------------------- helpers

  private static Object newInstance(Constructor<?> ctor, Object[] args) {
    try {
      return ctor.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new LinkageError(e.getMessage(), e);
    }
  }

  private static Arbitrary<?> oneOf(List<Arbitrary<?>> choices) {
    List<Arbitrary<Object>> widened = new ArrayList<>();
    for (Arbitrary<?> c : choices) {
      widened.add(c.map(o -> o));
    }
    return Arbitraries.oneOf(widened);
  }

  private static Object toArray(Class<?> component, List<?> list) {
    Object array = java.lang.reflect.Array.newInstance(component, list.size());
    for (int i = 0; i < list.size(); i++) {
      java.lang.reflect.Array.set(array, i, list.get(i));
    }
    return array;
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

  private static Type argument(Type t, int i) {
    if (t instanceof ParameterizedType p) {
      Type arg = p.getActualTypeArguments()[i];
      return arg instanceof WildcardType w ? w.getUpperBounds()[0] : arg;
    }
    return Object.class;
  }

  static String describe(Object o) {
    return o != null && o.getClass().isArray()
        ? Arrays.deepToString(new Object[] {o})
        : String.valueOf(o);
  }
}
