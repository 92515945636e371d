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
 * without pause thus wakes the ticker about ten times a second (an unpark each). A ticker left
 * STOPPED for IDLE_NANOS (a second) ends its thread, and the next wake-up makes a new one: a
 * JVM whose caches are not written keeps no thread for this, and an application server that
 * unloads the application is not kept from collecting its classes by a parked thread. One
 * ticker serves every cache of the JVM that uses the system clock; a cache with a clock of its
 * own (CacheOptions.clock, as tests set) reads that clock instead.
 *
 * Invariants:
 * W1 millis is STOPPED or a value the wall clock returned: it only ever holds such a value.
 * W2 While the ticker is parked, millis is STOPPED or a writer has just put a time in and
 *    unparks it or makes a new one (the CAS winner, after its CAS, in ticker()), so no value
 *    other than STOPPED goes unrefreshed for longer than a wake-up takes.
 * W3 The ticker ends only under the monitor, having seen STOPPED there, and clears ticker: a
 *    writer whose CAS came before that check is seen (the ticker goes on), one whose CAS came
 *    after finds ticker null in ticker() and makes a new thread.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread.
 */
final class WriteClock {
  /** The value of {@link #millis} while the ticker is parked. */
  static final long STOPPED = Long.MIN_VALUE;

  static final long TICK_NANOS = 1_000_000;
  static final int TICKS_PER_WAKE = 100;
  static final long IDLE_NANOS = 1_000_000_000;

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
    static final WriteClock CLOCK =
        new WriteClock(new SystemWall(), TICK_NANOS, TICKS_PER_WAKE, IDLE_NANOS);
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
  private final long idleNanos;
  private volatile long millis = STOPPED;
  private Thread ticker; // guarded by this; null until a wake-up makes it, and after it ends

  WriteClock(LongSupplier wall, long tickNanos, int ticksPerWake, long idleNanos) {
    this.wall = wall;
    this.tickNanos = tickNanos;
    this.ticksPerWake = ticksPerWake;
    this.idleNanos = idleNanos;
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

  /** Whether a ticker thread is alive, ticking or parked (tests). */
  synchronized boolean hasTicker() {
    return ticker != null;
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
      ticker.setContextClassLoader(null); // holds no application's class loader
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
      long idleUntil = System.nanoTime() + idleNanos;
      while (millis == STOPPED) { // until a writer puts a time in (W2), or idle too long
        long left = idleUntil - System.nanoTime();
        if (left <= 0) {
          synchronized (this) {
            if (millis == STOPPED) { // W3: a writer's CAS after this makes a new ticker
              ticker = null;
              return;
            }
          }
        } else {
          LockSupport.parkNanos(this, left);
        }
      }
    }
  }
}
