package dev.cairn.bench.harness;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Figures of a run that belong to the machine rather than to a store, measured in the same run so
 * that the stores' figures can be read against them: the disk's fsync latency and sequential read
 * rate, whether the page cache could be dropped, and which stores were skipped, and why. Filled in
 * by the runner as it goes; a figure never measured stays absent.
 */
public final class MachineFigures {
  private OptionalDouble fsyncMicros = OptionalDouble.empty();
  private OptionalDouble ddReadMBps = OptionalDouble.empty();
  private Boolean coldCache;
  private final Map<StoreKind, String> skipped = new EnumMap<>(StoreKind.class);

  /** Median time of a 4 KiB write plus {@code FileChannel.force} in the run's directory. */
  public OptionalDouble fsyncMicros() {
    return fsyncMicros;
  }

  MachineFigures fsyncMicros(double micros) {
    fsyncMicros = OptionalDouble.of(micros);
    return this;
  }

  /**
   * The rate {@code dd} read a pile file at (a segment file after {@code --reopen}, a log file
   * after {@code --recovery}), from a cold page cache, in MB/s (10^6).
   */
  public OptionalDouble ddReadMBps() {
    return ddReadMBps;
  }

  MachineFigures ddReadMBps(double mbps) {
    ddReadMBps = OptionalDouble.of(mbps);
    return this;
  }

  /**
   * Whether the page cache was dropped before the reopen or the recovery, so that its reads came
   * from the disk; null when nothing was reopened or recovered.
   */
  public Boolean coldCache() {
    return coldCache;
  }

  MachineFigures coldCache(boolean cold) {
    coldCache = cold;
    return this;
  }

  /** Stores asked for that could not run, each with the reason. */
  public Map<StoreKind, String> skipped() {
    return Collections.unmodifiableMap(skipped);
  }

  MachineFigures skip(StoreKind store, String reason) {
    skipped.put(store, reason);
    return this;
  }
}
