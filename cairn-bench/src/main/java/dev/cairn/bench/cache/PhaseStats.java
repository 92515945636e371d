package dev.cairn.bench.cache;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What one thread counted in one phase: operations, gets and their hits, puts, and the latency of
 * every get. Written by its thread only, read once the phase is over; {@link #add} merges.
 */
final class PhaseStats {
  /** The longest get a histogram records exactly; longer ones count as this long. */
  private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);

  long operations;
  long gets;
  long hits;
  long puts;
  final Histogram getNanos = new Histogram(HIGHEST_NANOS, 3);

  void recordGet(long nanos) {
    getNanos.recordValue(Math.min(nanos, HIGHEST_NANOS));
  }

  PhaseStats add(PhaseStats other) {
    operations += other.operations;
    gets += other.gets;
    hits += other.hits;
    puts += other.puts;
    getNanos.add(other.getNanos);
    return this;
  }
}
