package dev.cairn.cli.bench;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The heap baseline: a {@code ConcurrentHashMap<Long, byte[]>} from value index to value bytes.
 *
 * <p>It gets its best case, so that the pile/map ratios are conservative: it is presized for
 * {@code n} entries (no rehashing in the timed loop; the pile needs no sizing), and a string is
 * kept as its UTF-8 bytes, the smallest heap form, without a {@code String} around them. A get
 * returns the stored array itself, with no copy.
 */
final class MapStore implements BenchStore {
  private final ConcurrentHashMap<Long, byte[]> map;

  MapStore(int n) {
    map = new ConcurrentHashMap<>(n);
  }

  @Override
  public void put(int index, Object value) {
    // the same work the pile does on put: encode a string, copy a byte[]
    byte[] bytes =
        value instanceof String string
            ? string.getBytes(StandardCharsets.UTF_8)
            : ((byte[]) value).clone();
    map.put((long) index, bytes);
  }

  @Override
  public long get(int index, byte[] buffer) {
    byte[] value = map.get((long) index);
    return ValueSource.checksumOf(value, value.length);
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
