package dev.cairn.cache.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replay over a checkpoint's state that is newer than the records (HashIndex I5): the state names
 * the region a rebuild moved a shard into, while the records from the checkpoint's LSN still
 * include the stores made in the old region and the rebuild itself. Replay must skip both and leave
 * the new region as the state's pages hold it.
 */
class HashIndexReplayTest {

  private static long hashInShard0(int i) {
    return (i * 0x9E3779B1L) & 0x00FF_FFFF_FFFF_FFFFL; // top 8 bits 0: shard 0
  }

  @Test
  void aStateNewerThanTheRecords_skipsTheStoresOfTheOldRegionAndTheRebuild() {
    MemoryRegions regions = new MemoryRegions();
    HashIndex live = new HashIndex(0, regions);
    List<byte[]> records = new ArrayList<>();
    IndexRecord record = new IndexRecord();
    live.lock(0);
    try {
      live.rebuild(0, regions.make(16), 16, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
      int i = 0;
      while (live.growthFor(0) == 0) {
        live.insert(hashInShard0(i), 2_000 + i, 0, 0, 48, record.begin(0));
        records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
        i++;
      }
      int capacity = live.growthFor(0);
      long newRegion = regions.make(capacity);
      live.rebuild(0, newRegion, capacity, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
      live.insert(hashInShard0(i), 2_000 + i, 0, 0, 48, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
    } finally {
      live.unlock(0);
    }
    // the checkpoint's state: taken now, after the rebuild, with its LSN before all records
    long region = live.regionOf(0);
    byte[] pages = regions.view(region).toArray(ValueLayout.JAVA_BYTE);
    HashIndex recovered = new HashIndex(0, regions);
    recovered.install(
        0, region, live.capacityOf(0), live.countOf(0), live.deadOf(0), live.bytesOf(0));
    List<Long> retired = new ArrayList<>();
    for (byte[] r : records) {
      recovered.replay(MemorySegment.ofArray(r), (old, cap) -> retired.add(old));
    }
    assertThat(recovered.regionOf(0)).isEqualTo(region);
    assertThat(regions.view(region).toArray(ValueLayout.JAVA_BYTE))
        .as("no store of the old region landed in the new one")
        .isEqualTo(pages);
    assertThat(recovered.countOf(0)).isEqualTo(live.countOf(0));
    assertThat(recovered.bytesOf(0)).isEqualTo(live.bytesOf(0));
    assertThat(retired).as("the skipped rebuild retires nothing twice").isEmpty();
  }

  @Test
  void aStateOlderThanTheRecords_replaysTheRebuildAndEveryStore() {
    MemoryRegions regions = new MemoryRegions();
    HashIndex live = new HashIndex(0, regions);
    List<byte[]> records = new ArrayList<>();
    IndexRecord record = new IndexRecord();
    long first = regions.make(16);
    live.lock(0);
    try {
      live.rebuild(0, first, 16, record.begin(0));
      int i = 0;
      while (live.growthFor(0) == 0) {
        live.insert(hashInShard0(i), 2_000 + i, 0, 0, 48, record.begin(0));
        records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
        i++;
      }
      int capacity = live.growthFor(0);
      live.rebuild(0, regions.make(capacity), capacity, record.begin(0));
      records.add(record.bytes().toArray(ValueLayout.JAVA_BYTE));
    } finally {
      live.unlock(0);
    }
    byte[] expected = regions.view(live.regionOf(0)).toArray(ValueLayout.JAVA_BYTE);
    regions.view(live.regionOf(0)).fill((byte) 0x5A); // the new region's pages: anything
    regions.view(first).fill((byte) 0); // the first region as the checkpoint left it: empty
    HashIndex recovered = new HashIndex(0, regions);
    recovered.install(0, first, 16, 0, 0, 0);
    List<Long> retired = new ArrayList<>();
    for (byte[] r : records) {
      recovered.replay(MemorySegment.ofArray(r), (old, cap) -> retired.add(old));
    }
    assertThat(recovered.regionOf(0)).isEqualTo(live.regionOf(0));
    assertThat(regions.view(live.regionOf(0)).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(expected);
    assertThat(recovered.countOf(0)).isEqualTo(live.countOf(0));
    assertThat(retired).containsExactly(first);
  }

  @Test
  void aStoreThatLeavesTheShardMoreSlotsUsedThanItHas_isRefused_andChangesNothing() {
    MemoryRegions regions = new MemoryRegions();
    HashIndex live = new HashIndex(0, regions);
    IndexRecord record = new IndexRecord();
    long region = regions.make(16);
    live.lock(0);
    byte[] store;
    try {
      live.rebuild(0, region, 16, record.begin(0));
      live.insert(hashInShard0(1), 2_001, 0, 0, 48, record.begin(0));
      store = record.bytes().toArray(ValueLayout.JAVA_BYTE);
    } finally {
      live.unlock(0);
    }
    int countAt = IndexRecord.OPS_OFFSET + 22;
    for (int[] countAndDead : new int[][] {{17, 0}, {9, 8}, {-1, 0}, {1, -1}}) {
      regions.view(region).fill((byte) 0);
      HashIndex recovered = new HashIndex(0, regions);
      recovered.install(0, region, 16, 0, 0, 0);
      MemorySegment damaged = MemorySegment.ofArray(store.clone());
      damaged.set(IndexRecord.U32, countAt, countAndDead[0]);
      damaged.set(IndexRecord.U32, countAt + 4, countAndDead[1]);
      assertThatThrownBy(() -> recovered.replay(damaged, (old, cap) -> {}))
          .as("%d live, %d dead", countAndDead[0], countAndDead[1])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("leaves shard 0 of capacity 16 with " + countAndDead[0] + " live");
      assertThat(recovered.countOf(0)).isZero();
      assertThat(regions.view(region).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
    }
    HashIndex recovered = new HashIndex(0, regions);
    recovered.install(0, region, 16, 0, 0, 0);
    recovered.replay(MemorySegment.ofArray(store), (old, cap) -> {});
    assertThat(recovered.countOf(0)).isOne();
  }
}
