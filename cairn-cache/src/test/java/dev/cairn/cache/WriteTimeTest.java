package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The write time an entry records, which get(key, maxAge) compares: early maybe, never late. */
class WriteTimeTest {
  @Test
  void onTheSystemClock_aFreshEntryMeetsAGenerousMaxAge_andAnOldOneMissesAShortOne()
      throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> table =
          cache.longTable("t", byte[].class, TableOptions.builder().writeTimes(true).build());
      table.put(1, new byte[] {1});
      assertThat(table.get(1L, Duration.ofMinutes(1))).containsExactly(1);
      Thread.sleep(30);
      assertThat(table.get(1L, Duration.ofMillis(5))).as("30 ms old, max age 5 ms").isNull();
      assertThat(table.get(1L)).as("the entry stays").containsExactly(1);
    }
  }

  @Test
  void aCacheWithAClockOfItsOwn_recordsThatClocksTime_readOncePerPut() {
    AtomicInteger reads = new AtomicInteger();
    long[] now = {1_000_000};
    InstantSource clock =
        () -> {
          reads.incrementAndGet();
          return Instant.ofEpochMilli(now[0]);
        };
    try (Cache cache = Cache.offHeap(CacheOptions.builder().clock(clock).build())) {
      LongCacheTable<byte[]> table =
          cache.longTable("t", byte[].class, TableOptions.builder().writeTimes(true).build());
      int before = reads.get();
      table.put(1, new byte[] {1});
      assertThat(reads.get() - before).as("clock reads of a put with no expiry").isEqualTo(1);
      now[0] += 10;
      assertThat(table.get(1L, Duration.ofMillis(10))).as("exactly 10 ms old").containsExactly(1);
      assertThat(table.get(1L, Duration.ofMillis(9))).as("older than 9 ms").isNull();
      LongCacheTable<byte[]> untimed = cache.longTable("untimed", byte[].class);
      before = reads.get();
      untimed.put(1, new byte[] {1});
      untimed.put(2, new byte[] {2}, EntryOptions.pin()); // an entry with a header, no time
      assertThat(reads.get() - before).as("a table that keeps no write times reads none").isZero();
    }
  }
}
