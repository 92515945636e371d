package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.PileOptions;
import dev.cairn.pile.ValueTooLargeException;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The byte budget: eviction keeps a cache within it; pinned entries stay; too much fails, and so
 * does an entry too large for the budget, a block of the pile or a log record.
 */
@org.junit.jupiter.api.extension.ExtendWith(NoRetiredGrace.class)
class BudgetTest {

  private static Cache cache(long budget) {
    return Cache.offHeap(CacheOptions.builder().budgetBytes(budget).build());
  }

  @Test
  void puts_beyondTheBudget_evict_andTheCacheStaysWithinIt() {
    long budget = 4L << 20;
    try (Cache cache = cache(budget)) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 100_000; k++) {
        t.put(k, new byte[100]);
        assertThat(cache.stats().usedBytes()).as("after put " + k).isLessThanOrEqualTo(budget);
      }
      TableStats stats = t.stats();
      assertThat(stats.evictions()).isPositive();
      assertThat(stats.entries()).isEqualTo(100_000 - stats.evictions());
      assertThat(stats.entryBytes() + stats.indexBytes()).isLessThanOrEqualTo(budget);
      assertThat(cache.verify()).isEqualTo(stats.entries());
    }
  }

  @Test
  void frequentlyRead_entries_surviveAScan() {
    try (Cache cache = cache(2L << 20)) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 100; k++) {
        t.put(k, new byte[100]);
      }
      for (long scan = 1_000; scan < 40_000; scan++) {
        for (long k = 0; k < 100; k += 10) {
          t.get(k);
        }
        t.put(scan, new byte[100]);
      }
      int kept = 0;
      for (long k = 0; k < 100; k += 10) {
        kept += t.containsKey(k) ? 1 : 0;
      }
      assertThat(kept).as("hot keys kept through a scan").isEqualTo(10);
    }
  }

  @Test
  void pinnedEntries_areNeverEvicted_andAFullBudgetOfThemRefusesPuts() {
    try (Cache cache = cache(1L << 20)) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      long k = 0;
      try {
        for (; k < 1_000_000; k++) {
          t.put(k, new byte[200], EntryOptions.pin());
        }
      } catch (CacheFullException e) {
        assertThat(e).hasMessageContaining("pinned");
      }
      assertThat(k).as("some fitted").isPositive();
      long fitted = k;
      for (long i = 0; i < fitted; i++) {
        assertThat(t.containsKey(i)).as("pinned key " + i).isTrue();
      }
      assertThat(t.containsKey(fitted)).as("the refused put wrote nothing").isFalse();
      assertThat(t.stats().evictions()).isZero();
      // an unpinned table of the same cache cannot take room either: for a write larger than the
      // one refused (that one may have needed a shard's new region, up to ~1 KiB more than an
      // entry; a 200-byte write then still fitted the slack, in ~3% of runs by the tables' seeds)
      CacheTable<Long, byte[]> other = cache.table("other", Long.class, byte[].class);
      assertThatThrownBy(() -> other.put(1L, new byte[8_192]))
          .isInstanceOf(CacheFullException.class);
    }
  }

  @Test
  void anEntryLargerThanTheBudget_isRefused() {
    try (Cache cache = cache(64 << 10)) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      assertThatThrownBy(() -> t.put(1L, new byte[128 << 10]))
          .isInstanceOf(EntryTooLargeException.class)
          .hasMessageContaining("larger than the cache's whole budget");
      assertThat(t.size()).isZero();
    }
  }

  @Test
  void anEntryLargerThanABlock_isRefused_sayingWhatToChange_andTheOldValueStays() {
    PileOptions pile = PileOptions.builder().segmentBytes(1 << 20).build();
    try (Cache cache = Cache.offHeap(CacheOptions.builder().pile(pile).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      t.put(1L, new byte[] {7});
      assertThatThrownBy(() -> t.put(1L, new byte[2 << 20]))
          .isInstanceOf(EntryTooLargeException.class)
          .hasMessageContainingAll("one block", "segmentBytes", String.valueOf((1 << 20) - 72))
          .hasCauseInstanceOf(ValueTooLargeException.class);
      assertThatThrownBy(() -> t.put(2L, new byte[2 << 20]))
          .isInstanceOf(EntryTooLargeException.class);
      assertThat(t.get(1L)).containsExactly(7);
      assertThat(t.containsKey(2L)).isFalse();
      t.put(2L, new byte[512 << 10]); // half a segment still fits
      assertThat(t.get(2L)).hasSize(512 << 10);
      assertThat(t.size()).isEqualTo(2);
    }
  }

  @Test
  void anEntryLargerThanALogRecord_isRefused_inAPersistentCache(@TempDir Path temp)
      throws IOException {
    // a 4 x 4 MiB log: a record carries at most an eighth of it, 2 MiB
    PileOptions pile =
        PileOptions.builder().segmentBytes(8 << 20).logFileBytes(4 << 20).logFileCount(4).build();
    try (Cache cache = Cache.open(temp.resolve("c"), CacheOptions.builder().pile(pile).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      assertThatThrownBy(() -> t.put(1L, new byte[3 << 20]))
          .isInstanceOf(EntryTooLargeException.class)
          .hasMessageContainingAll("log record", "Durability.NONE")
          .hasMessageNotContaining("segmentBytes");
      assertThat(t.containsKey(1L)).isFalse();
      t.put(1L, new byte[1 << 20]);
      assertThat(t.get(1L)).hasSize(1 << 20);
    }
  }

  @Test
  void anEntryLargerThanTheBudgetAndABlock_isRefusedForTheBudget() {
    PileOptions pile = PileOptions.builder().segmentBytes(1 << 20).build();
    try (Cache cache =
        Cache.offHeap(CacheOptions.builder().budgetBytes(64 << 10).pile(pile).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      assertThatThrownBy(() -> t.put(1L, new byte[2 << 20]))
          .isInstanceOf(EntryTooLargeException.class)
          .hasMessageContaining("larger than the cache's whole budget of " + (64 << 10));
    }
  }

  @Test
  void aPinnedTable_keepsItsEntries_whileAnotherTableIsEvicted() {
    try (Cache cache = cache(2L << 20)) {
      CacheTable<Long, byte[]> pinned =
          cache.table(
              "pinned", Long.class, byte[].class, TableOptions.builder().pinned(true).build());
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 1_000; k++) {
        pinned.put(k, new byte[100]);
      }
      for (long k = 0; k < 50_000; k++) {
        t.put(k, new byte[100]);
      }
      assertThat(pinned.size()).isEqualTo(1_000);
      assertThat(pinned.stats().evictions()).isZero();
      assertThat(t.stats().evictions()).isPositive();
    }
  }

  @Test
  void aTableOverItsMaxShare_isEvictedFromFirst_andKeptWithinIt() {
    long budget = 2L << 20;
    try (Cache cache = cache(budget)) {
      CacheTable<Long, byte[]> capped =
          cache.table(
              "capped", Long.class, byte[].class, TableOptions.builder().maxShare(0.25).build());
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 6_000; k++) {
        capped.put(k, new byte[100]);
      }
      assertThat((double) capped.stats().entryBytes() / budget).isGreaterThan(0.25);
      for (long k = 0; k < 30_000; k++) {
        t.put(k, new byte[100]);
        if ((double) capped.stats().entryBytes() / budget > 0.25) {
          assertThat(t.stats().evictions())
              .as("t evicted while capped is over its max share," + " put %d", k)
              .isZero();
        }
      }
      assertThat((double) capped.stats().entryBytes() / budget).isLessThanOrEqualTo(0.25);
      assertThat(t.stats().evictions()).isPositive();
      assertThat(cache.verify()).isEqualTo(capped.size() + t.size());
    }
  }

  @Test
  void aTableAtItsMinShare_isNotEvictedFrom_whileAnotherTableHoldsMore() {
    long budget = 2L << 20;
    try (Cache cache = cache(budget)) {
      CacheTable<Long, byte[]> kept =
          cache.table(
              "kept", Long.class, byte[].class, TableOptions.builder().minShare(0.3).build());
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 6_000; k++) {
        kept.put(k, new byte[100]);
      }
      for (long k = 0; k < 30_000; k++) {
        t.put(k, new byte[100]);
      }
      // W-TinyLFU takes from both until kept reaches its min share; then only from t (a drain
      // may take one entry more before it sees the share)
      double share = (double) kept.stats().entryBytes() / budget;
      assertThat(share).isBetween(0.299, 0.31);
      assertThat(t.stats().evictions()).isPositive();
      assertThat(cache.verify()).isEqualTo(kept.size() + t.size());
    }
  }
}
