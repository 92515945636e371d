package dev.cairn.codec.object;

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
import java.util.UUID;

/**
 * The JDK value types Cairn encodes natively, each with its descriptor name and its built-in tag
 * (the tag a value of the type carries where a field is declared {@code any}).
 */
enum JdkValueType {
  UUID_(UUID.class, "UUID", 18),
  BIG_INTEGER(BigInteger.class, "BigInteger", 19),
  BIG_DECIMAL(BigDecimal.class, "BigDecimal", 20),
  LOCAL_DATE(LocalDate.class, "LocalDate", 21),
  LOCAL_TIME(LocalTime.class, "LocalTime", 22),
  LOCAL_DATE_TIME(LocalDateTime.class, "LocalDateTime", 23),
  INSTANT(Instant.class, "Instant", 24),
  DURATION(Duration.class, "Duration", 25),
  PERIOD(Period.class, "Period", 26),
  OFFSET_DATE_TIME(OffsetDateTime.class, "OffsetDateTime", 27),
  OFFSET_TIME(OffsetTime.class, "OffsetTime", 28),
  ZONED_DATE_TIME(ZonedDateTime.class, "ZonedDateTime", 29),
  ZONE_ID(ZoneId.class, "ZoneId", 30),
  ZONE_OFFSET(ZoneOffset.class, "ZoneOffset", 31),
  YEAR(Year.class, "Year", 32),
  YEAR_MONTH(YearMonth.class, "YearMonth", 33),
  MONTH_DAY(MonthDay.class, "MonthDay", 34),
  DAY_OF_WEEK(DayOfWeek.class, "DayOfWeek", 35),
  MONTH(Month.class, "Month", 36);

  private final Class<?> type;
  private final String typeName;
  private final int tag;

  JdkValueType(Class<?> type, String typeName, int tag) {
    this.type = type;
    this.typeName = typeName;
    this.tag = tag;
  }

  Class<?> type() {
    return type;
  }

  String typeName() {
    return typeName;
  }

  int tag() {
    return tag;
  }

  /** The value type whose declared type is exactly {@code c}, or null. */
  static JdkValueType ofDeclared(Class<?> c) {
    for (JdkValueType k : values()) {
      if (k.type == c) {
        return k;
      }
    }
    return null;
  }

  /**
   * The value type a runtime value of class {@code c} is stored as, or null. {@code ZoneId} values
   * are {@code ZoneRegion} (a JDK-internal subclass) or {@code ZoneOffset}.
   */
  static JdkValueType ofRuntime(Class<?> c) {
    JdkValueType k = ofDeclared(c);
    if (k == null && ZoneId.class.isAssignableFrom(c)) {
      return ZONE_ID;
    }
    return k;
  }

  private static final JdkValueType[] BY_TAG = byTagTable();

  private static JdkValueType[] byTagTable() {
    int last = 0;
    for (JdkValueType k : values()) {
      last = Math.max(last, k.tag);
    }
    JdkValueType[] table = new JdkValueType[last + 1];
    for (JdkValueType k : values()) {
      table[k.tag] = k;
    }
    return table;
  }

  /** The value type whose built-in tag is {@code tag}, or null. */
  static JdkValueType byTag(int tag) {
    return tag >= 0 && tag < BY_TAG.length ? BY_TAG[tag] : null;
  }

  static JdkValueType byName(String name) {
    for (JdkValueType k : values()) {
      if (k.typeName.equals(name)) {
        return k;
      }
    }
    return null;
  }
}
