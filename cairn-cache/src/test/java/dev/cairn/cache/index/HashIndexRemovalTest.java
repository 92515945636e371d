package dev.cairn.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Removal by backward shift (HashIndex R1, R2), growth and halving (G1, G2), and the scan order
 * (S1), against a map of the entries: random inserts and removals on one shard whose keys crowd a
 * few home slots and wrap round its end. After each step every entry is found, the probe invariant
 * holds (no empty slot between an entry's home and its slot), the counts agree, a scan by chunks
 * returns each entry once, and replaying the records from an empty shard rebuilds the same bytes.
 * Prints its seeds.
 */
class HashIndexRemovalTest {
  private final MemoryRegions regions = new MemoryRegions();
  private final HashIndex live = new HashIndex(0, regions);
  private final List<byte[]> records = new ArrayList<>();
  private final IndexRecord record = new IndexRecord();
  private final Map<Long, Integer> entries = new HashMap<>(); // pointer -> hash32
  private long nextPointer = 0x1000;

  private static long hashOf(int hash32) {
    return Integer.toUnsignedLong(hash32) << 24; // the top 8 bits 0: shard 0
  }

  @Test
  void randomInsertsAndRemovals_keepEveryEntryFoundAndReplayExact() {
    long seed = new Random().nextLong();
    System.out.println("HashIndexRemovalTest seed=" + seed);
    Random random = new Random(seed);
    int smallest = Integer.MAX_VALUE;
    int largest = 0;
    boolean halved = false;
    for (int step = 0; step < 6_000; step++) {
      int capacityBefore = live.capacityOf(0);
      // waves: fill towards a few hundred entries, then empty towards a handful
      boolean filling = (step / 1_500) % 2 == 0;
      if (entries.isEmpty() || random.nextInt(100) < (filling ? 70 : 30)) {
        int hash32 = random.nextInt();
        if (random.nextBoolean()) {
          hash32 =
              (hash32 & ~0xFF) | ((0xF8 + random.nextInt(16)) & 0xFF); // near the end, wrapping
        }
        insert(hash32);
      } else {
        List<Long> pointers = new ArrayList<>(entries.keySet());
        remove(pointers.get(random.nextInt(pointers.size())));
      }
      halved |= live.capacityOf(0) < capacityBefore;
      smallest = Math.min(smallest, live.capacityOf(0));
      largest = Math.max(largest, live.capacityOf(0));
      check("seed=" + seed + " step=" + step);
    }
    assertThat(largest).as("seed=%d", seed).isGreaterThan(smallest);
    assertThat(halved).as("a shard emptied to an eighth halves, seed=%d", seed).isTrue();
    checkReplay();
  }

  @Test
  void aShiftLongerThanOneRecordHolds_endsInATombstone_andReplays() {
    begin(128);
    for (int k = 0; k < 90; k++) {
      insert(k << 8); // every home slot 0 at capacity 128: one cluster of 90
    }
    long first = HashIndex.slotAddress(0, 0);
    remove(live.pointerAt(first));
    assertThat(live.deadOf(0)).isOne();
    assertThat(live.pointerAt(HashIndex.slotAddress(0, HashIndex.MAX_SHIFT)))
        .as("the hole the shift stopped at")
        .isEqualTo(HashIndex.TOMBSTONE);
    check("one long cluster");
    // a removal after the tombstone shifts over it: it stays, the probes through it still pass
    remove(live.pointerAt(HashIndex.slotAddress(0, 10)));
    check("a removal before the tombstone");
    checkReplay();
  }

  @Test
  void aRemovalAtTheShardsEnd_movesEntriesBackAcrossTheWrap() {
    begin(16);
    for (int k = 0; k < 5; k++) {
      insert((k << 8) | 14); // home 14: slots 14, 15, 0, 1, 2
    }
    insert(1); // home 1: after them, at 3
    remove(live.pointerAt(HashIndex.slotAddress(0, 14)));
    // 15, 0, 1 and 2 moved back one slot each, across the end; then home 1's entry, from 3 to 2
    for (int slot : new int[] {14, 15, 0, 1}) {
      assertThat(SlotLayout.hash32OfMeta(live.metaAt(HashIndex.slotAddress(0, slot))) & 0xFF)
          .as("slot %d", slot)
          .isEqualTo(14);
    }
    assertThat(SlotLayout.hash32OfMeta(live.metaAt(HashIndex.slotAddress(0, 2)))).isOne();
    assertThat(live.pointerAt(HashIndex.slotAddress(0, 3))).isZero();
    check("wrap");
    checkReplay();
  }

  @Test
  void aLookupRacingShiftsThatMoveItsEntry_neverMissesIt() throws Exception {
    begin(128);
    for (int k = 0; k < 60; k++) {
      insert(k << 8); // one cluster at home 0: a lookup for its last entry probes 60 slots
    }
    long target = nextPointer - 1;
    int targetHash = entries.get(target);
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong misses = new AtomicLong();
    AtomicLong lookups = new AtomicLong();
    Thread reader =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (running.get()) {
                    if (live.findSlot(0, targetHash, (a, p, m) -> p == target) < 0) {
                      misses.incrementAndGet();
                    }
                    lookups.incrementAndGet();
                  }
                });
    IndexRecord writes = new IndexRecord();
    long next = 1 << 20;
    // the writer removes the cluster's first entry other than the target, moving every entry
    // after it back one slot, the target with them, and inserts a new one at the cluster's end
    for (int i = 0; i < 200_000 && misses.get() == 0; i++) {
      live.lock(0);
      try {
        long first = live.pointerAt(HashIndex.slotAddress(0, 0));
        long victim = first != target ? first : live.pointerAt(HashIndex.slotAddress(0, 1));
        long address = live.slotOf(0, entries.get(victim), victim);
        live.removeAt(address, victim, 48, writes.begin(0));
        int hash32 = entries.remove(victim);
        entries.put(next, hash32);
        live.insert(hashOf(hash32), next++, 0, 0, 48, writes.begin(0));
      } finally {
        live.unlock(0);
      }
    }
    running.set(false);
    reader.join();
    assertThat(lookups.get()).isPositive();
    assertThat(misses.get()).as("lookups that missed, of %d", lookups.get()).isZero();
    check("after the race");
  }

  private void begin(int capacity) {
    live.lock(0);
    try {
      live.rebuild(0, regions.make(capacity), capacity, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
    } finally {
      live.unlock(0);
    }
  }

  private void insert(int hash32) {
    live.lock(0);
    try {
      int needed = live.growthFor(0);
      if (needed != 0) {
        long old = live.rebuild(0, regions.make(needed), needed, record.begin(0));
        assertThat(old).isNotEqualTo(-1);
        records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
      }
      long pointer = nextPointer++;
      live.insert(hashOf(hash32), pointer, 0, 0, 48, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
      entries.put(pointer, hash32);
    } finally {
      live.unlock(0);
    }
  }

  private void remove(long pointer) {
    int hash32 = entries.get(pointer);
    live.lock(0);
    try {
      long address = live.slotOf(0, hash32, pointer);
      assertThat(address).as("slot of %x", pointer).isNotNegative();
      assertThat(live.removeAt(address, pointer, 48, record.begin(0))).isTrue();
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
      entries.remove(pointer);
    } finally {
      live.unlock(0);
    }
  }

  private void check(String where) {
    int capacity = live.capacityOf(0);
    int liveSlots = 0;
    int dead = 0;
    for (int slot = 0; slot < capacity; slot++) {
      long address = HashIndex.slotAddress(0, slot);
      long pointer = live.pointerAt(address);
      if (pointer == HashIndex.TOMBSTONE) {
        dead++;
      }
      if (pointer == 0 || pointer == HashIndex.TOMBSTONE) {
        continue;
      }
      liveSlots++;
      int hash32 = SlotLayout.hash32OfMeta(live.metaAt(address));
      assertThat(entries.get(pointer)).as("%s: the hash of slot %d", where, slot).isEqualTo(hash32);
      for (int i = hash32 & (capacity - 1); i != slot; i = (i + 1) & (capacity - 1)) {
        assertThat(live.pointerAt(HashIndex.slotAddress(0, i)))
            .as("%s: slot %d between the home and slot %d of an entry", where, i, slot)
            .isNotZero();
      }
    }
    assertThat(liveSlots).as(where).isEqualTo(entries.size());
    assertThat(live.countOf(0)).as(where).isEqualTo(entries.size());
    assertThat(live.deadOf(0)).as(where).isEqualTo(dead);
    assertThat(live.bytesOf(0)).as(where).isEqualTo(48L * entries.size());
    for (Map.Entry<Long, Integer> e : entries.entrySet()) {
      long pointer = e.getKey();
      assertThat(live.findSlot(0, e.getValue(), (a, p, m) -> p == pointer))
          .as("%s: %x found", where, pointer)
          .isNotNegative();
    }
    Set<Long> scanned = new HashSet<>();
    Chunk chunk = new Chunk();
    int calls = 0;
    for (long from = HashIndex.SCAN_START; from != HashIndex.SCAN_END; ) {
      from = live.collect(0, from, chunk);
      assertThat(++calls).as(where).isLessThanOrEqualTo(capacity);
      for (int i = 0; i < chunk.size(); i++) {
        assertThat(scanned.add(chunk.pointer(i))).as("%s: scanned twice", where).isTrue();
      }
    }
    assertThat(scanned).as(where).isEqualTo(entries.keySet());
  }

  /** Replays every record from an empty shard, over regions filled with garbage. */
  private void checkReplay() {
    long region = live.regionOf(0);
    byte[] expected = regions.view(region).toArray(ValueLayout.JAVA_BYTE);
    for (MemorySegment r : regions.byId.values()) {
      r.fill((byte) 0x5A);
    }
    HashIndex recovered = new HashIndex(0, regions);
    for (byte[] r : records) {
      recovered.replay(MemorySegment.ofArray(r), (old, cap) -> {});
    }
    assertThat(recovered.regionOf(0)).isEqualTo(region);
    assertThat(recovered.capacityOf(0)).isEqualTo(live.capacityOf(0));
    assertThat(recovered.countOf(0)).isEqualTo(live.countOf(0));
    assertThat(recovered.deadOf(0)).isEqualTo(live.deadOf(0));
    assertThat(recovered.bytesOf(0)).isEqualTo(live.bytesOf(0));
    assertThat(regions.view(region).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(expected);
  }
}
