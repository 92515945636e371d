package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The write time's clock: a time the wall showed, refreshed while used, parked when not. */
class WriteClockTest {
  private static final long WAIT_NANOS = 20_000_000_000L;

  private static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waited 20 s for: %s", what).isNegative();
      Thread.sleep(1);
    }
  }

  @Test
  void aStoppedClock_readsTheWall_andWakesTheTicker_whichRefreshesIt() throws Exception {
    AtomicLong wall = new AtomicLong(1_000);
    WriteClock clock =
        new WriteClock(wall::get, WriteClock.TICK_NANOS, 1_000_000, WriteClock.IDLE_NANOS);
    assertThat(clock.ticking()).isFalse();
    assertThat(clock.millis()).isEqualTo(1_000); // read from the wall by the caller
    assertThat(clock.ticking()).isTrue();
    wall.set(2_000);
    awaitTrue(() -> clock.millis() == 2_000, "the ticker to refresh the value");
    wall.set(3_000);
    awaitTrue(() -> clock.millis() == 3_000, "a second refresh");
  }

  @Test
  void theTicker_stopsAfterItsTicks_andTheNextReadTakesTheWallExactly() throws Exception {
    AtomicLong wall = new AtomicLong(5);
    WriteClock clock = new WriteClock(wall::get, WriteClock.TICK_NANOS, 3, WriteClock.IDLE_NANOS);
    clock.millis();
    awaitTrue(() -> !clock.ticking(), "the ticker to park after its ticks");
    wall.set(77);
    assertThat(clock.millis()).isEqualTo(77); // not a value from before the park
    assertThat(clock.ticking()).isTrue();
    awaitTrue(() -> !clock.ticking(), "the ticker to park again");
    wall.set(99);
    assertThat(clock.millis()).isEqualTo(99);
  }

  @Test
  void anIdleTicker_endsItsThread_andTheNextReadMakesANewOne() throws Exception {
    AtomicLong wall = new AtomicLong(10);
    WriteClock clock = new WriteClock(wall::get, WriteClock.TICK_NANOS, 2, 20_000_000);
    assertThat(clock.hasTicker()).isFalse();
    clock.millis();
    assertThat(clock.hasTicker()).isTrue();
    awaitTrue(() -> !clock.hasTicker(), "the idle ticker to end");
    wall.set(20);
    assertThat(clock.millis()).isEqualTo(20);
    assertThat(clock.hasTicker()).isTrue();
    wall.set(30);
    awaitTrue(() -> clock.millis() == 30, "the new ticker's value, or the wall's once it stops");
  }

  @Test
  void itNeverSaysATimeTheWallHasNotShown() throws Exception {
    AtomicLong wall = new AtomicLong();
    WriteClock clock =
        new WriteClock(wall::get, 100_000, 50, 2_000_000); // 0.1 ms ticks, parks and ends often
    long deadline = System.nanoTime() + 300_000_000L;
    long reads = 0;
    while (System.nanoTime() < deadline) {
      long shown = wall.incrementAndGet();
      long read = clock.millis();
      assertThat(read).as("read %d", reads).isBetween(0L, shown);
      reads++;
    }
    assertThat(reads).isPositive();
    // and never left frozen: after all those ends and new tickers, the value still follows the wall
    wall.set(Long.MAX_VALUE / 2);
    awaitTrue(() -> clock.millis() == Long.MAX_VALUE / 2, "the value to follow the wall");
  }

  @Test
  void readsAsIdleTickersEnd_neverLeaveTheValueFrozen() throws Exception {
    long seed = System.nanoTime();
    System.out.println("WriteClockTest seed " + seed);
    java.util.Random random = new java.util.Random(seed);
    AtomicLong wall = new AtomicLong();
    WriteClock clock = new WriteClock(wall::get, 100_000, 2, 1_000_000); // idle: 1 ms
    for (int i = 0; i < 300; i++) {
      wall.incrementAndGet();
      clock.millis();
      // gaps around the idle time, so that reads meet tickers as they end
      java.util.concurrent.locks.LockSupport.parkNanos(500_000 + random.nextInt(1_500_000));
    }
    wall.set(Long.MAX_VALUE / 2);
    awaitTrue(() -> clock.millis() == Long.MAX_VALUE / 2, "the value to follow the wall");
  }

  @Test
  void theSystemClocksWriteTime_isNeverAhead_andAFreshPutMeetsAGenerousMaxAge() throws Exception {
    for (int i = 0; i < 10_000; i++) {
      long before = System.currentTimeMillis();
      long read = WriteClock.system().millis();
      assertThat(read).isLessThanOrEqualTo(System.currentTimeMillis());
      assertThat(before - read).as("lag at read %d", i).isLessThan(10_000);
    }
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      LongCacheTable<byte[]> table = cache.longTable("t", byte[].class);
      table.put(1, new byte[] {1});
      assertThat(table.get(1L, Duration.ofMinutes(1))).containsExactly(1);
      Thread.sleep(30);
      assertThat(table.get(1L, Duration.ofMillis(5))).as("30 ms old, max age 5 ms").isNull();
    }
  }
}
