package dev.cairn.cache.policy.simulator;

import dev.cairn.cache.policy.FrequencySketch;
import dev.cairn.cache.policy.PolicyBitsLayout;
import dev.cairn.cache.policy.TinyLfuClock;

/**
 * The cache's policy as the index will drive it: {@link TinyLfuClock} over a {@link SlotTable},
 * with the call sequence of a get-or-put: a hit calls {@code onHit}; a miss calls {@code onMiss},
 * stores the entry, calls {@code onInsert}, then removes each {@code nextVictim} until the budget
 * holds.
 */
public final class ClockSimulation implements CachePolicy {
  private final SlotTable table;
  private final FrequencySketch sketch;
  private final TinyLfuClock policy;
  private final long budgetBytes;
  private final String name;
  private long maxOverBudgetBytes;
  private long maxWindowBytes;

  public ClockSimulation(
      String name,
      long budgetBytes,
      long expectedEntries,
      int distinctKeys,
      TinyLfuClock.Options options) {
    this(name, budgetBytes, expectedEntries, distinctKeys, options, FrequencySketch.MIN_BYTES);
  }

  /** As above, with a sketch of at least {@code sketchMinBytes} instead of the cache's floor. */
  public ClockSimulation(
      String name,
      long budgetBytes,
      long expectedEntries,
      int distinctKeys,
      TinyLfuClock.Options options,
      long sketchMinBytes) {
    this.name = name;
    this.budgetBytes = budgetBytes;
    table = new SlotTable(expectedEntries, distinctKeys);
    sketch = new FrequencySketch(expectedEntries, sketchMinBytes);
    policy = new TinyLfuClock(table, sketch, budgetBytes, options);
  }

  @Override
  public boolean access(int id, long sizeBytes) {
    int slot = table.slotOf(id);
    if (slot >= 0) {
      policy.onHit(slot);
      return true;
    }
    policy.onMiss(SlotTable.hashOf(id));
    if (sizeBytes > budgetBytes) {
      return false;
    }
    int inserted = table.insert(id, sizeBytes);
    policy.onInsert(inserted);
    sketch.ensureCapacity(table.count());
    maxOverBudgetBytes = Math.max(maxOverBudgetBytes, policy.usedBytes() - budgetBytes);
    maxWindowBytes = Math.max(maxWindowBytes, policy.windowMaxBytes());
    for (long victim = policy.nextVictim(); victim >= 0; victim = policy.nextVictim()) {
      policy.onRemove(victim);
      table.remove(victim);
    }
    if (policy.usedBytes() > budgetBytes) {
      throw new AssertionError(
          "over budget after eviction (I3): usedBytes="
              + policy.usedBytes()
              + " budgetBytes="
              + budgetBytes);
    }
    return false;
  }

  /**
   * Checks the policy's totals against the slots (TinyLfuClock's I1): the bytes and entries
   * counted, and the window and protected bytes, equal the sums over the table.
   */
  public void validate() {
    long used = 0;
    long window = 0;
    long protectedBytes = 0;
    long entries = 0;
    for (long slot = 0; slot < table.slotCount(); slot++) {
      if (!table.occupied(slot)) {
        continue;
      }
      int segment = PolicyBitsLayout.segment(table.bits(slot));
      if (segment == PolicyBitsLayout.LEAVING) {
        throw new AssertionError("a victim left in the table at slot " + slot);
      }
      long size = table.sizeBytes(slot);
      used += size;
      entries++;
      if (segment == PolicyBitsLayout.WINDOW) {
        window += size;
      } else if (segment == PolicyBitsLayout.PROTECTED) {
        protectedBytes += size;
      }
    }
    check("usedBytes", used, policy.usedBytes());
    check("entries", entries, policy.entries());
    check("windowBytes", window, policy.windowBytes());
    check("protectedBytes", protectedBytes, policy.protectedBytes());
  }

  private static void check(String what, long slots, long counted) {
    if (slots != counted) {
      throw new AssertionError(
          "policy total differs from the slots (I1): "
              + what
              + " slots="
              + slots
              + " counted="
              + counted);
    }
  }

  public TinyLfuClock policy() {
    return policy;
  }

  public SlotTable table() {
    return table;
  }

  /** The largest window share the hill climber chose, in bytes. */
  public long maxWindowBytes() {
    return maxWindowBytes;
  }

  /** How far over the budget an insert took the cache before its evictions, at most. */
  public long maxOverBudgetBytes() {
    return maxOverBudgetBytes;
  }

  @Override
  public long usedBytes() {
    return policy.usedBytes();
  }

  @Override
  public String name() {
    return name;
  }
}
