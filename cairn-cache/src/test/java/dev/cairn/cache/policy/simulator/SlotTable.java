package dev.cairn.cache.policy.simulator;

import dev.cairn.cache.policy.PolicyBitsLayout;
import dev.cairn.cache.policy.SlotView;
import java.util.Arrays;

/**
 * A model of the off-heap index for the simulator: an open-addressing table whose slot for a key is
 * given by the key's hash (linear probing from the top bits of the hash), so that the order of
 * slots is unrelated to the order of insertion, as in the real index. It doubles past 3/4 full, and
 * a removal shifts later entries of the probe run back, so entries move as they do in a splitting
 * index; their policy bits move with them.
 *
 * <p>Keys are the dense ids of {@link Trace}. An entry's hash is {@code id << 32 | mix32(id)}:
 * unique per key, so {@link #find} is exact, and well mixed in its low half.
 */
public final class SlotTable implements SlotView {
  private static final int EMPTY = -1;

  private int[] ids;
  private long[] sizes;
  private byte[] bits;
  private boolean[] pinned;
  private int[] slotOfId;
  private int shift;
  private int count;
  private long moves;

  public SlotTable(long expectedEntries, int distinctKeys) {
    int slots = Integer.highestOneBit((int) Math.max(16, expectedEntries * 4 / 3 + 1)) << 1;
    allocate(slots);
    slotOfId = new int[distinctKeys];
    Arrays.fill(slotOfId, EMPTY);
  }

  private void allocate(int slots) {
    ids = new int[slots];
    Arrays.fill(ids, EMPTY);
    sizes = new long[slots];
    bits = new byte[slots];
    pinned = new boolean[slots];
    shift = Long.SIZE - Integer.numberOfTrailingZeros(slots);
  }

  public static long hashOf(int id) {
    long z = (id + 1) * 0x9E37_79B9_7F4A_7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    z ^= z >>> 31;
    return ((long) id << 32) | (z & 0xFFFF_FFFFL);
  }

  private int home(int id) {
    long z = (id + 7) * 0xD6E8_FEB8_6659_FD93L;
    z = (z ^ (z >>> 32)) * 0xD6E8_FEB8_6659_FD93L;
    z ^= z >>> 32;
    return (int) ((z * 0x9E37_79B9_7F4A_7C15L) >>> shift);
  }

  /** The slot of key {@code id}, or -1. */
  public int slotOf(int id) {
    return slotOfId[id];
  }

  public int count() {
    return count;
  }

  /** How many entries removals and growth have moved so far. */
  public long moves() {
    return moves;
  }

  /**
   * Stores key {@code id} (absent) with {@code sizeBytes}; returns its slot. Its bits are LEAVING:
   * not counted until the policy's onInsert.
   */
  public int insert(int id, long sizeBytes) {
    if ((count + 1) * 4L > ids.length * 3L) {
      grow();
    }
    int mask = ids.length - 1;
    int slot = home(id);
    while (ids[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    ids[slot] = id;
    sizes[slot] = sizeBytes;
    bits[slot] = (byte) PolicyBitsLayout.bits(PolicyBitsLayout.LEAVING, 0);
    pinned[slot] = false;
    slotOfId[id] = slot;
    count++;
    return slot;
  }

  /** Removes the entry of {@code slot}; later entries of its probe run may move back. */
  public void remove(long slot) {
    int mask = ids.length - 1;
    int hole = (int) slot;
    slotOfId[ids[hole]] = EMPTY;
    ids[hole] = EMPTY;
    count--;
    for (int next = (hole + 1) & mask; ids[next] != EMPTY; next = (next + 1) & mask) {
      int home = home(ids[next]);
      // move next into the hole if its home is not in (hole, next] cyclically
      boolean stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (!stays) {
        ids[hole] = ids[next];
        sizes[hole] = sizes[next];
        bits[hole] = bits[next];
        pinned[hole] = pinned[next];
        slotOfId[ids[hole]] = hole;
        ids[next] = EMPTY;
        moves++;
        hole = next;
      }
    }
  }

  public void setPinned(long slot, boolean value) {
    pinned[(int) slot] = value;
  }

  public void setSize(long slot, long sizeBytes) {
    sizes[(int) slot] = sizeBytes;
  }

  public int idAt(long slot) {
    return ids[(int) slot];
  }

  private void grow() {
    int[] oldIds = ids;
    long[] oldSizes = sizes;
    byte[] oldBits = bits;
    boolean[] oldPinned = pinned;
    allocate(oldIds.length * 2);
    int mask = ids.length - 1;
    for (int i = 0; i < oldIds.length; i++) {
      int id = oldIds[i];
      if (id == EMPTY) {
        continue;
      }
      int slot = home(id);
      while (ids[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      ids[slot] = id;
      sizes[slot] = oldSizes[i];
      bits[slot] = oldBits[i];
      pinned[slot] = oldPinned[i];
      slotOfId[id] = slot;
      moves++;
    }
  }

  @Override
  public long slotCount() {
    return ids.length;
  }

  @Override
  public boolean occupied(long slot) {
    return ids[(int) slot] != EMPTY;
  }

  @Override
  public boolean pinned(long slot) {
    return pinned[(int) slot];
  }

  @Override
  public long hash(long slot) {
    return hashOf(ids[(int) slot]);
  }

  @Override
  public long find(long hash) {
    int id = (int) (hash >>> 32);
    return id >= 0 && id < slotOfId.length && slotOfId[id] != EMPTY && hashOf(id) == hash
        ? slotOfId[id]
        : -1;
  }

  @Override
  public long sizeBytes(long slot) {
    return sizes[(int) slot];
  }

  @Override
  public int bits(long slot) {
    return bits[(int) slot] & 0xFF;
  }

  @Override
  public boolean compareAndSetBits(long slot, int expected, int value) {
    if ((bits[(int) slot] & 0xFF) != expected) {
      return false;
    }
    bits[(int) slot] = (byte) value;
    return true;
  }
}
