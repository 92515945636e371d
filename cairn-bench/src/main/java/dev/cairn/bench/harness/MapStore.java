package dev.cairn.bench.harness;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The heap baseline: a {@code ConcurrentHashMap<Long, V>} from value index to the value in its heap
 * form: a {@code byte[]} for strings and byte arrays, the {@link Person} object itself for persons.
 *
 * <p>It gets its best case, so that the pile/map ratios are conservative: it is presized for {@code
 * n} entries (no rehashing in the timed loop; the pile needs no sizing), and a string is kept as
 * its UTF-8 bytes, the smallest heap form, without a {@code String} around them. A get returns the
 * stored value itself, with no copy or decoding.
 *
 * @param <V> the heap form of a value
 */
final class MapStore<V> implements BenchStore {

  /**
   * How the map holds a value: what a put stores (a copy, doing the work the pile does on put) and
   * what a get of it adds to the checksum.
   */
  interface HeapForm<V> {
    V copyOf(Object value);

    long checksumOf(V stored);
  }

  /** A string as its UTF-8 bytes, a byte[] as its clone. */
  static final HeapForm<byte[]> BYTES =
      new HeapForm<>() {
        @Override
        public byte[] copyOf(Object value) {
          // the same work the pile does on put: encode a string, copy a byte[]
          return value instanceof String string
              ? string.getBytes(StandardCharsets.UTF_8)
              : ((byte[]) value).clone();
        }

        @Override
        public long checksumOf(byte[] stored) {
          return ValueSource.checksumOf(stored, stored.length);
        }
      };

  /**
   * A Person as a deep copy: its own strings and date, as n real people would have, where storing
   * the pool's shared objects would make the map's memory that of 64K people.
   */
  static final HeapForm<Person> PERSON =
      new HeapForm<>() {
        @Override
        public Person copyOf(Object value) {
          return ((Person) value).deepCopy();
        }

        @Override
        public long checksumOf(Person stored) {
          return ValueSource.checksumOf(stored);
        }
      };

  private final ConcurrentHashMap<Long, V> map;
  private final HeapForm<V> form;

  MapStore(int n, HeapForm<V> form) {
    this.map = new ConcurrentHashMap<>(n);
    this.form = form;
  }

  /** The map for values of {@code kind}. */
  static MapStore<?> of(BenchValueKind kind, int n) {
    return kind == BenchValueKind.PERSON ? new MapStore<>(n, PERSON) : new MapStore<>(n, BYTES);
  }

  @Override
  public void put(int index, Object value) {
    map.put((long) index, form.copyOf(value));
  }

  @Override
  public long get(int index, byte[] buffer) {
    return form.checksumOf(map.get((long) index));
  }

  @Override
  public void delete(int index) {
    map.remove((long) index);
  }

  @Override
  public void reportAccounting(StoreResult result, int n) {
    // a map keeps no account of its memory; the live-heap growth is its accounting
  }

  @Override
  public void close() {
    map.clear();
  }
}
