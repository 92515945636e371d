package dev.cairn.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a {@link CodecRegistry} keeps the schemas of its object types: the seam through which the
 * type registry lives with the data.
 *
 * <p>The registry reads {@link #load()} once, when it is built, and calls {@link
 * #onNewSchema(TypeSchema)} each time a type needs a layout the catalog does not hold yet, before
 * the type's id is handed out and therefore before any object of it is written. A persistent pile
 * implements {@code onNewSchema} by appending the schema's {@link TypeSchema#toBytes() bytes} to
 * its log and forcing them to disk before returning, so no crash can leave an object whose schema
 * is lost.
 *
 * <p>Calls to {@code onNewSchema} are serialized by the registry. If it throws, the type gets no id
 * and the put that needed it fails with that exception; a later put tries again.
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=type-catalog}
 */
public interface TypeCatalog {

  /** The schemas already stored with the data, read once when a registry is built. */
  List<TypeSchema> load();

  /**
   * A schema about to be used for the first time. Must make it durable before returning.
   *
   * @throws RuntimeException to refuse it; the put that needed it fails
   */
  void onNewSchema(TypeSchema schema);

  /**
   * A catalog in memory: what one registry adds, a registry built later with the same catalog
   * loads. This is what a volatile pile needs (its data and its schemas die together), and it lets
   * tests play a restart with changed classes. Thread-safe.
   */
  static TypeCatalog inMemory() {
    return new TypeCatalog() {
      private final List<TypeSchema> schemas = new ArrayList<>();

      @Override
      public synchronized List<TypeSchema> load() {
        return List.copyOf(schemas);
      }

      @Override
      public synchronized void onNewSchema(TypeSchema schema) {
        for (TypeSchema s : schemas) {
          if (s.typeId() == schema.typeId()) {
            throw new IllegalStateException(
                "type id already in the catalog: typeId="
                    + schema.typeId()
                    + " held by "
                    + s.typeName()
                    + ", offered "
                    + schema.typeName());
          }
        }
        schemas.add(schema);
      }

      @Override
      public String toString() {
        return "TypeCatalog.inMemory" + load();
      }
    };
  }
}
