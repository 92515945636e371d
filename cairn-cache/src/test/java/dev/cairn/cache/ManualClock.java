package dev.cairn.cache;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told: expiry tests run on it. */
final class ManualClock implements InstantSource {
  private final AtomicLong millis;

  ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  ManualClock() {
    this(1_700_000_000_000L);
  }

  void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
