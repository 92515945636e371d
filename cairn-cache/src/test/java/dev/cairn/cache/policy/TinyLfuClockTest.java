package dev.cairn.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.policy.simulator.SlotTable;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TinyLfuClockTest {
  private static final int KEYS = 10_000;

  private final SlotTable table = new SlotTable(64, KEYS);
  private TinyLfuClock policy = new TinyLfuClock(table, new FrequencySketch(64), 100);

  /** A get-or-put of key {@code id} as the index would do it; returns whether it was a hit. */
  private boolean access(int id, long sizeBytes, boolean pin) {
    int slot = table.slotOf(id);
    if (slot >= 0) {
      policy.onHit(slot);
      return true;
    }
    policy.onMiss(SlotTable.hashOf(id));
    int inserted = table.insert(id, sizeBytes);
    table.setPinned(inserted, pin);
    policy.onInsert(inserted);
    evict();
    return false;
  }

  private void evict() {
    for (long victim = policy.nextVictim(); victim >= 0; victim = policy.nextVictim()) {
      assertThat(table.pinned(victim)).as("a pinned entry chosen as victim (I2)").isFalse();
      assertThat(PolicyBitsLayout.segment(table.bits(victim))).isEqualTo(PolicyBitsLayout.LEAVING);
      policy.onRemove(victim);
      table.remove(victim);
    }
  }

  /** I1: the policy's totals equal the sums over the slots. */
  private void validate() {
    long used = 0;
    long window = 0;
    long protectedBytes = 0;
    long entries = 0;
    for (long slot = 0; slot < table.slotCount(); slot++) {
      if (table.occupied(slot)) {
        int segment = PolicyBitsLayout.segment(table.bits(slot));
        assertThat(segment).as("slot %d", slot).isNotEqualTo(PolicyBitsLayout.LEAVING);
        used += table.sizeBytes(slot);
        entries++;
        window += segment == PolicyBitsLayout.WINDOW ? table.sizeBytes(slot) : 0;
        protectedBytes += segment == PolicyBitsLayout.PROTECTED ? table.sizeBytes(slot) : 0;
      }
    }
    assertThat(policy.usedBytes()).as("usedBytes").isEqualTo(used);
    assertThat(policy.entries()).as("entries").isEqualTo(entries);
    assertThat(policy.windowBytes()).as("windowBytes").isEqualTo(window);
    assertThat(policy.protectedBytes()).as("protectedBytes").isEqualTo(protectedBytes);
  }

  @Test
  void pinnedEntries_areNeverEvicted_I2() {
    for (int id = 0; id < 20; id++) {
      access(id, 1, true);
    }
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 50_000; i++) {
      access(20 + random.nextInt(2_000), 1, false);
    }
    for (int id = 0; id < 20; id++) {
      assertThat(table.slotOf(id)).as("pinned key %d", id).isNotNegative();
    }
    assertThat(policy.usedBytes()).isLessThanOrEqualTo(policy.budgetBytes());
    validate();
  }

  @Test
  void probationGrace_spendsOnePassOfTheHandBeforeAnEntryMayBeAVictim() {
    policy =
        new TinyLfuClock(
            table,
            new FrequencySketch(64),
            100,
            TinyLfuClock.Options.DEFAULT.withProbationGrace(1));
    for (int id = 0; id < 100; id++) {
      access(id, 1, false);
    }
    long graced = probationEntriesAged(1);
    assertThat(graced).as("entries that left the window carry the grace").isGreaterThan(90);
    assertThat(probationEntriesAged(0)).isZero();

    access(100, 1, false); // over budget: the hand passes every graced entry before a victim

    assertThat(policy.usedBytes()).isEqualTo(100);
    assertThat(probationEntriesAged(1))
        .as("graces left after a victim was found: at most the entries that left the window since")
        .isLessThanOrEqualTo(2);
    validate();
  }

  @Test
  void probationGrace_outsideTheAgeBits_isRefused() {
    assertThatThrownBy(() -> TinyLfuClock.Options.DEFAULT.withProbationGrace(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("probationGrace must be 0 to 3");
    assertThatThrownBy(() -> TinyLfuClock.Options.DEFAULT.withProbationGrace(4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("probationGrace=4");
  }

  private long probationEntriesAged(int age) {
    long count = 0;
    for (long slot = 0; slot < table.slotCount(); slot++) {
      if (table.occupied(slot)
          && PolicyBitsLayout.segment(table.bits(slot)) == PolicyBitsLayout.PROBATION
          && PolicyBitsLayout.age(table.bits(slot)) == age) {
        count++;
      }
    }
    return count;
  }

  @Test
  void nextVictim_whenOnlyPinnedEntriesAreLeft_returnsNothing() {
    for (int id = 0; id < 100; id++) {
      access(id, 1, true);
    }
    assertThat(policy.usedBytes()).isEqualTo(100);
    int slot = table.insert(100, 1);
    table.setPinned(slot, true);
    policy.onInsert(slot);
    assertThat(policy.nextVictim()).isEqualTo(-1);
    assertThat(policy.usedBytes()).as("over budget: the caller throws").isEqualTo(101);
    validate();
    // unpinning one lets the hand take it
    long unpinned = table.slotOf(7);
    table.setPinned(unpinned, false);
    assertThat(policy.nextVictim()).isEqualTo(unpinned);
    assertThat(policy.nextVictim()).isEqualTo(-1);
    assertThat(policy.usedBytes()).isEqualTo(100);
  }

  @Test
  void evictUntil_victimsCoverTheBytesAsked() {
    policy = new TinyLfuClock(table, new FrequencySketch(64), 10_000);
    SplittableRandom random = new SplittableRandom(5);
    for (int id = 0; id < 300; id++) {
      access(id, 1 + random.nextInt(100), false);
    }
    validate();
    long[] victims = new long[64];
    for (long bytesToFree : new long[] {1, 150, 999, 2_500}) {
      long before = policy.usedBytes();
      int count = policy.evictUntil(bytesToFree, victims);
      long freed = 0;
      for (int i = 0; i < count; i++) {
        freed += table.sizeBytes(victims[i]);
      }
      assertThat(freed).as("bytesToFree=%d", bytesToFree).isGreaterThanOrEqualTo(bytesToFree);
      assertThat(before - policy.usedBytes()).isEqualTo(freed);
      // the model table moves entries on removal: remove by key, not by the listed slots
      int[] ids = new int[count];
      for (int i = 0; i < count; i++) {
        ids[i] = table.idAt(victims[i]);
      }
      for (int id : ids) {
        long slot = table.slotOf(id);
        policy.onRemove(slot);
        table.remove(slot);
      }
      validate();
    }
  }

  @Test
  void onHit_setsOnlyTheReferencedBit() {
    access(1, 1, false);
    long slot = table.slotOf(1);
    int before = table.bits(slot);
    assertThat(PolicyBitsLayout.referenced(before)).isFalse();
    policy.onHit(slot);
    assertThat(table.bits(slot)).isEqualTo(before | PolicyBitsLayout.REFERENCED);
    policy.onHit(slot);
    assertThat(table.bits(slot)).isEqualTo(before | PolicyBitsLayout.REFERENCED);
  }

  @Test
  void onRemove_uncountsALiveEntry_andIgnoresAVictim() {
    for (int id = 0; id < 150; id++) {
      access(id, 1, false);
    }
    validate();
    long slot = table.slotOf(149);
    policy.onRemove(slot);
    table.remove(slot);
    validate();
    assertThat(policy.usedBytes()).isEqualTo(99);
  }

  @Test
  void onUpdate_countsTheNewSize_andEvictionRestoresTheBudget() {
    for (int id = 0; id < 100; id++) {
      access(id, 1, false);
    }
    long slot = table.slotOf(50);
    table.setSize(slot, 30);
    policy.onUpdate(slot, 1);
    assertThat(policy.usedBytes()).isEqualTo(129);
    evict();
    assertThat(policy.usedBytes()).isLessThanOrEqualTo(100);
    validate();
  }

  @Test
  void onInsert_ofAnEntryLargerThanTheBudget_throws() {
    int slot = table.insert(1, 101);
    assertThatThrownBy(() -> policy.onInsert(slot))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("entry larger than the budget: sizeBytes=101 budgetBytes=100");
  }

  @Test
  void setBudget_rejectsANonPositiveBudget() {
    assertThatThrownBy(() -> policy.setBudget(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("budget must be positive: budgetBytes=0");
  }

  @Test
  void randomOperations_keepTotalsExact_andTheBudget_I1_I3() {
    long seed = System.nanoTime();
    System.out.println("TinyLfuClockTest.randomOperations seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    policy = new TinyLfuClock(table, new FrequencySketch(64), 5_000);
    for (int op = 0; op < 20_000; op++) {
      int id = (int) Math.min(KEYS - 1, Math.abs(random.nextGaussian()) * 400);
      int slot = table.slotOf(id);
      int kind = random.nextInt(100);
      if (slot >= 0 && kind < 5) {
        policy.onRemove(slot);
        table.remove(slot);
      } else if (slot >= 0 && kind < 8) {
        table.setPinned(slot, !table.pinned(slot) && random.nextInt(4) == 0);
      } else if (slot >= 0 && kind < 12) {
        long old = table.sizeBytes(slot);
        table.setSize(slot, 1 + random.nextInt(200));
        policy.onUpdate(slot, old);
        evict();
      } else {
        access(id, 1 + random.nextInt(200), false);
      }
      if (op % 500 == 0) {
        validate();
      }
      assertThat(policy.usedBytes()).as("seed %d op %d", seed, op).isLessThanOrEqualTo(5_000);
    }
    validate();
  }
}
