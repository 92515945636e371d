package dev.cairn.cache;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told: expiry tests run on it. */
final class ManualClock implements InstantSource {
  private final AtomicLong millis;
  private final AtomicLong reads = new AtomicLong();

  ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  ManualClock() {
    this(1_700_000_000_000L);
  }

  void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  /** How many times the time was read. */
  long reads() {
    return reads.get();
  }

  @Override
  public long millis() {
    reads.incrementAndGet();
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
