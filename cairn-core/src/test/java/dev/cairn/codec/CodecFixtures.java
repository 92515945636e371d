package dev.cairn.codec;

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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.UUID;

/** The user types the object-codec tests store: every supported kind of field, and shapes of it. */
final class CodecFixtures {
  private CodecFixtures() {}

  enum Color {
    RED,
    GREEN,
    BLUE
  }

  /** An enum whose constants have bodies (so each constant is its own subclass). */
  enum Op {
    ADD {
      @Override
      int apply(int a, int b) {
        return a + b;
      }
    },
    MUL {
      @Override
      int apply(int a, int b) {
        return a * b;
      }
    };

    abstract int apply(int a, int b);
  }

  record Point(int x, int y) {}

  record Address(String street, String city, String zip) {}

  sealed interface Shape permits Circle, Square, Polygon, Blank {}

  record Circle(Point center, double radius) implements Shape {}

  record Square(Point corner, double side) implements Shape {}

  record Polygon(List<Point> points) implements Shape {}

  /** An enum that implements a sealed interface: stored by ordinal where the interface is. */
  enum Blank implements Shape {
    EMPTY
  }

  /** A recursive type: depth comes from the data. */
  record Tree(String label, List<Tree> children) {}

  /** A generic record: its component is an {@code any}. */
  record Box<T>(T value) {}

  /** Every kind of field the codec supports. */
  record Everything(
      boolean z,
      byte b,
      short s,
      char c,
      int i,
      long l,
      float f,
      double d,
      Boolean zBox,
      Byte bBox,
      Short sBox,
      Character cBox,
      Integer iBox,
      Long lBox,
      Float fBox,
      Double dBox,
      String string,
      byte[] bytes,
      boolean[] booleans,
      short[] shorts,
      char[] chars,
      int[] ints,
      long[] longs,
      float[] floats,
      double[] doubles,
      String[] strings,
      Point[] points,
      List<String>[] lists,
      List<String> list,
      Set<Integer> set,
      Map<String, Point> map,
      Collection<Long> collection,
      SortedSet<String> sorted,
      NavigableMap<Integer, String> navigable,
      Deque<String> deque,
      ArrayList<Integer> arrayList,
      HashMap<String, Integer> hashMap,
      LinkedList<Point> linked,
      Optional<String> optional,
      Optional<Point> optionalPoint,
      UUID uuid,
      BigInteger bigInteger,
      BigDecimal bigDecimal,
      LocalDate localDate,
      LocalTime localTime,
      LocalDateTime localDateTime,
      Instant instant,
      Duration duration,
      Period period,
      OffsetDateTime offsetDateTime,
      OffsetTime offsetTime,
      ZonedDateTime zonedDateTime,
      ZoneId zoneId,
      ZoneOffset zoneOffset,
      Year year,
      YearMonth yearMonth,
      MonthDay monthDay,
      DayOfWeek dayOfWeek,
      Month month,
      Color color,
      Op op,
      Shape shape,
      Address address,
      Tree tree,
      Object any,
      Comparable<?> comparable,
      Number number,
      Box<String> box,
      Map<Color, List<Address>> nested) {}

  // ---------------------------------------------------------------- POJOs

  /** A POJO hierarchy: the abstract base's fields are stored with each subclass. */
  abstract static class Animal {
    private String name;
    protected int legs;

    String name() {
      return name;
    }

    void name(String name) {
      this.name = name;
    }

    @Override
    @SuppressWarnings("EqualsGetClass") // a Dog is never equal to a Bird of the same name and legs
    public boolean equals(Object o) {
      return o != null
          && o.getClass() == getClass()
          && Objects.equals(((Animal) o).name, name)
          && ((Animal) o).legs == legs;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, legs);
    }
  }

  static final class Dog extends Animal {
    private boolean goodBoy;

    Dog() {}

    Dog(String name, boolean goodBoy) {
      name(name);
      this.legs = 4;
      this.goodBoy = goodBoy;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o) && ((Dog) o).goodBoy == goodBoy;
    }

    @Override
    public int hashCode() {
      return super.hashCode() * 31 + Boolean.hashCode(goodBoy);
    }
  }

  static final class Bird extends Animal {
    private double wingspan;

    @SuppressWarnings("unused") // built by the codec
    private Bird() {}

    Bird(String name, double wingspan) {
      name(name);
      this.legs = 2;
      this.wingspan = wingspan;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o) && ((Bird) o).wingspan == wingspan;
    }

    @Override
    public int hashCode() {
      return super.hashCode() * 31 + Double.hashCode(wingspan);
    }
  }

  /** A POJO holding an abstract-typed field, collections and a transient field. */
  static final class Zoo {
    private String name;
    private Animal star;
    private List<Animal> animals = new ArrayList<>();
    private Map<String, Integer> visitors = new TreeMap<>();
    private transient int cachedHash = -1;

    Zoo() {}

    Zoo(String name, Animal star, List<Animal> animals, Map<String, Integer> visitors) {
      this.name = name;
      this.star = star;
      this.animals = animals;
      this.visitors = visitors;
    }

    int cachedHash() {
      return cachedHash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Zoo z
          && Objects.equals(name, z.name)
          && Objects.equals(star, z.star)
          && Objects.equals(animals, z.animals)
          && Objects.equals(visitors, z.visitors);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, star, animals, visitors);
    }

    @Override
    public String toString() {
      return "Zoo[" + name + " " + star + " " + animals + " " + visitors + "]";
    }
  }

  /**
   * An immutable POJO: final fields, no no-argument constructor; built through the constructor
   * taking every field, matched by types (all distinct here).
   */
  static final class Money {
    private final long cents;
    private final String currency;

    Money(long cents, String currency) {
      this.cents = cents;
      this.currency = currency;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Money m && m.cents == cents && Objects.equals(m.currency, currency);
    }

    @Override
    public int hashCode() {
      return Objects.hash(cents, currency);
    }

    @Override
    public String toString() {
      return cents + " " + currency;
    }
  }

  /** A node of a linked structure, to make cycles and shared references. */
  static final class Node {
    String label;
    Node next;
    Node other;

    Node() {}

    Node(String label) {
      this.label = label;
    }
  }

  /** Has no way to be built: no no-argument constructor, and two fields of one type. */
  static final class Unbuildable {
    private final int a;
    private final int b;

    Unbuildable(int a, int b) {
      this.a = a;
      this.b = b;
    }

    int sum() {
      return a + b;
    }
  }

  /** A record with a field Cairn cannot store. */
  record HoldsThread(Thread thread) {}

  /** A record whose compact constructor rejects some values. */
  record Positive(int value) {
    Positive {
      if (value <= 0) {
        throw new IllegalArgumentException("not positive: " + value);
      }
    }
  }
}
