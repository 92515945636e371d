package dev.cairn.cache;

import java.lang.foreign.MemorySegment;

/**
 * What defines a table, logged when it is created and kept in every checkpoint of a persistent
 * cache: a reopen checks the key and value types against it.
 *
 * @param id the table's id in index records (0 to {@link CacheCore#MAX_TABLES} - 1)
 * @param name its name
 * @param keyType the name of its key codec ({@code long}, {@code string}, {@code bytes}, {@code
 *     uuid}, or a class name)
 * @param valueType the class name of its values
 * @param seed the seed of its key hash
 * @param epochMillis the origin of the slots' expiry seconds
 * @param options its options
 * @param placement how its index places keys (fixed at creation)
 */
record TableDescriptor(
    int id,
    String name,
    String keyType,
    String valueType,
    long seed,
    long epochMillis,
    TableOptions options,
    KeyPlacement placement) {

  /** The hash of the key of {@code length} bytes in {@code bytes}. */
  long hash(MemorySegment bytes, int length) {
    return placement.hash(bytes, length, seed);
  }

  /** The form of a bare entry of this table ({@link EntryLayout#bareForm}). */
  long bareForm() {
    return EntryLayout.bareForm(keyType, valueType);
  }

  /** This descriptor with other options. */
  TableDescriptor withOptions(TableOptions newOptions) {
    return new TableDescriptor(
        id, name, keyType, valueType, seed, epochMillis, newOptions, placement);
  }
}
