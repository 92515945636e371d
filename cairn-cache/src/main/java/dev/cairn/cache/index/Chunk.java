package dev.cairn.cache.index;

import java.util.Arrays;

/**
 * The slots one {@link HashIndex#collect} found: their addresses, pointers and meta words, as the
 * shard held them at one moment. Reused from call to call; not thread-safe.
 */
public final class Chunk {
  private long[] addresses = new long[8];
  private long[] pointers = new long[8];
  private long[] metas = new long[8];
  private int size;

  /** How many slots the last collect found. */
  public int size() {
    return size;
  }

  public long address(int i) {
    return addresses[i];
  }

  public long pointer(int i) {
    return pointers[i];
  }

  public long meta(int i) {
    return metas[i];
  }

  void clear() {
    size = 0;
  }

  void add(long address, long pointer, long meta) {
    if (size == addresses.length) {
      addresses = Arrays.copyOf(addresses, size * 2);
      pointers = Arrays.copyOf(pointers, size * 2);
      metas = Arrays.copyOf(metas, size * 2);
    }
    addresses[size] = address;
    pointers[size] = pointer;
    metas[size] = meta;
    size++;
  }
}
