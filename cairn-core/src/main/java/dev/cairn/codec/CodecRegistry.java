package dev.cairn.codec;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps a value's class to its codec (on put) and a stored type id back to the codec (on get).
 *
 * <p>Only registered types are ever decoded: a type id read from storage selects among the
 * codecs registered here and can never make Cairn load or instantiate an arbitrary class.
 * Immutable and thread-safe.
 *
 * <p>Type ids 1-15 are reserved for the built-in codecs of the primitive boxes, which every
 * registry holds. User ids run from {@link #FIRST_USER_TYPE_ID} to {@link #MAX_TYPE_ID}. A
 * registered codec for a built-in type replaces the built-in one.
 *
 * {@snippet :
 * CodecRegistry codecs = CodecRegistry.builder().register(100, new PointCodec()).build();
 * Pile pile = Pile.offHeap(PileOptions.builder().codecs(codecs).build());
 * }
 */
public final class CodecRegistry {

  public static final int FIRST_USER_TYPE_ID = 16;
  public static final int MAX_TYPE_ID = 16383;

  private static final CodecRegistry BUILT_IN = builder().build();

  private final Codec<?>[] byId;
  private final ClassValue<Integer> idByClass;

  private CodecRegistry(Codec<?>[] byId) {
    this.byId = byId;
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
   * The type id registered for {@code type}.
   *
   * @throws UnknownTypeException if none is
   */
  public int typeIdOf(Class<?> type) {
    Integer id = idByClass.get(type);
    if (id == null) {
      throw new UnknownTypeException(
          "no codec registered for type "
              + type.getName()
              + ": register one with CodecRegistry.builder().register(id, codec)");
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
      throw new UnknownTypeException("no codec registered for stored type id " + typeId);
    }
    return (Codec<T>) codec;
  }

  /** Builder of a {@link CodecRegistry}; starts with the built-in codecs. */
  public static final class Builder {
    private Codec<?>[] byId = new Codec<?>[FIRST_USER_TYPE_ID];

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
     * @throws IllegalArgumentException if the id is out of range or taken, or the type already
     *     has a user codec
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

    public CodecRegistry build() {
      return new CodecRegistry(byId.clone());
    }
  }
}
