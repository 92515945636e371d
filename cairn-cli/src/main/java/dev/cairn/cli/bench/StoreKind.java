package dev.cairn.cli.bench;

import java.util.Locale;

/** A store the bench can measure. Declaration order is run order: see {@link BenchRunner}. */
public enum StoreKind {
  /** A {@link dev.cairn.pile.Pile} in native memory, with default options. */
  PILE,
  /** A {@code ConcurrentHashMap<Long, byte[]>} on the Java heap: the baseline. */
  MAP;

  /** The name used on the command line and in the reports. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  BenchStore open(BenchConfig config) {
    return switch (this) {
      case PILE -> new PileStore(config.n());
      case MAP -> new MapStore(config.n());
    };
  }
}
