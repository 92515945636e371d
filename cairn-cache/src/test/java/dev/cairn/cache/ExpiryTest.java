package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expiry on a controllable clock: an expired entry is never returned, and is reclaimed. */
@org.junit.jupiter.api.extension.ExtendWith(NoRetiredGrace.class)
class ExpiryTest {
  private final ManualClock clock = new ManualClock();

  private Cache cache() {
    return Cache.offHeap(CacheOptions.builder().clock(clock).build());
  }

  @Test
  void expireAfterWrite_hidesTheEntryAtItsTime_andReclaimsIt() {
    try (Cache cache = cache()) {
      CacheTable<String, String> t =
          cache.table(
              "t",
              String.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(10)).build());
      t.put("a", "1");
      clock.advance(Duration.ofMillis(9_999));
      assertThat(t.get("a")).isEqualTo("1");
      clock.advance(Duration.ofMillis(1));
      assertThat(t.get("a")).isNull();
      assertThat(t.containsKey("a")).isFalse();
      assertThat(t.size()).as("the read reclaimed it").isZero();
      assertThat(t.stats().expirations()).isEqualTo(1);
      assertThat(cache.verify()).as("no entry left, no orphan").isZero();
    }
  }

  @Test
  void aGetReadsTheClock_onlyWhenTheEntryOrTheCallHasATimeToCompare() {
    try (Cache cache = cache()) {
      LongCacheTable<String> t =
          cache.longTable("t", String.class, TableOptions.builder().writeTimes(true).build());
      t.put(1L, "forever");
      t.put(2L, "short", EntryOptions.expireAfter(Duration.ofSeconds(5)));
      long before = clock.reads();
      assertThat(t.get(1L)).isEqualTo("forever");
      assertThat(t.boxed().containsKey(1L)).isTrue();
      assertThat(t.get(3L)).isNull();
      assertThat(clock.reads()).as("no expiry anywhere: no clock read").isEqualTo(before);
      assertThat(t.get(2L)).isEqualTo("short");
      assertThat(clock.reads()).as("an entry that expires asks the time").isGreaterThan(before);
      before = clock.reads();
      assertThat(t.get(1L, Duration.ofSeconds(1))).isEqualTo("forever");
      assertThat(clock.reads()).as("a maximum age asks the time").isGreaterThan(before);
      clock.advance(Duration.ofSeconds(5));
      assertThat(t.get(2L)).isNull();
      assertThat(t.get(1L, Duration.ofSeconds(1))).as("written 5 s ago").isNull();
      assertThat(t.get(1L)).isEqualTo("forever");
    }
  }

  @Test
  void aWrite_restartsExpireAfterWrite_butAReadDoesNot() {
    try (Cache cache = cache()) {
      CacheTable<String, String> t =
          cache.table(
              "t",
              String.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(10)).build());
      t.put("a", "1");
      clock.advance(Duration.ofSeconds(6));
      assertThat(t.get("a")).isEqualTo("1");
      t.put("a", "2");
      clock.advance(Duration.ofSeconds(6));
      assertThat(t.get("a")).isEqualTo("2");
      clock.advance(Duration.ofSeconds(4));
      assertThat(t.get("a")).isNull();
    }
  }

  @Test
  void expireAfterAccess_isRefreshedByReadsAndTouch() {
    try (Cache cache = cache()) {
      CacheTable<String, String> t =
          cache.table(
              "t",
              String.class,
              String.class,
              TableOptions.builder().expireAfterAccess(Duration.ofSeconds(10)).build());
      t.put("a", "1");
      t.put("b", "2");
      for (int i = 0; i < 5; i++) {
        clock.advance(Duration.ofSeconds(8));
        assertThat(t.get("a")).as("round " + i).isEqualTo("1");
        assertThat(t.touch("b")).isTrue();
      }
      clock.advance(Duration.ofSeconds(11));
      assertThat(t.get("a")).isNull();
      assertThat(t.touch("b")).isFalse();
    }
  }

  @Test
  void perEntryExpiry_overridesTheTable_andAbsoluteTimesWork() {
    try (Cache cache = cache()) {
      CacheTable<Long, String> t =
          cache.table(
              "t",
              Long.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofHours(1)).build());
      t.put(1L, "short", EntryOptions.expireAfter(Duration.ofSeconds(5)));
      t.put(2L, "at", EntryOptions.expireAt(clock.instant().plusSeconds(20)));
      t.put(3L, "table");
      clock.advance(Duration.ofSeconds(5));
      assertThat(t.get(1L)).isNull();
      assertThat(t.get(2L)).isEqualTo("at");
      clock.advance(Duration.ofSeconds(15));
      assertThat(t.get(2L)).isNull();
      assertThat(t.get(3L)).isEqualTo("table");
      clock.advance(Duration.ofHours(1));
      assertThat(t.get(3L)).isNull();
    }
  }

  @Test
  void maxAgeOnRead_missesAnOlderEntry_withoutRemovingIt() {
    try (Cache cache = cache()) {
      CacheTable<String, String> t =
          cache.table(
              "t", String.class, String.class, TableOptions.builder().writeTimes(true).build());
      t.put("a", "1");
      clock.advance(Duration.ofSeconds(30));
      assertThat(t.get("a", Duration.ofSeconds(10))).isNull();
      assertThat(t.get("a", Duration.ofSeconds(30))).isEqualTo("1");
      assertThat(t.get("a")).isEqualTo("1");
    }
  }

  @Test
  void expiredEntries_areAbsentForConditionalWrites_andTheListenerHearsOfThem() {
    try (Cache cache = cache()) {
      List<String> heard = new ArrayList<>();
      cache.removalListener(
          (String table, Object key, RemovalCause cause) ->
              heard.add(table + ":" + key + ":" + cause));
      CacheTable<String, String> t =
          cache.table(
              "t",
              String.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(1)).build());
      t.put("a", "1");
      clock.advance(Duration.ofSeconds(2));
      assertThat(t.replace("a", "2")).isFalse();
      assertThat(t.putIfAbsent("a", "3")).isNull();
      assertThat(t.get("a")).isEqualTo("3");
      assertThat(heard).containsExactly("t:a:EXPIRED");
    }
  }

  @Test
  void expiredEntries_thatNobodyReads_areReclaimedByLaterWrites() {
    try (Cache cache = cache()) {
      CacheTable<Long, String> t =
          cache.table(
              "t",
              Long.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(1)).build());
      for (long k = 0; k < 10_000; k++) {
        t.put(k, "old");
      }
      clock.advance(Duration.ofSeconds(2));
      for (long k = 10_000; k < 20_000; k++) {
        t.put(k, "new");
      }
      TableStats stats = t.stats();
      assertThat(stats.expirations()).as("reaped by sampling").isGreaterThan(9_000);
      assertThat(stats.entries()).isLessThan(11_000);
      assertThat(cache.verify()).isEqualTo(stats.entries());
    }
  }

  @Test
  void theEvictionHand_reapsExpiredEntries_beforeEvictingLiveOnes() {
    try (Cache cache =
        Cache.offHeap(CacheOptions.builder().clock(clock).budgetBytes(2L << 20).build())) {
      CacheTable<Long, byte[]> t = cache.table("t", Long.class, byte[].class);
      for (long k = 0; k < 10_000; k++) {
        t.put(k, new byte[64], EntryOptions.expireAfter(Duration.ofSeconds(1)));
      }
      clock.advance(Duration.ofSeconds(2));
      CacheTable<Long, byte[]> u = cache.table("u", Long.class, byte[].class);
      for (long k = 0; k < 12_000; k++) {
        u.put(k, new byte[64]);
      }
      assertThat(t.stats().expirations()).isPositive();
      assertThat(t.stats().evictions()).isZero();
    }
  }

  @Test
  void expiredEntries_areNotIterated() {
    try (Cache cache = cache()) {
      CacheTable<Integer, String> t = cache.table("t", Integer.class, String.class);
      t.put(1, "stays");
      t.put(2, "goes", EntryOptions.expireAfter(Duration.ofSeconds(1)));
      clock.advance(Duration.ofSeconds(1));
      List<Integer> keys = new ArrayList<>();
      t.forEach(e -> keys.add(e.getKey()));
      assertThat(keys).containsExactly(1);
    }
  }
}
