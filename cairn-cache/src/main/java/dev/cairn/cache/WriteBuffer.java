package dev.cairn.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * A bounded ring of {@code long} events from many writers to one reader, with no lock and no
 * allocation: the writers' policy events (the policy hashes of the entries they stored), drained by
 * the eviction lock's holder (Evictor). As Caffeine's write buffer, but never blocking: a writer
 * that finds it full drops its event, and the eviction hand counts the entry when it passes it
 * (CacheSlots V3).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * B1  A writer claims a position by compare-and-set of tail, only while tail - head < capacity,
 *     then stores value + 1 with release: 0 marks a position claimed or drained, not yet
 *     written (so an event may be any value but -1).
 * B2  The reader takes positions from head while they hold a non-zero value, zeroes each, and
 *     then publishes the new head: a writer reuses a position only after the reader zeroed it.
 * B3  A claimed position not yet written stops the reader: what follows waits for the next
 *     drain, whose writer tries the lock after writing (Evictor), so nothing waits for long.
 * }</pre>
 *
 * <p>Thread-safety: {@link #offer} from any thread; {@link #drain} and {@link #hasEvents} by one
 * thread at a time (the eviction lock's holder; {@link #hasEvents} may be a stale hint elsewhere).
 */
final class WriteBuffer {
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] slots;
  private final int mask;
  private final AtomicLong tail = new AtomicLong();
  private volatile long head; // written by the reader only (B2)

  /** A buffer of {@code capacity} events, a power of two. */
  WriteBuffer(int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
    }
    slots = new long[capacity];
    mask = capacity - 1;
  }

  /** Adds {@code value} (not -1); false, adding nothing, if the buffer is full. */
  boolean offer(long value) {
    long t;
    do {
      t = tail.get();
      if (t - head >= slots.length) {
        return false;
      }
    } while (!tail.compareAndSet(t, t + 1));
    SLOTS.setRelease(slots, (int) (t & mask), value + 1);
    return true;
  }

  /** Whether the next event is written and waits to be drained. */
  boolean hasEvents() {
    return (long) SLOTS.getAcquire(slots, (int) (head & mask)) != 0;
  }

  /**
   * Passes the written events to {@code consumer}, in order, until a gap (B3), at most one buffer's
   * worth (writers may keep adding); their count.
   */
  int drain(LongConsumer consumer) {
    long h = head;
    int drained = 0;
    while (drained < slots.length) {
      int at = (int) (h & mask);
      long value = (long) SLOTS.getAcquire(slots, at);
      if (value == 0) {
        break;
      }
      SLOTS.setRelease(slots, at, 0L);
      h++;
      head = h; // B2: after the zero
      drained++;
      consumer.accept(value - 1);
    }
    return drained;
  }
}
