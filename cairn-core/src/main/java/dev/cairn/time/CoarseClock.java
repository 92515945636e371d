package dev.cairn.time;

import dev.cairn.memory.NativeCalls;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The wall clock as of the kernel's last timer tick: Linux's {@code CLOCK_REALTIME_COARSE}, read
 * through FFM, under a third of the cost of {@link System#currentTimeMillis()} (6.9-7.5 ns against
 * 23.8-24.3 ns on the test VM, docs/probes/CoarseClockCost.java). Where it cannot be read (not
 * Linux, native access not enabled for Cairn's module), {@link #millis} is {@link
 * System#currentTimeMillis()}.
 *
 * {@snippet :
 * MemorySegment timespec = CoarseClock.timespec();     // one per thread, reused
 * long writtenAt = CoarseClock.millis(timespec);       // <= System.currentTimeMillis() now
 * }
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * What it says: the time of the last tick, so a time the wall clock has shown, behind it by up
 * to one tick (CONFIG_HZ: 4 ms at 250 Hz, the test VM's; clock_getres reports it, resolution()
 * here), and never ahead of what currentTimeMillis returns after it. For a time that may be
 * early and never late (the cache's write times, which get(key, maxAge) compares), never for
 * one that must not be early (an expiry).
 *
 * The call: clock_gettime(CLOCK_REALTIME_COARSE = 5, struct timespec *), a vDSO read of the
 * kernel's time data with no system call. Critical (Linker.Option.critical(true)): no thread
 * state change around a call that cannot block, and the struct may be a heap segment, so each
 * thread reuses an array of its own (timespec()) and nothing is allocated per call. Layout:
 * two 64-bit words (seconds, nanoseconds) on the 64-bit Linux ABIs Cairn runs on.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread, each with its own {@link #timespec()}.
 */
public final class CoarseClock {
  private static final int CLOCK_REALTIME_COARSE = 5;
  private static final long TIMESPEC_BYTES = 2 * Long.BYTES;

  /**
   * The bound calls, in a holder: a caller that only makes its buffer ({@link #timespec()}, which a
   * cache's reads do as they set up their thread) binds nothing; the first {@link #millis} does.
   */
  private static final class Calls {
    static final MethodHandle CLOCK_GETTIME;
    static final MethodHandle CLOCK_GETRES;

    static {
      MethodHandle gettime = null;
      MethodHandle getres = null;
      if (NativeCalls.unavailableBecause() == null) {
        try {
          FunctionDescriptor d =
              FunctionDescriptor.of(
                  ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
          gettime = NativeCalls.bind("clock_gettime", d, Linker.Option.critical(true));
          getres = NativeCalls.bind("clock_getres", d, Linker.Option.critical(true));
          MemorySegment probe = timespec();
          if ((int) gettime.invokeExact(CLOCK_REALTIME_COARSE, probe) != 0) {
            gettime = null; // a kernel without the coarse clock: read the precise one
          }
        } catch (Throwable e) {
          gettime = null;
          getres = null;
        }
      }
      CLOCK_GETTIME = gettime;
      CLOCK_GETRES = gettime == null ? null : getres;
    }

    private Calls() {}
  }

  private CoarseClock() {}

  /** Whether {@link #millis} reads the coarse clock (else {@link System#currentTimeMillis()}). */
  public static boolean coarse() {
    return Calls.CLOCK_GETTIME != null;
  }

  /** A buffer for {@link #millis}, to be used by one thread at a time. */
  public static MemorySegment timespec() {
    return MemorySegment.ofArray(new long[2]);
  }

  /**
   * The wall clock's time in epoch milliseconds as of its last tick: never later than {@link
   * System#currentTimeMillis()} called after it returns, earlier by up to {@link #resolution()}.
   *
   * @param timespec a buffer from {@link #timespec()} that no other thread uses meanwhile
   * @throws IllegalArgumentException if {@code timespec} is shorter than 16 bytes
   */
  public static long millis(MemorySegment timespec) {
    MethodHandle gettime = Calls.CLOCK_GETTIME;
    if (gettime == null) {
      return System.currentTimeMillis();
    }
    if (timespec.byteSize() < TIMESPEC_BYTES) { // the call writes 16 bytes
      throw new IllegalArgumentException(
          "CoarseClock.millis needs a 16-byte buffer (CoarseClock.timespec()), not " + timespec);
    }
    try {
      int failed = (int) gettime.invokeExact(CLOCK_REALTIME_COARSE, timespec);
      if (failed != 0) {
        return System.currentTimeMillis();
      }
    } catch (Throwable e) {
      throw new IllegalStateException("clock_gettime could not be called", e);
    }
    return timespec.get(ValueLayout.JAVA_LONG, 0) * 1000
        + timespec.get(ValueLayout.JAVA_LONG, Long.BYTES) / 1_000_000;
  }

  /** How far {@link #millis} may lag the wall clock, in nanoseconds: 0 when it reads it exactly. */
  public static long resolution() {
    MethodHandle getres = Calls.CLOCK_GETRES;
    if (getres == null) {
      return 0;
    }
    MemorySegment res = timespec();
    try {
      if ((int) getres.invokeExact(CLOCK_REALTIME_COARSE, res) != 0) {
        return 0;
      }
    } catch (Throwable e) {
      return 0;
    }
    return res.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L
        + res.get(ValueLayout.JAVA_LONG, Long.BYTES);
  }
}
