package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.extension.ExtendWith(NoRetiredGrace.class)
class LongTableAndListenerTest {

  @Test
  void aLongTable_andItsBoxedView_areOneTable() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("orders", String.class);
      assertThat(t.put(42L, "a")).isEqualTo(PutResult.INSERTED);
      assertThat(t.put(42L, "b")).isEqualTo(PutResult.REPLACED);
      assertThat(t.get(42L)).isEqualTo("b");
      assertThat(t.boxed().get(42L)).isEqualTo("b");
      assertThat(cache.table("orders", Long.class, String.class).get(42L)).isEqualTo("b");
      assertThat(t.computeIfAbsent(7L, k -> "seven")).isEqualTo("seven");
      assertThat(t.containsKey(7L)).isTrue();
      assertThat(t.remove(7L)).isTrue();
      assertThat(t.remove(7L)).isFalse();
      assertThat(t.size()).isEqualTo(1);
    }
  }

  @Test
  void aTable_reopenedWithOtherTypes_isRefused() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      cache.table("t", String.class, String.class);
      assertThatThrownBy(() -> cache.table("t", Long.class, String.class))
          .isInstanceOf(TableMismatchException.class)
          .hasMessageContaining("holds string -> java.lang.String");
    }
  }

  @Test
  void uuidAndBytesKeys_areEqualByTheirBytes() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<UUID, Integer> u = cache.table("u", UUID.class, Integer.class);
      UUID id = UUID.randomUUID();
      u.put(id, 1);
      assertThat(u.get(new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits())))
          .isEqualTo(1);
      CacheTable<byte[], String> b = cache.table("b", byte[].class, String.class);
      b.put(new byte[] {1, 2, 3}, "x");
      assertThat(b.get(new byte[] {1, 2, 3})).isEqualTo("x");
      assertThat(b.get(new byte[] {1, 2})).isNull();
    }
  }

  @Test
  void aListener_thatCallsTheCache_isToldAfterTheOperation_andDoesNotCorruptIt() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(1L << 20).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      CacheTable<Long, Long> log = cache.table("log", Long.class, Long.class);
      List<Long> evicted = new ArrayList<>();
      long[] reentered = {0};
      cache.removalListener(
          (String table, Object key, RemovalCause cause) -> {
            if (table.equals("t")) {
              evicted.add((Long) key);
              log.put((Long) key, (long) cause.ordinal()); // re-enters the cache
              t.get((Long) key + 1);
              reentered[0]++;
            }
          });
      for (long k = 0; k < 20_000; k++) {
        t.put(k, new byte[64]);
        byte[] got = t.get(k);
        // the listener's own puts may evict the entry just put, and then it is told of it
        assertThat(got == null ? evicted.contains(k) : got.length == 64).as("key " + k).isTrue();
      }
      assertThat(evicted).isNotEmpty();
      assertThat(reentered[0])
          .as("every call of the listener wrote and read")
          .isEqualTo(evicted.size());
      for (long k : evicted) {
        Long cause = log.get(k); // the log table is evicted from too: absent or right
        if (cause != null) {
          assertThat(cause).isEqualTo(RemovalCause.EVICTED.ordinal());
        }
      }
      assertThat(cache.verify()).isEqualTo(t.size() + log.size());
    }
  }
}
