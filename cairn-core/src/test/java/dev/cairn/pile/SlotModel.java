package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cairn.pile.participant.SlotTable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What a {@link SlotTable} must hold after a crash: the acknowledged slots (a pointer and the bytes
 * of its value) and the pointers removed, and the ops in flight at the crash, each of which
 * happened wholly or not at all. Shared by the power-loss and the kill -9 tests.
 *
 * <p>Thread-safety: one thread at a time (a writer thread's own model, or the checking thread).
 */
final class SlotModel {

  /** A write that was under way: after a crash it happened wholly, or not at all. */
  sealed interface Op {}

  record Put(int region, int slot, byte[] value) implements Op {}

  record Delete(int region, int slot, long pointer) implements Op {}

  record Update(int region, int slot, long pointer, byte[] value) implements Op {}

  record Move(int fromRegion, int fromSlot, int toRegion, int toSlot, long pointer) implements Op {}

  private record Held(long pointer, byte[] value) {}

  private final int slotsPerRegion;
  private final Map<Long, Held> slots = new HashMap<>(); // region * slotsPerRegion + slot
  private final Set<Long> removed = new HashSet<>();

  SlotModel(int slotsPerRegion) {
    this.slotsPerRegion = slotsPerRegion;
  }

  /** The bytes of value {@code seq} of {@code thread}: reproducible from the three numbers. */
  static byte[] value(int thread, long seq, int length) {
    byte[] bytes = new byte[length];
    byte[] prefix = (thread + ":" + seq + ":").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(prefix, 0, bytes, 0, Math.min(prefix.length, length));
    SplittableRandom random = new SplittableRandom(thread * 1_000_003L + seq);
    for (int i = prefix.length; i < length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  private long key(int region, int slot) {
    return (long) region * slotsPerRegion + slot;
  }

  /** The pointer slot {@code (region, slot)} holds, 0 if none. */
  long pointer(int region, int slot) {
    Held held = slots.get(key(region, slot));
    return held == null ? 0 : held.pointer();
  }

  /** An acknowledged op; {@code pointer} is the put's (other ops ignore it). */
  void acknowledged(Op op, long pointer) {
    switch (op) {
      case Put p -> slots.put(key(p.region(), p.slot()), new Held(pointer, p.value()));
      case Delete d -> {
        slots.remove(key(d.region(), d.slot()));
        removed.add(d.pointer());
      }
      case Update u -> slots.put(key(u.region(), u.slot()), new Held(u.pointer(), u.value()));
      case Move m -> {
        Held held = slots.remove(key(m.fromRegion(), m.fromSlot()));
        slots.put(key(m.toRegion(), m.toSlot()), held);
      }
    }
  }

  /**
   * Takes slot {@code (region, slot)} as holding {@code pointer}, whose bytes this model does not
   * know: a child JVM's writer starting from what the table holds (it never checks values).
   */
  void adopt(int region, int slot, long pointer) {
    slots.put(key(region, slot), new Held(pointer, null));
  }

  /** Takes in another thread's model (whose slots are disjoint from this one's). */
  void addAll(SlotModel other) {
    slots.putAll(other.slots);
    removed.addAll(other.removed);
  }

  /**
   * After a recovery: settles each op of {@code inFlight} by what the table holds (it happened
   * wholly or not at all), then checks that every slot holds what the model says, that each pointer
   * a slot holds is live with the value recorded, that nothing removed came back, that the pile
   * holds nothing else, and that it verifies.
   */
  void checkAfterRecovery(
      OffHeapPile pile, SlotTable table, Collection<Op> inFlight, int regions, String label) {
    assertThat(table.regionCount()).as(label + ": regions").isEqualTo(regions);
    assertThat(table.staleInReplay()).as(label + ": regions stale in replay").isZero();
    for (Op op : inFlight) {
      settle(pile, table, op, label);
    }
    long filled = 0;
    for (int region = 0; region < regions; region++) {
      for (int slot = 0; slot < slotsPerRegion; slot++) {
        long found = table.get(region, slot);
        Held held = slots.get(key(region, slot));
        String where = label + ": slot " + region + "/" + slot;
        if (held == null) {
          assertThat(found).as(where + " should be empty").isZero();
          continue;
        }
        assertThat(Long.toHexString(found))
            .as(where + ": the acknowledged pointer")
            .isEqualTo(Long.toHexString(held.pointer()));
        byte[] stored;
        try {
          stored = pile.getBytes(found);
        } catch (PointerException e) {
          throw new AssertionError(where + ": holds a dead pointer " + Long.toHexString(found), e);
        }
        if (!Arrays.equals(stored, held.value())) {
          fail(where + ": value of " + Long.toHexString(found) + " is not the acknowledged one");
        }
        filled++;
      }
    }
    for (long pointer : removed) {
      try {
        pile.sizeOf(pointer);
        fail(label + ": a removed value came back: " + Long.toHexString(pointer));
      } catch (PointerException expected) {
        // gone, as acknowledged
      }
    }
    assertThat(pile.stats().objectCount())
        .as(label + ": the regions and the slots' values," + " nothing else")
        .isEqualTo(regions + filled);
    pile.verify();
  }

  /** After a recovery: whether {@code op} happened, by what the table holds; the model follows. */
  void settle(OffHeapPile pile, SlotTable table, Op op, String label) {
    String where = label + ": in flight " + op;
    switch (op) {
      case Put p -> {
        long found = table.get(p.region(), p.slot());
        if (found != 0) {
          byte[] stored;
          try {
            stored = pile.getBytes(found);
          } catch (PointerException e) {
            throw new AssertionError(
                where
                    + ": the slot holds "
                    + Long.toHexString(found)
                    + ", a value that is not there (the slot's write without its put)",
                e);
          }
          assertThat(stored).as(where).isEqualTo(p.value());
          acknowledged(p, found);
        }
      }
      case Delete d -> {
        long found = table.get(d.region(), d.slot());
        if (found == 0) {
          acknowledged(d, 0);
        } else {
          assertThat(found).as(where).isEqualTo(d.pointer());
        }
      }
      case Update u -> {
        assertThat(table.get(u.region(), u.slot())).as(where).isEqualTo(u.pointer());
        if (Arrays.equals(pile.getBytes(u.pointer()), u.value())) {
          acknowledged(u, 0);
        }
      }
      case Move m -> {
        long from = table.get(m.fromRegion(), m.fromSlot());
        long to = table.get(m.toRegion(), m.toSlot());
        if (from == 0 && to == m.pointer()) {
          acknowledged(m, 0);
        } else {
          assertThat(new long[] {from, to}).as(where).containsExactly(m.pointer(), 0);
        }
      }
    }
  }

  /** A summary, for failure messages. */
  @Override
  public String toString() {
    return "SlotModel(" + slots.size() + " slots, " + removed.size() + " removed)";
  }
}
