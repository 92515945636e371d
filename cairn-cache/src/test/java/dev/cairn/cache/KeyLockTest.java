package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cairn.pile.PileClosedException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CacheTable#keyLock}: every write of the key waits for it, reads do not, and the long view
 * of a table gives a key the lock its boxed or byte form has.
 */
class KeyLockTest {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  @ParameterizedTest
  @ValueSource(strings = {"put", "remove", "replace", "putIfAbsent", "compareAndSet", "longView"})
  void aWriteOfTheKey_waitsWhileItsLockIsHeld(String write) throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<byte[], String> table = cache.table("t", byte[].class, String.class);
      byte[] key = ByteBuffer.allocate(Long.BYTES).putLong(7).array();
      if (!write.equals("putIfAbsent")) {
        table.put(key, "before");
      }
      LongCacheTable<String> longs = cache.longKeys(table);
      Consumer<CacheTable<byte[], String>> op =
          switch (write) {
            case "put" -> t -> t.put(key, "after");
            case "putIfAbsent" -> t -> t.putIfAbsent(key, "after");
            case "remove" -> t -> t.remove(key);
            case "replace" -> t -> t.replace(key, "after");
            case "compareAndSet" -> t -> t.replace(key, "before", "after");
            default -> t -> longs.put(7, "after");
          };
      String expected = write.equals("remove") ? null : "after";
      String held = table.get(key);
      ReentrantLock lock = (ReentrantLock) table.keyLock(key);
      ExecutorService writers = Executors.newSingleThreadExecutor();
      AtomicReference<Thread> writer = new AtomicReference<>();
      CompletableFuture<Void> done;
      lock.lock();
      try {
        done =
            CompletableFuture.runAsync(
                () -> {
                  writer.set(Thread.currentThread());
                  op.accept(table);
                },
                writers);
        assertTimeoutPreemptively(
            LIMIT,
            () -> {
              while (writer.get() == null || !lock.hasQueuedThread(writer.get())) {
                Thread.onSpinWait();
              }
            });
        assertThat(done).isNotDone();
        assertThat(table.get(key)).isEqualTo(held); // the write waits, the read does not
        assertThat(longs.get(7)).isEqualTo(held);
      } finally {
        lock.unlock();
      }
      done.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
      writers.shutdown();
      assertThat(table.get(key)).isEqualTo(expected);
    }
  }

  @Test
  void theHolder_writesTheKeyUnderItsOwnLock() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> table = cache.table("t", String.class, String.class);
      Lock lock = table.keyLock("k");
      lock.lock();
      try {
        assertThat(table.put("k", "v")).isEqualTo(PutResult.INSERTED);
        assertThat(table.replace("k", "v", "w")).isTrue();
        assertThat(table.remove("k")).isTrue();
        assertThat(table.putIfAbsent("k", "x")).isNull();
      } finally {
        lock.unlock();
      }
      assertThat(((ReentrantLock) lock).isLocked()).isFalse(); // the writes released their holds
      assertThat(table.get("k")).isEqualTo("x");
    }
  }

  @Test
  void aKey_hasOneLockThroughEveryView() {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<String> longs = cache.longTable("longs", String.class);
      CacheTable<byte[], String> bytes = cache.table("bytes", byte[].class, String.class);
      LongCacheTable<String> bytesByLong = cache.longKeys(bytes);
      int stripes = 0;
      for (long k = -1_000; k < 1_000; k++) {
        Lock lock = longs.keyLock(k);
        assertThat(longs.boxed().keyLock(k)).isSameAs(lock);
        byte[] key = ByteBuffer.allocate(Long.BYTES).putLong(k).array();
        assertThat(bytesByLong.keyLock(k)).isSameAs(bytes.keyLock(key));
        if (lock == longs.keyLock(0)) {
          stripes++;
        }
      }
      assertThat(stripes).as("keys sharing key 0's stripe, of 2,000").isLessThan(20);
    }
  }

  @Test
  void keyLock_refusesANullKeyADroppedTableAndAClosedCache() {
    Cache cache = Cache.offHeap(CacheOptions.defaults());
    CacheTable<String, String> table = cache.table("t", String.class, String.class);
    LongCacheTable<String> longs = cache.longTable("longs", String.class);
    assertThatThrownBy(() -> table.keyLock(null)).isInstanceOf(NullPointerException.class);
    cache.dropTable("t");
    assertThatThrownBy(() -> table.keyLock("k")).isInstanceOf(TableDroppedException.class);
    cache.close();
    assertThatThrownBy(() -> longs.keyLock(1)).isInstanceOf(PileClosedException.class);
  }
}
