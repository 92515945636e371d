package dev.cairn.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The wall clock a write reads for its entry's write time when nothing else in the write needs the
 * time: a value a ticker thread refreshes about every millisecond while writes ask for it, so that
 * such a write reads a field instead of the system clock.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why: every entry records when it was written (EntryLayout), for get(key, maxAge), and a read
 * of the system clock costs about 25 ns on the test VM: about a tenth of a put that replaces a
 * value in a table held in the processor's caches (the cairn-bench JCacheBenchmark.table_put
 * profile), where nothing else in the put asks the time.
 *
 * What it may say: a time the wall clock showed at most about one tick ago (longer when the
 * ticker gets no processor), never a time it has not shown yet. So an entry's write time may be
 * early, and the entry look older than it is to get(key, maxAge), which may then miss it; it
 * never looks younger, so such a get never returns an entry older than its maximum age. Expiry
 * never uses it: a write that computes an expiry, or that finds an entry whose expiry the clock
 * decides, reads the cache's clock itself (OffHeapTable.writeEncoded).
 *
 * Ticking only while used: the ticker refreshes the value TICKS_PER_WAKE times, then marks it
 * STOPPED and parks. The next write that finds STOPPED reads the clock itself, puts that time
 * in (one CAS from STOPPED: the writer that wins it), and unparks the ticker. A cache written
 * without pause thus wakes the ticker about ten times a second (an unpark each); a cache not
 * written costs no wake-up. One ticker serves every cache of the JVM that uses the system clock;
 * a cache with a clock of its own (CacheOptions.clock, as tests set) reads that clock instead.
 *
 * Invariants:
 * W1 millis is STOPPED or a value the wall clock returned: it only ever holds such a value.
 * W2 While the ticker is parked, millis is STOPPED or a writer has just put a time in and
 *    unparked it (the CAS winner unparks after its CAS), so the ticker never sleeps on a value
 *    nobody refreshes for longer than one wake-up takes.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread.
 */
final class WriteClock {
  /** The value of {@link #millis} while the ticker is parked. */
  static final long STOPPED = Long.MIN_VALUE;

  static final long TICK_NANOS = 1_000_000;
  static final int TICKS_PER_WAKE = 100;

  private static final VarHandle MILLIS;

  static {
    try {
      MILLIS = MethodHandles.lookup().findVarHandle(WriteClock.class, "millis", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The system clock's, shared by every cache that uses the system clock. Made at the first put
   * that asks for it (a holder), and with no lambda in this class: a cache's open, a restart's path
   * to its first hit, loads none of it.
   */
  static WriteClock system() {
    return SystemHolder.CLOCK;
  }

  private static final class SystemHolder {
    static final WriteClock CLOCK = new WriteClock(new SystemWall(), TICK_NANOS, TICKS_PER_WAKE);
  }

  private static final class SystemWall implements LongSupplier {
    @Override
    public long getAsLong() {
      return System.currentTimeMillis();
    }
  }

  private final LongSupplier wall;
  private final long tickNanos;
  private final int ticksPerWake;
  private volatile long millis = STOPPED;
  private Thread ticker; // guarded by this; made at the first wake-up

  WriteClock(LongSupplier wall, long tickNanos, int ticksPerWake) {
    this.wall = wall;
    this.tickNanos = tickNanos;
    this.ticksPerWake = ticksPerWake;
  }

  /** A time the wall clock has shown, at most about one tick ago (see the note). */
  long millis() {
    long t = millis;
    return t != STOPPED ? t : wake();
  }

  /** Whether the ticker refreshes the value now (tests). */
  boolean ticking() {
    return millis != STOPPED;
  }

  private long wake() {
    long now = wall.getAsLong();
    if (MILLIS.compareAndSet(this, STOPPED, now)) { // W2: the winner wakes the ticker
      LockSupport.unpark(ticker());
    }
    return now;
  }

  private synchronized Thread ticker() {
    if (ticker == null) {
      ticker = new Thread(new Ticker(this), "cairn-write-clock");
      ticker.setDaemon(true);
      ticker.start();
    }
    return ticker;
  }

  private static final class Ticker implements Runnable {
    private final WriteClock clock;

    Ticker(WriteClock clock) {
      this.clock = clock;
    }

    @Override
    public void run() {
      clock.tick();
    }
  }

  private void tick() {
    while (true) {
      for (int i = 0; i < ticksPerWake; i++) {
        LockSupport.parkNanos(this, tickNanos);
        millis = wall.getAsLong(); // W1
      }
      millis = STOPPED;
      while (millis == STOPPED) {
        LockSupport.park(this); // until a writer puts a time in (W2); spurious returns loop
      }
    }
  }
}
