package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entries stored without a header (EntryLayout, "Bare entries"): what a table pays per entry with
 * and without write times, entries of both forms under one key, and a table whose write times are
 * switched at a reopen.
 */
class BareEntryTest {
  private static final TableOptions WRITE_TIMES = TableOptions.builder().writeTimes(true).build();

  @Test
  void aLongKeyAndA32ByteValue_take48Bytes_withoutWriteTimes_and56With() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> bare = cache.longTable("bare", byte[].class);
      LongCacheTable<byte[]> timed = cache.longTable("timed", byte[].class, WRITE_TIMES);
      CacheTable<UUID, String> uuids = cache.table("uuids", UUID.class, String.class);
      CacheTable<String, byte[]> strings = cache.table("strings", String.class, byte[].class);
      for (int i = 0; i < 1000; i++) {
        bare.put(i, value(i));
        timed.put(i, value(i));
        uuids.put(new UUID(i, -i), "x".repeat(16));
        strings.put("key" + (10_000 + i), value(i)); // 8 bytes of key, as a long
      }
      assertThat(bytesPerEntry(bare.stats())).as("block header, key, value").isEqualTo(48);
      assertThat(bytesPerEntry(timed.stats())).as("and the entry's header").isEqualTo(56);
      assertThat(bytesPerEntry(uuids.stats())).as("8 + 16 + 16").isEqualTo(40);
      assertThat(bytesPerEntry(strings.stats())).as("keys of no fixed length").isEqualTo(56);
      for (int i = 0; i < 1000; i++) {
        assertThat(bare.get(i)).isEqualTo(value(i));
        assertThat(uuids.get(new UUID(i, -i))).isEqualTo("x".repeat(16));
      }
      assertThat(cache.verify()).isEqualTo(4000);
    }
  }

  @Test
  void oneKeyMovesBetweenTheForms_asItsEntryGainsAndLosesAPinOrAnExpiry() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class);
      t.put(1, "bare");
      t.put(1, "pinned", EntryOptions.pin());
      assertThat(t.get(1)).isEqualTo("pinned");
      t.put(1, "bare again");
      assertThat(t.get(1)).isEqualTo("bare again");
      t.put(1, "expires", EntryOptions.expireAfter(Duration.ofHours(1)));
      assertThat(t.get(1)).isEqualTo("expires");
      assertThat(t.boxed().replace(1L, "expires", "bare once more")).isTrue();
      assertThat(t.boxed().iterator().next().getValue()).isEqualTo("bare once more");
      assertThat(t.boxed().remove(1L, "bare once more")).isTrue();
      assertThat(t.get(1)).isNull();
      assertThat(cache.verify()).isZero();
    }
  }

  @Test
  void getWithAMaxAge_needsWriteTimes_andNeverReturnsAnEntryWrittenWithout(@TempDir Path dir)
      throws Exception {
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class);
      t.put(1, "no write time");
      assertThatThrownBy(() -> t.get(1, Duration.ofDays(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("\"t\" keeps no write times")
          .hasMessageContaining("writeTimes(true)");
      assertThatThrownBy(() -> t.boxed().get(1L, Duration.ofDays(1)))
          .isInstanceOf(IllegalStateException.class);
      assertThat(t.get(1)).as("the cache stays usable").isEqualTo("no write time");
    }
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class, WRITE_TIMES);
      assertThat(t.get(1, Duration.ofDays(1))).as("no age: older than any").isNull();
      assertThat(t.get(1)).isEqualTo("no write time");
      t.put(2, "timed");
      assertThat(t.get(2, Duration.ofDays(1))).isEqualTo("timed");
    }
    try (Cache cache = Cache.open(dir, CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class, WRITE_TIMES);
      assertThat(t.get(2, Duration.ofDays(1))).as("kept across a reopen").isEqualTo("timed");
      assertThat(t.get(1)).isEqualTo("no write time");
      assertThat(cache.verify()).isEqualTo(2);
    }
  }

  private static byte[] value(int i) {
    byte[] v = new byte[32];
    Arrays.fill(v, (byte) i);
    return v;
  }

  private static long bytesPerEntry(TableStats stats) {
    return stats.entryBytes() / stats.entries();
  }
}
