package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of the cache's javadoc ({@code {@snippet}} regions), compiled and run. */
class CacheExamplesTest {
  @TempDir Path temp;

  @Test
  void persistentCache_isWarmAfterAReopen() throws IOException {
    Path directory = temp.resolve("cache");
    String html = "<html>...</html>";
    // @start region="persistent-cache"
    try (Cache cache =
        Cache.open(
            directory,
            CacheOptions.builder().budgetBytes(64L << 20).build())) { // one budget, every table
      CacheTable<String, String> pages =
          cache.table(
              "pages",
              String.class,
              String.class,
              TableOptions.builder().expireAfterWrite(Duration.ofHours(1)).build());
      pages.put("/index.html", html); // durable when put returns (SYNC)
    }
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      CacheTable<String, String> pages = cache.table("pages", String.class, String.class);
      String hit = pages.get("/index.html"); // served at once: no rebuild
      // @end
      assertThat(hit).isEqualTo(html);
    }
  }

  @Test
  void tableOperations() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      // @start region="table-operations"
      CacheTable<String, String> users = cache.table("users", String.class, String.class);
      PutResult result = users.put("u1", "alice"); // INSERTED
      users.putIfAbsent("u1", "bob"); // "alice" stays, and is returned
      users.replace("u1", "alice", "alicia"); // compare-and-set: true
      String name = users.computeIfAbsent("u2", id -> "loaded " + id); // no lock held meanwhile
      for (Map.Entry<String, String> e : users) { // weakly consistent, off-heap to heap
        System.out.println(e.getKey() + " = " + e.getValue());
      }
      users.remove("u2");
      // @end
      assertThat(result).isEqualTo(PutResult.INSERTED);
      assertThat(name).isEqualTo("loaded u2");
      assertThat(users.get("u1")).isEqualTo("alicia");
      assertThat(users.size()).isEqualTo(1);
    }
  }

  @Test
  void merge_countsWords() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      // @start region="merge"
      CacheTable<String, Long> counts = cache.table("counts", String.class, Long.class);
      for (String word : "to be or not to be".split(" ")) {
        counts.merge(word, 1L, Long::sum); // no update lost, from any number of threads
      }
      // @end
      assertThat(counts.get("to")).isEqualTo(2L);
      assertThat(counts.get("or")).isEqualTo(1L);
      assertThat(counts.size()).isEqualTo(4);
    }
  }

  @Test
  void keyLock_makesSeveralCallsOneStep() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, Long> stock = cache.table("stock", String.class, Long.class);
      stock.put("sku-1", 1L);
      List<String> shipped = new ArrayList<>();
      for (int order = 0; order < 2; order++) {
        // @start region="key-lock"
        Lock lock = stock.keyLock("sku-1");
        lock.lock();
        try { // no other write of "sku-1" between the read and the write
          Long left = stock.get("sku-1");
          if (left != null && left > 0) {
            stock.put("sku-1", left - 1);
            shipped.add("sku-1"); // a side effect, which compute() could repeat
          }
        } finally {
          lock.unlock();
        }
        // @end
      }
      assertThat(shipped).containsExactly("sku-1");
      assertThat(stock.get("sku-1")).isZero();
    }
  }

  @Test
  void volatileCache_withLongKeys() {
    // @start region="long-table"
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(16L << 20).build())) {
      LongCacheTable<byte[]> thumbnails = cache.longTable("thumbnails", byte[].class);
      thumbnails.put(42L, new byte[] {1, 2, 3}); // no boxing on this path
      byte[] thumbnail = thumbnails.get(42L);
      // @end
      assertThat(thumbnail).containsExactly(1, 2, 3);
    }
  }

  @Test
  void getInto_readsWithoutGarbage() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> thumbnails = cache.longTable("thumbnails", byte[].class);
      thumbnails.put(42L, new byte[] {1, 2, 3});
      // @start region="get-into"
      byte[] buffer = new byte[4096]; // one per thread, reused for every read
      int length = thumbnails.getInto(42L, buffer);
      if (length > buffer.length) {
        buffer = new byte[length]; // too short: the result says how long it must be
        length = thumbnails.getInto(42L, buffer);
      }
      // length == -1: no such key (or it expired); else buffer[0..length) is the value
      // @end
      assertThat(length).isEqualTo(3);
      assertThat(Arrays.copyOf(buffer, length)).containsExactly(1, 2, 3);
    }
  }

  @Test
  void dropTable_forgetsTheTable() throws IOException {
    Path directory = temp.resolve("drop");
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      cache.table("sessions", String.class, String.class).put("s1", "alice");
      // @start region="drop-table"
      CacheTable<String, String> sessions = cache.table("sessions", String.class, String.class);
      cache.dropTable("sessions"); // entries, index and name: gone, durably
      // sessions.get("s1") would throw TableDroppedException: the handle is dead
      CacheTable<Long, byte[]> fresh = cache.table("sessions", Long.class, byte[].class);
      // @end
      assertThat(fresh.size()).isZero();
      assertThat(sessions).isNotNull();
    }
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      assertThat(cache.tableNames()).containsExactly("sessions");
      assertThat(cache.table("sessions", Long.class, byte[].class).size()).isZero();
    }
  }
}
