package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.pile.PileClosedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** {@link CacheTable#getInto}: a get into the caller's array, as a get counts and sees it. */
class GetIntoTest {
  private final ManualClock clock = new ManualClock();

  @Test
  void getInto_copiesTheValue_andReturnsItsLength_orMinusOneWhenAbsent() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> t = cache.longTable("t", byte[].class);
      t.put(7L, new byte[] {1, 2, 3});
      byte[] into = new byte[8];
      Arrays.fill(into, (byte) 9);

      assertThat(t.getInto(7L, into)).isEqualTo(3);
      assertThat(Arrays.copyOf(into, 3)).containsExactly(1, 2, 3);
      assertThat(t.getInto(8L, into)).isEqualTo(-1);
      assertThat(t.boxed().getInto(7L, new byte[3])).isEqualTo(3);
      assertThat(t.stats().hits()).isEqualTo(2);
      assertThat(t.stats().misses()).isEqualTo(1);
    }
  }

  @Test
  void aShortArray_getsThePrefix_andTheResultSaysHowLongItMustBe() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> t = cache.longTable("t", byte[].class);
      t.put(1L, new byte[] {10, 11, 12, 13, 14});
      byte[] into = new byte[2];

      assertThat(t.getInto(1L, into)).isEqualTo(5);
      assertThat(into).containsExactly(10, 11);
      assertThat(t.getInto(1L, new byte[0])).isEqualTo(5);
    }
  }

  @Test
  void aStringTable_copiesTheUtf8Bytes_andAnObjectTableRefuses() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> names = cache.table("names", String.class, String.class);
      names.put("k", "héllo");
      byte[] into = new byte[16];
      int length = names.getInto("k", into);
      assertThat(new String(into, 0, length, StandardCharsets.UTF_8)).isEqualTo("héllo");

      CacheTable<String, Long> counts = cache.table("counts", String.class, Long.class);
      counts.put("k", 5L);
      assertThatThrownBy(() -> counts.getInto("k", into))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("table 'counts'")
          .hasMessageContaining("java.lang.Long");
      assertThat(counts.get("k")).as("the table is still usable").isEqualTo(5L);
    }
  }

  @Test
  void anExpiredEntry_isAMiss_andIsReclaimed() {
    try (Cache cache = Cache.offHeap(CacheOptions.builder().clock(clock).build())) {
      LongCacheTable<byte[]> t =
          cache.longTable(
              "t",
              byte[].class,
              TableOptions.builder().expireAfterWrite(Duration.ofSeconds(10)).build());
      t.put(1L, new byte[] {1});
      byte[] into = new byte[4];
      assertThat(t.getInto(1L, into)).isEqualTo(1);
      clock.advance(Duration.ofSeconds(10));
      assertThat(t.getInto(1L, into)).isEqualTo(-1);
      assertThat(t.size()).as("the read reclaimed it").isZero();
      assertThat(t.stats().expirations()).isEqualTo(1);
    }
  }

  @Test
  void badArguments_andAClosedCache_areRefused() {
    Cache cache = Cache.offHeap(CacheOptions.defaults());
    LongCacheTable<byte[]> t = cache.longTable("t", byte[].class);
    CacheTable<String, byte[]> s = cache.table("s", String.class, byte[].class);
    t.put(1L, new byte[] {1});
    assertThatThrownBy(() -> t.getInto(1L, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("into");
    assertThatThrownBy(() -> s.getInto(null, new byte[1])).isInstanceOf(NullPointerException.class);
    cache.close();
    assertThatThrownBy(() -> t.getInto(1L, new byte[1])).isInstanceOf(PileClosedException.class);
  }

  /**
   * Readers copy values into their own arrays while writers rewrite the same keys with values of
   * other lengths (moved or rewritten in place) and eviction removes them: a reader sees a whole
   * value that some writer wrote for that key, or -1, never a torn one or another key's.
   */
  @Test
  void concurrentReaders_seeWholeValuesOfTheirKey_whileWritersRewriteAndEvict() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("GetIntoTest seed=" + seed);
    int threads = 8;
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(1L << 20).build())) {
      LongCacheTable<byte[]> t = cache.longTable("t", byte[].class);
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> all = new ArrayList<>();
      for (int th = 0; th < threads; th++) {
        Random random = new Random(seed + th);
        boolean writer = th % 2 == 0;
        all.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      byte[] into = new byte[64];
                      try {
                        start.await();
                        for (int i = 0; i < 60_000; i++) {
                          long key = random.nextInt(20_000);
                          if (writer) {
                            t.put(key, value(key, random.nextInt(1 << 20)));
                            continue;
                          }
                          int length = t.getInto(key, into);
                          String problem = length < 0 ? null : check(key, into, length);
                          if (problem != null) {
                            failures.add(new AssertionError(problem + " seed=" + seed));
                            return;
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      start.countDown();
      for (Thread th : all) {
        th.join();
      }
      CacheConcurrencyTest.failIfAny(failures);
      assertThat(t.stats().evictions()).as("eviction ran meanwhile").isPositive();
      assertThat(cache.verify()).isEqualTo(t.size());
    }
  }

  /** A value of {@code key} at {@code version}: its key, its version, then a fill they decide. */
  private static byte[] value(long key, int version) {
    byte[] value = new byte[12 + version % 40];
    for (int i = 0; i < 8; i++) {
      value[i] = (byte) (key >>> (8 * i));
    }
    for (int i = 0; i < 4; i++) {
      value[8 + i] = (byte) (version >>> (8 * i));
    }
    for (int i = 12; i < value.length; i++) {
      value[i] = (byte) (key * 31 + version + i);
    }
    return value;
  }

  /** What is wrong with {@code length} bytes in {@code into} as a value of {@code key}, or null. */
  private static String check(long key, byte[] into, int length) {
    if (length < 12 || length > into.length) {
      return "key " + key + ": length " + length;
    }
    long readKey = 0;
    for (int i = 0; i < 8; i++) {
      readKey |= (into[i] & 0xFFL) << (8 * i);
    }
    int version = 0;
    for (int i = 0; i < 4; i++) {
      version |= (into[8 + i] & 0xFF) << (8 * i);
    }
    if (readKey != key) {
      return "key " + key + " read the value of key " + readKey;
    }
    byte[] expected = value(key, version);
    if (expected.length != length || !Arrays.equals(expected, 0, length, into, 0, length)) {
      return "key " + key + ": torn value of version " + version + ", length " + length;
    }
    return null;
  }
}
