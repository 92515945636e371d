package dev.cairn.bench.cache;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What one thread counted in one phase: operations, gets and their hits, puts, and the latency of
 * every get. Written by its thread only, read once the phase is over; {@link #add} merges. The
 * counters and the histogram's own fields, written on every operation, are followed by two cache
 * lines of padding, so that another thread's stats, which a collection may copy right after them,
 * keep theirs on other lines (CachePhases explains the false sharing this avoids).
 */
@SuppressWarnings("unused")
final class PhaseStats {
  /** The longest get a histogram records exactly; longer ones count as this long. */
  private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);

  long operations;
  long gets;
  long hits;
  long puts;
  final Histogram getNanos = new PaddedHistogram(HIGHEST_NANOS, 3);
  private long p01, p02, p03, p04, p05, p06, p07, p08;
  private long p09, p10, p11, p12, p13, p14, p15, p16;

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

  /** A histogram whose fields (its total count, written on every record) end two lines early. */
  private static final class PaddedHistogram extends Histogram {
    private long p01, p02, p03, p04, p05, p06, p07, p08;
    private long p09, p10, p11, p12, p13, p14, p15, p16;

    PaddedHistogram(long highestTrackableValue, int significantDigits) {
      super(highestTrackableValue, significantDigits);
    }
  }
}
