package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.index.HashIndex;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
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
      CacheTable<String, byte[]> timedStrings =
          cache.table("timedStrings", String.class, byte[].class, WRITE_TIMES);
      for (int i = 0; i < 1000; i++) {
        bare.put(i, value(i));
        timed.put(i, value(i));
        uuids.put(new UUID(i, -i), "x".repeat(16));
        strings.put("k" + (100_000 + i), value(i)); // 7 bytes of key
        timedStrings.put("k" + (100_000 + i), value(i));
      }
      assertThat(bytesPerEntry(bare.stats())).as("block header, key, value").isEqualTo(48);
      assertThat(bytesPerEntry(timed.stats())).as("and the entry's header").isEqualTo(56);
      assertThat(bytesPerEntry(uuids.stats())).as("8 + 16 + 16").isEqualTo(40);
      assertThat(bytesPerEntry(strings.stats())).as("8 + its length's byte + 7 + 32").isEqualTo(48);
      assertThat(bytesPerEntry(timedStrings.stats())).as("8 + 8 + 7 + 32, rounded").isEqualTo(56);
      for (int i = 0; i < 1000; i++) {
        assertThat(bare.get(i)).isEqualTo(value(i));
        assertThat(uuids.get(new UUID(i, -i))).isEqualTo("x".repeat(16));
        assertThat(strings.get("k" + (100_000 + i))).isEqualTo(value(i));
      }
      assertThat(cache.verify()).isEqualTo(5000);
    }
  }

  /** A value of the object codec, for tables of records. */
  record Point(int x, int y, String label) {}

  /** A cache whose pile's codec knows {@link Point}. */
  private static final CacheOptions WITH_POINTS =
      CacheOptions.builder()
          .pile(
              PileOptions.builder()
                  .codecs(CodecRegistry.builder().allow(Point.class).build())
                  .build())
          .build();

  @Test
  void valuesOfAnyClass_areBareToo_withTheirKindAndTypeId_andComeBackAfterAReopen(@TempDir Path dir)
      throws Exception {
    CacheOptions options = WITH_POINTS;
    try (Cache cache = Cache.open(dir, options)) {
      CacheTable<String, Point> points = cache.table("points", String.class, Point.class);
      CacheTable<String, Point> timed =
          cache.table("timedPoints", String.class, Point.class, WRITE_TIMES);
      CacheTable<Long, Object> any = cache.table("any", Long.class, Object.class);
      for (int i = 0; i < 100; i++) {
        points.put("p" + i, new Point(i, -i, "point number " + i + " of a hundred"));
        timed.put("p" + i, new Point(i, -i, "point number " + i + " of a hundred"));
      }
      any.put(1L, new byte[31]); // 8 + kind 1 + key 8 + 31 = 48, where a header makes it 56
      any.put(2L, "text"); // 21 bytes: the smallest block, 32
      assertThat(any.stats().entryBytes()).isEqualTo(48 + 32);
      any.put(3L, new Point(3, 3, "three"));
      assertThat(points.stats().entryBytes())
          .as(
              "a length byte, a kind byte and a type id (6 bytes) against a header of 12: %d, %d",
              points.stats().entryBytes(), timed.stats().entryBytes())
          .isLessThan(timed.stats().entryBytes());
    }
    try (Cache cache = Cache.open(dir, options)) {
      CacheTable<String, Point> points = cache.table("points", String.class, Point.class);
      CacheTable<Long, Object> any = cache.table("any", Long.class, Object.class);
      for (int i = 0; i < 100; i++) {
        assertThat(points.get("p" + i))
            .isEqualTo(new Point(i, -i, "point number " + i + " of a hundred"));
      }
      assertThat((byte[]) any.get(1L)).hasSize(31);
      assertThat(any.get(2L)).isEqualTo("text");
      assertThat(any.get(3L)).isEqualTo(new Point(3, 3, "three"));
      assertThat(points).hasSize(100);
      assertThat(cache.verify()).isEqualTo(203);
    }
  }

  @Test
  void anEightByteKey_andTheValuesKind_areSaidByTheMark_inATableOfByteKeysAndAnyValues(
      @TempDir Path dir) throws Exception {
    CacheOptions options = WITH_POINTS;
    List<byte[]> keys = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] key = new byte[5 + i % 7]; // 5 to 11 bytes: every seventh of 8
      Arrays.fill(key, (byte) i);
      key[0] = (byte) (i >> 8);
      keys.add(key);
      values.add(
          switch (i % 3) {
            case 0 -> value(i);
            case 1 -> "value " + i;
            default -> new Point(i, -i, "p" + i);
          });
    }
    try (Cache cache = Cache.open(dir, options)) {
      CacheTable<byte[], Object> jcacheLike = cache.table("any", byte[].class, Object.class);
      LongCacheTable<Object> longs = cache.longKeys(jcacheLike);
      for (int i = 0; i < 1000; i++) {
        longs.put(i, value(i));
      }
      assertThat(bytesPerEntry(jcacheLike.stats()))
          .as("8 + key 8 + 32, as in a table of long keys and byte[] values")
          .isEqualTo(48);
      long before = jcacheLike.stats().entryBytes();
      jcacheLike.put(new byte[7], new byte[32]);
      assertThat(jcacheLike.stats().entryBytes() - before)
          .as("a key of 7 keeps its length byte: 8 + 1 + 7 + 32")
          .isEqualTo(48);
      jcacheLike.remove(new byte[7]);
      for (int i = 0; i < keys.size(); i++) {
        jcacheLike.put(keys.get(i), values.get(i));
      }
    }
    try (Cache cache = Cache.open(dir, options)) {
      CacheTable<byte[], Object> jcacheLike = cache.table("any", byte[].class, Object.class);
      LongCacheTable<Object> longs = cache.longKeys(jcacheLike);
      for (int i = 0; i < 1000; i++) {
        assertThat((byte[]) longs.get(i)).isEqualTo(value(i));
      }
      for (int i = 0; i < keys.size(); i++) {
        Object read = jcacheLike.get(keys.get(i));
        if (values.get(i) instanceof byte[] bytes) {
          assertThat((byte[]) read).as("key %d", i).isEqualTo(bytes);
        } else {
          assertThat(read).as("key %d", i).isEqualTo(values.get(i));
        }
      }
      int iterated = 0;
      for (var e : jcacheLike) {
        assertThat(e.getKey().length).isBetween(5, 11);
        iterated++;
      }
      assertThat(iterated).isEqualTo(1300);
      assertThat(cache.verify()).isEqualTo(1300);
    }
  }

  @Test
  void anEntryWhoseMarkItsTableCannotHave_readsAsNoEntry_andVerifyNamesIt() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> t = cache.longTable("t", byte[].class);
      t.put(1, value(1));
      OffHeapTable<?, ?> table = (OffHeapTable<?, ?>) t.boxed();
      long pointer = 0;
      for (int s = 0; s < HashIndex.SHARDS && pointer == 0; s++) {
        for (int i = 0; i < table.index.capacityOf(s) && pointer == 0; i++) {
          long p = table.index.pointerAt(HashIndex.slotAddress(s, i));
          pointer = p == HashIndex.TOMBSTONE ? 0 : p; // a pointer's tag may set its sign bit
        }
      }
      assertThat(pointer).as("the entry's pointer").isNotZero();
      byte[] entry = new byte[40]; // its key (8 bytes, big-endian 1) and its value, bare
      entry[7] = 1;
      System.arraycopy(value(1), 0, entry, 8, 32);
      // bare, and its key's length said by the mark: a long table's keys have a fixed length
      cache.core().log().update(pointer, withMark(entry, 0b0011), CacheCore.RECORD_ENTRY, NONE);

      assertThat(t.get(1)).as("read as no entry").isNull();
      assertThatThrownBy(cache::verify)
          .isInstanceOf(CacheCorruptionException.class)
          .hasMessageContaining("not a cache entry");
      cache.core().log().update(pointer, withMark(entry, 0b0001), CacheCore.RECORD_ENTRY, NONE);
      assertThat(t.get(1)).as("the same bytes with the table's own mark").isEqualTo(value(1));
      assertThat(cache.verify()).isOne();
    }
  }

  /** A change of nothing, for a write the test makes behind the table. */
  private static final EntryLog.Change NONE =
      new EntryLog.Change() {
        @Override
        public MemorySegment apply(long pointer) {
          return MemorySegment.ofArray(new byte[0]);
        }

        @Override
        public void afterLog() {}
      };

  private static PayloadWriter withMark(byte[] bytes, int mark) {
    return new PayloadWriter() {
      @Override
      public int sizeBytes() {
        return bytes.length;
      }

      @Override
      public void writeTo(MemorySegment target, long offset) {
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, target, offset, bytes.length);
      }

      @Override
      public int mark() {
        return mark;
      }
    };
  }

  @Test
  void aKeyOfMoreThan255Bytes_takesAHeader_andReadsBackAsAnyOther() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      String longest = "k".repeat(255);
      String longer = "k".repeat(256);
      t.put(longest, "bare");
      long bareBytes = t.stats().entryBytes();
      t.put(longer, "headed");
      assertThat(bareBytes).as("8 + 1 + 255 + 4").isEqualTo(272);
      assertThat(t.stats().entryBytes() - bareBytes)
          .as("a header of 8 bytes, not a length byte: 8 + 8 + 256 + 6, rounded")
          .isEqualTo(280);
      assertThat(t.get(longest)).isEqualTo("bare");
      assertThat(t.get(longer)).isEqualTo("headed");
      assertThat(t.get("k".repeat(254))).isNull();
      assertThat(cache.verify()).isEqualTo(2);
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

  /**
   * Keys that are never absent, rewritten bare and with a header in turn by two writers while four
   * readers (six threads on fewer cores) get them: every get finds its key and a value written for
   * it. A reader that took a slot's new pointer with its old meta, and the form from the meta,
   * would read one form as the other: a miss, or another value.
   */
  @Test
  void readersOfKeysThatChangeForm_neverMissThem_norReadAnotherValue() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("BareEntryTest seed=" + seed);
    int keys = 64;
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> t = cache.longTable("t", String.class);
      for (int k = 0; k < keys; k++) {
        t.put(k, k + "#0");
      }
      AtomicBoolean stop = new AtomicBoolean();
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        Random random = new Random(seed + w);
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      for (int i = 1; i <= 100_000; i++) {
                        int k = random.nextInt(keys);
                        String v = k + "#" + i;
                        switch (random.nextInt(3)) {
                          case 0 -> t.put(k, v); // bare
                          case 1 -> t.put(k, v, EntryOptions.pin()); // a header, flag pinned
                          default -> // a header with an expire-at
                              t.put(k, v, EntryOptions.expireAfter(Duration.ofHours(1)));
                        }
                      }
                    }));
      }
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        Random random = new Random(seed - r - 1);
        readers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      while (!stop.get()) {
                        int k = random.nextInt(keys);
                        String v = t.get(k);
                        if (v == null || !v.startsWith(k + "#")) {
                          failures.add("key " + k + " read " + v + " seed=" + seed);
                        }
                      }
                    }));
      }
      for (Thread th : threads) {
        th.join();
      }
      stop.set(true);
      for (Thread th : readers) {
        th.join();
      }
      assertThat(failures).isEmpty();
      assertThat(cache.verify()).isEqualTo(keys);
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
