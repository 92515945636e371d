package dev.cairn.codec.object;

import static dev.cairn.codec.object.Wire.BYTE;

import dev.cairn.codec.CorruptValueException;
import dev.cairn.codec.object.Desc.Prim;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Codecs of the leaf types: primitives (boxed), boxes, strings, primitive arrays and the JDK value
 * types. Stateless singletons, shared by every registry.
 *
 * <p>Layouts (see docs/FORMAT.md, "Object encoding"): a nullable value either folds null into its
 * first varint (0 = null, otherwise value + 1) or opens with a presence byte (0 = null, 1 =
 * present).
 */
final class ValueCodecs {
  private ValueCodecs() {}

  // ------------------------------------------------------------------------ unboxing helpers
  // Generated code reads a field through a ValueCodec (an Object) and stores it into a primitive
  // constructor argument or field with these: null (a field that was a box, or missing) is 0.

  static boolean unboxBoolean(Object o) {
    return o != null && (Boolean) o;
  }

  static byte unboxByte(Object o) {
    return o == null ? 0 : (Byte) o;
  }

  static short unboxShort(Object o) {
    return o == null ? 0 : (Short) o;
  }

  static char unboxChar(Object o) {
    return o == null ? 0 : (Character) o;
  }

  static int unboxInt(Object o) {
    return o == null ? 0 : (Integer) o;
  }

  static long unboxLong(Object o) {
    return o == null ? 0 : (Long) o;
  }

  static float unboxFloat(Object o) {
    return o == null ? 0 : (Float) o;
  }

  static double unboxDouble(Object o) {
    return o == null ? 0 : (Double) o;
  }

  /** Converts a box of {@code from} to the box of {@code to}; {@link Prim#widensTo} holds. */
  static Object widen(Object boxed, Prim from, Prim to) {
    if (boxed == null || from == to) {
      return boxed;
    }
    long integral;
    if (from == Prim.CHAR) {
      integral = (Character) boxed;
    } else if (from == Prim.FLOAT) {
      return ((Float) boxed).doubleValue(); // FLOAT widens only to DOUBLE
    } else {
      integral = ((Number) boxed).longValue();
    }
    return switch (to) {
      case SHORT -> (short) integral;
      case INT -> (int) integral;
      case LONG -> integral;
      case FLOAT -> (float) integral;
      case DOUBLE -> (double) integral;
      default -> throw new IllegalStateException("no widening " + from + " -> " + to);
    };
  }

  // ------------------------------------------------------------------------ primitives

  /** A primitive's raw wire form, as its box: for reading into a box, and for skipping. */
  static ValueCodec prim(Prim p) {
    return PRIMS[p.ordinal()];
  }

  /** A box: presence byte, then the primitive. */
  static ValueCodec box(Prim p) {
    return BOXES[p.ordinal()];
  }

  private static final ValueCodec[] PRIMS = new ValueCodec[Prim.values().length];
  private static final ValueCodec[] BOXES = new ValueCodec[Prim.values().length];

  static {
    for (Prim p : Prim.values()) {
      PRIMS[p.ordinal()] = new PrimCodec(p);
      BOXES[p.ordinal()] = new BoxCodec(p);
    }
  }

  static void writePrim(Prim p, Object v, Out out) {
    switch (p) {
      case BOOLEAN -> out.putBoolean((Boolean) v);
      case BYTE -> out.putByte((Byte) v);
      case SHORT -> out.putShort((Short) v);
      case CHAR -> out.putChar((Character) v);
      case INT -> out.putZigZagInt((Integer) v);
      case LONG -> out.putZigZagLong((Long) v);
      case FLOAT -> out.putFloat((Float) v);
      case DOUBLE -> out.putDouble((Double) v);
    }
  }

  static Object readPrim(Prim p, In in) {
    return switch (p) {
      case BOOLEAN -> in.readBoolean();
      case BYTE -> in.readByte();
      case SHORT -> in.readShort();
      case CHAR -> in.readChar();
      case INT -> in.readZigZagInt();
      case LONG -> in.readZigZagLong();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
    };
  }

  static void skipPrim(Prim p, In in) {
    switch (p) {
      case INT -> in.readVarInt();
      case LONG -> in.readVarLong();
      default -> in.skipBytes(p.width);
    }
  }

  private static final class PrimCodec extends ValueCodec {
    private final Prim prim;

    PrimCodec(Prim prim) {
      this.prim = prim;
    }

    @Override
    void write(Object v, Out out, int depth) {
      writePrim(prim, v, out);
    }

    @Override
    Object read(In in, int depth) {
      return readPrim(prim, in);
    }

    @Override
    void skip(In in, int depth) {
      skipPrim(prim, in);
    }
  }

  private static final class BoxCodec extends ValueCodec {
    private final Prim prim;

    BoxCodec(Prim prim) {
      this.prim = prim;
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
      } else {
        out.putByte(1);
        writePrim(prim, v, out);
      }
    }

    @Override
    Object read(In in, int depth) {
      return presence(in) ? readPrim(prim, in) : null;
    }

    @Override
    void skip(In in, int depth) {
      if (presence(in)) {
        skipPrim(prim, in);
      }
    }
  }

  static boolean presence(In in) {
    byte b = in.readByte();
    if ((b & ~1) != 0) {
      throw new CorruptValueException("not a presence byte: " + b);
    }
    return b != 0;
  }

  // ------------------------------------------------------------------------ strings

  static final ValueCodec STRING =
      new ValueCodec() {
        @Override
        void write(Object v, Out out, int depth) {
          out.putString((String) v);
        }

        @Override
        Object read(In in, int depth) {
          return in.readString();
        }

        @Override
        void skip(In in, int depth) {
          in.skipString();
        }
      };

  // ------------------------------------------------------------------------ primitive arrays

  static ValueCodec primArray(Prim p) {
    return PRIM_ARRAYS[p.ordinal()];
  }

  private static final ValueCodec[] PRIM_ARRAYS = new ValueCodec[Prim.values().length];

  static {
    for (Prim p : Prim.values()) {
      PRIM_ARRAYS[p.ordinal()] = new PrimArrayCodec(p);
    }
  }

  /** {@code PrimArray --> 0 (null) | Length+1:varint, Element[Length] (fixed width, LE)}. */
  private static final class PrimArrayCodec extends ValueCodec {
    private final Prim prim;
    private final int width;
    private final ValueLayout layout;

    PrimArrayCodec(Prim prim) {
      this.prim = prim;
      this.width =
          switch (prim) {
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
            default -> prim.width;
          };
      this.layout =
          switch (prim) {
            case BOOLEAN, BYTE -> BYTE;
            case SHORT -> Wire.SHORT_LE;
            case CHAR -> Wire.CHAR_LE;
            case INT -> Wire.INT_LE;
            case LONG -> Wire.LONG_LE;
            case FLOAT -> Wire.FLOAT_LE;
            case DOUBLE -> Wire.DOUBLE_LE;
          };
    }

    @Override
    void write(Object v, Out out, int depth) {
      if (v == null) {
        out.putByte(0);
        return;
      }
      int n = java.lang.reflect.Array.getLength(v);
      out.putVarInt(n + 1);
      out.ensure((long) n * width);
      MemorySegment target = MemorySegment.ofArray(out.buf);
      long p = out.pos;
      switch (v) {
        case boolean[] a -> {
          for (int i = 0; i < n; i++) {
            out.buf[(int) p + i] = (byte) (a[i] ? 1 : 0);
          }
        }
        case byte[] a -> System.arraycopy(a, 0, out.buf, (int) p, n);
        case short[] a -> MemorySegment.copy(a, 0, target, Wire.SHORT_LE, p, n);
        case char[] a -> MemorySegment.copy(a, 0, target, Wire.CHAR_LE, p, n);
        case int[] a -> MemorySegment.copy(a, 0, target, Wire.INT_LE, p, n);
        case long[] a -> MemorySegment.copy(a, 0, target, Wire.LONG_LE, p, n);
        case float[] a -> MemorySegment.copy(a, 0, target, Wire.FLOAT_LE, p, n);
        case double[] a -> MemorySegment.copy(a, 0, target, Wire.DOUBLE_LE, p, n);
        default -> throw new IllegalArgumentException("not a primitive array: " + v.getClass());
      }
      out.pos = (int) (p + (long) n * width);
    }

    @Override
    Object read(In in, int depth) {
      int header = in.readVarIntNonNegative("array length");
      if (header == 0) {
        return null;
      }
      int n = in.checkCount(header - 1L, width, prim.primName + "[] length");
      MemorySegment s = in.seg;
      long p = in.pos;
      Object result;
      switch (prim) {
        case BOOLEAN -> {
          boolean[] a = new boolean[n];
          for (int i = 0; i < n; i++) {
            byte b = s.get(BYTE, p + i);
            if ((b & ~1) != 0) {
              throw new CorruptValueException("not a boolean byte: " + b);
            }
            a[i] = b != 0;
          }
          result = a;
        }
        case BYTE -> {
          byte[] a = new byte[n];
          MemorySegment.copy(s, BYTE, p, a, 0, n);
          result = a;
        }
        case SHORT -> {
          short[] a = new short[n];
          MemorySegment.copy(s, Wire.SHORT_LE, p, a, 0, n);
          result = a;
        }
        case CHAR -> {
          char[] a = new char[n];
          MemorySegment.copy(s, Wire.CHAR_LE, p, a, 0, n);
          result = a;
        }
        case INT -> {
          int[] a = new int[n];
          MemorySegment.copy(s, Wire.INT_LE, p, a, 0, n);
          result = a;
        }
        case LONG -> {
          long[] a = new long[n];
          MemorySegment.copy(s, Wire.LONG_LE, p, a, 0, n);
          result = a;
        }
        case FLOAT -> {
          float[] a = new float[n];
          MemorySegment.copy(s, Wire.FLOAT_LE, p, a, 0, n);
          result = a;
        }
        case DOUBLE -> {
          double[] a = new double[n];
          MemorySegment.copy(s, Wire.DOUBLE_LE, p, a, 0, n);
          result = a;
        }
        default ->
            throw new IllegalStateException(
                "no reader for " + prim.primName + "[]: every primitive type needs a case here");
      }
      in.pos = p + (long) n * width;
      return result;
    }

    @Override
    void skip(In in, int depth) {
      int header = in.readVarIntNonNegative("array length");
      if (header != 0) {
        int n = in.checkCount(header - 1L, width, prim.primName + "[] length");
        in.skipBytes((long) n * width);
      }
    }

    @Override
    public String toString() {
      return prim.primName + "[] " + layout;
    }
  }

  // ------------------------------------------------------------------------ JDK value types

  /**
   * The codec of {@code kind}, built on first use. Why not all at class initialization: each is a
   * pair of lambdas, and linking about thirty of them took a third of a persistent pile's open in a
   * fresh JVM (JFR execution samples of {@code Pile.open} in a new process), for piles that may
   * never store a JDK value type. A race builds a codec twice; both are stateless, so either will
   * do.
   */
  static ValueCodec value(JdkValueType kind) {
    ValueCodec codec = VALUES.getAcquire(kind.ordinal());
    if (codec == null) {
      codec = valueCodec(kind);
      VALUES.setRelease(kind.ordinal(), codec);
    }
    return codec;
  }

  private static final AtomicReferenceArray<ValueCodec> VALUES =
      new AtomicReferenceArray<>(JdkValueType.values().length);

  /** Null folded into a varint: {@code 0} null, else {@code zigzag(v) + 1}. */
  private static void putNullableZigZag(Out out, long v) {
    out.putVarLong(Wire.zigZag(v) + 1);
  }

  /** Reads {@code zigzag(v) + 1}; the caller has handled 0 (null). */
  private static long zigZagMinusOne(long raw) {
    long z = raw - 1;
    return (z >>> 1) ^ -(z & 1);
  }

  private static LocalDate readDateBody(long raw) {
    long day = zigZagMinusOne(raw);
    if (day < LocalDate.MIN.toEpochDay() || day > LocalDate.MAX.toEpochDay()) {
      throw new CorruptValueException("epoch day out of range: " + day);
    }
    return LocalDate.ofEpochDay(day);
  }

  private static LocalTime readTimeBody(long nanoOfDay) {
    if (nanoOfDay < 0 || nanoOfDay > LocalTime.MAX.toNanoOfDay()) {
      throw new CorruptValueException("nano of day out of range: " + nanoOfDay);
    }
    return LocalTime.ofNanoOfDay(nanoOfDay);
  }

  private static void putDateTime(Out out, LocalDateTime v) {
    putNullableZigZag(out, v.toLocalDate().toEpochDay());
    out.putVarLong(v.toLocalTime().toNanoOfDay());
  }

  /** Reads a date-time after its first varint {@code raw} (not 0). */
  private static LocalDateTime readDateTimeBody(long raw, In in) {
    return LocalDateTime.of(readDateBody(raw), readTimeBody(in.readVarLong()));
  }

  private static ZoneOffset offset(int seconds) {
    if (seconds < -18 * 3600 || seconds > 18 * 3600) {
      throw new CorruptValueException("zone offset out of range: " + seconds);
    }
    return ZoneOffset.ofTotalSeconds(seconds);
  }

  /** {@code 1, ZigZag:varlong} if it fits a long, else {@code n + 2, Bytes[n]} big-endian. */
  private static void putBigInteger(Out out, BigInteger v) {
    if (v.bitLength() < 64) {
      out.putByte(1);
      out.putZigZagLong(v.longValue());
    } else {
      byte[] bytes = v.toByteArray();
      out.putVarInt(bytes.length + 2);
      out.putBytes(bytes, 0, bytes.length);
    }
  }

  /** Reads a BigInteger after its header {@code h} (not 0). */
  private static BigInteger readBigIntegerBody(int h, In in) {
    if (h == 1) {
      return BigInteger.valueOf(in.readZigZagLong());
    }
    int n = in.checkCount(h - 2L, 1, "BigInteger byte");
    if (n == 0) {
      throw new CorruptValueException("BigInteger with no bytes");
    }
    byte[] bytes = new byte[n];
    MemorySegment.copy(in.seg, BYTE, in.pos, bytes, 0, n);
    in.pos += n;
    return new BigInteger(bytes);
  }

  /** A value codec from a writer and a reader. */
  private static ValueCodec of(Writer write, Reader read) {
    return new ValueCodec() {
      @Override
      void write(Object v, Out out, int depth) {
        if (v == null) {
          out.putByte(0); // every value type's null is a single 0, except ZoneId's string
        } else {
          write.write(v, out);
        }
      }

      @Override
      Object read(In in, int depth) {
        return read.read(in);
      }
    };
  }

  @FunctionalInterface
  private interface Writer {
    void write(Object v, Out out);
  }

  @FunctionalInterface
  private interface Reader {
    Object read(In in);
  }

  private static ValueCodec valueCodec(JdkValueType kind) {
    return switch (kind) {
      case UUID_ ->
          of( // presence, msb:i64, lsb:i64
              (v, out) -> {
                out.putByte(1);
                out.putLong(((UUID) v).getMostSignificantBits());
                out.putLong(((UUID) v).getLeastSignificantBits());
              },
              in -> presence(in) ? new UUID(in.readLong(), in.readLong()) : null);
      case BIG_INTEGER ->
          of( // 0 null | BigIntegerBody
              (v, out) -> putBigInteger(out, (BigInteger) v),
              in -> {
                int h = in.readVarIntNonNegative("BigInteger header");
                return h == 0 ? null : readBigIntegerBody(h, in);
              });
      case BIG_DECIMAL ->
          of( // 0 null | Unscaled:BigIntegerBody, Scale:zigzag
              (v, out) -> {
                putBigInteger(out, ((BigDecimal) v).unscaledValue());
                out.putZigZagInt(((BigDecimal) v).scale());
              },
              in -> {
                int h = in.readVarIntNonNegative("BigDecimal header");
                if (h == 0) {
                  return null;
                }
                BigInteger unscaled = readBigIntegerBody(h, in);
                return new BigDecimal(unscaled, in.readZigZagInt());
              });
      case LOCAL_DATE ->
          of( // 0 null | zigzag(epochDay) + 1
              (v, out) -> putNullableZigZag(out, ((LocalDate) v).toEpochDay()),
              in -> {
                long raw = in.readVarLong();
                return raw == 0 ? null : readDateBody(raw);
              });
      case LOCAL_TIME ->
          of( // 0 null | nanoOfDay + 1
              (v, out) -> out.putVarLong(((LocalTime) v).toNanoOfDay() + 1),
              in -> {
                long raw = in.readVarLong();
                return raw == 0 ? null : readTimeBody(raw - 1);
              });
      case LOCAL_DATE_TIME ->
          of( // Date (0 null), NanoOfDay:varint
              (v, out) -> putDateTime(out, (LocalDateTime) v),
              in -> {
                long raw = in.readVarLong();
                return raw == 0 ? null : readDateTimeBody(raw, in);
              });
      case INSTANT ->
          of( // presence, Seconds:zigzag, Nanos:varint
              (v, out) -> {
                Instant instant = (Instant) v;
                out.putByte(1);
                out.putZigZagLong(instant.getEpochSecond());
                out.putVarInt(instant.getNano());
              },
              in -> {
                if (!presence(in)) {
                  return null;
                }
                long seconds = in.readZigZagLong();
                int nanos = in.readVarInt();
                if (seconds < Instant.MIN.getEpochSecond()
                    || seconds > Instant.MAX.getEpochSecond()
                    || nanos < 0
                    || nanos > 999_999_999) {
                  throw new CorruptValueException(
                      "instant out of range: " + seconds + "s " + nanos + "ns");
                }
                return Instant.ofEpochSecond(seconds, nanos);
              });
      case DURATION ->
          of( // presence, Seconds:zigzag, Nanos:varint
              (v, out) -> {
                Duration duration = (Duration) v;
                out.putByte(1);
                out.putZigZagLong(duration.getSeconds());
                out.putVarInt(duration.getNano());
              },
              in -> {
                if (!presence(in)) {
                  return null;
                }
                long seconds = in.readZigZagLong();
                int nanos = in.readVarInt();
                if (nanos < 0 || nanos > 999_999_999) {
                  throw new CorruptValueException("duration nanos out of range: " + nanos);
                }
                return Duration.ofSeconds(seconds, nanos);
              });
      case PERIOD ->
          of( // presence, Years, Months, Days: zigzag
              (v, out) -> {
                Period d = (Period) v;
                out.putByte(1);
                out.putZigZagInt(d.getYears());
                out.putZigZagInt(d.getMonths());
                out.putZigZagInt(d.getDays());
              },
              in ->
                  presence(in)
                      ? Period.of(in.readZigZagInt(), in.readZigZagInt(), in.readZigZagInt())
                      : null);
      case OFFSET_DATE_TIME ->
          of( // DateTime, Offset:zigzag
              (v, out) -> {
                putDateTime(out, ((OffsetDateTime) v).toLocalDateTime());
                out.putZigZagInt(((OffsetDateTime) v).getOffset().getTotalSeconds());
              },
              in -> {
                long raw = in.readVarLong();
                if (raw == 0) {
                  return null;
                }
                LocalDateTime t = readDateTimeBody(raw, in);
                return OffsetDateTime.of(t, offset(in.readZigZagInt()));
              });
      case OFFSET_TIME ->
          of( // NanoOfDay+1 (0 null), Offset:zigzag
              (v, out) -> {
                out.putVarLong(((OffsetTime) v).toLocalTime().toNanoOfDay() + 1);
                out.putZigZagInt(((OffsetTime) v).getOffset().getTotalSeconds());
              },
              in -> {
                long raw = in.readVarLong();
                if (raw == 0) {
                  return null;
                }
                LocalTime t = readTimeBody(raw - 1);
                return OffsetTime.of(t, offset(in.readZigZagInt()));
              });
      case ZONED_DATE_TIME ->
          of( // DateTime, Offset:zigzag, Zone:String
              (v, out) -> {
                ZonedDateTime z = (ZonedDateTime) v;
                putDateTime(out, z.toLocalDateTime());
                out.putZigZagInt(z.getOffset().getTotalSeconds());
                out.putString(z.getZone().getId());
              },
              in -> {
                long raw = in.readVarLong();
                if (raw == 0) {
                  return null;
                }
                LocalDateTime t = readDateTimeBody(raw, in);
                ZoneOffset offset = offset(in.readZigZagInt());
                ZoneId zone = zone(in.readString());
                return ZonedDateTime.ofLocal(t, zone, offset);
              });
      case ZONE_ID ->
          new ValueCodec() { // String (null as a null string)
            @Override
            void write(Object v, Out out, int depth) {
              out.putString(v == null ? null : ((ZoneId) v).getId());
            }

            @Override
            Object read(In in, int depth) {
              String id = in.readString();
              return id == null ? null : zone(id);
            }

            @Override
            void skip(In in, int depth) {
              in.skipString();
            }
          };
      case ZONE_OFFSET ->
          of( // zigzag(seconds) + 1 (0 null)
              (v, out) -> putNullableZigZag(out, ((ZoneOffset) v).getTotalSeconds()),
              in -> {
                long raw = in.readVarLong();
                return raw == 0 ? null : offset(Math.toIntExact(zigZagMinusOne(raw)));
              });
      case YEAR ->
          of( // zigzag(year) + 1 (0 null)
              (v, out) -> putNullableZigZag(out, ((Year) v).getValue()),
              in -> {
                long raw = in.readVarLong();
                return raw == 0 ? null : Year.of(Math.toIntExact(zigZagMinusOne(raw)));
              });
      case YEAR_MONTH ->
          of( // zigzag(year) + 1 (0 null), Month:u8
              (v, out) -> {
                putNullableZigZag(out, ((YearMonth) v).getYear());
                out.putByte(((YearMonth) v).getMonthValue());
              },
              in -> {
                long raw = in.readVarLong();
                if (raw == 0) {
                  return null;
                }
                int year = Math.toIntExact(zigZagMinusOne(raw));
                return YearMonth.of(year, in.readUnsignedByte());
              });
      case MONTH_DAY ->
          of( // Month:u8 (0 null), Day:u8
              (v, out) -> {
                out.putByte(((MonthDay) v).getMonthValue());
                out.putByte(((MonthDay) v).getDayOfMonth());
              },
              in -> {
                int month = in.readUnsignedByte();
                return month == 0 ? null : MonthDay.of(month, in.readUnsignedByte());
              });
      case DAY_OF_WEEK ->
          of( // u8 value 1-7 (0 null)
              (v, out) -> out.putByte(((DayOfWeek) v).getValue()),
              in -> {
                int d = in.readUnsignedByte();
                return d == 0 ? null : DayOfWeek.of(d);
              });
      case MONTH ->
          of( // u8 value 1-12 (0 null)
              (v, out) -> out.putByte(((Month) v).getValue()),
              in -> {
                int m = in.readUnsignedByte();
                return m == 0 ? null : Month.of(m);
              });
    };
  }

  /** A zone from its stored id: ZoneId.of reads the JDK's zone rules and loads no class. */
  private static ZoneId zone(String id) {
    if (id == null) {
      throw new CorruptValueException("zone id missing");
    }
    return ZoneId.of(id);
  }
}
