package dev.cairn.metrics;

import dev.cairn.pile.DurabilityStats;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileClosedException;
import dev.cairn.pile.PileStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * Binds a pile's figures to a Micrometer registry, tagged {@code pile=NAME}: values and bytes
 * ({@link Pile#stats}), segments, and for a persistent pile its log position, durable position,
 * checkpoints and last recovery ({@link Pile#durabilityStats}). A closed pile's meters read NaN.
 *
 * {@snippet class=dev.cairn.metrics.MetricsTest region=pile}
 *
 * <p>Thread-safety: the meters read the pile's counters from the registry's threads; {@link
 * Pile#stats} takes each stripe's lock briefly, so keep the publishing interval in seconds.
 */
public final class PileMetrics implements MeterBinder {
  private final Pile pile;
  private final Tags tags;

  /** Meters of {@code pile}, tagged {@code pile=name} and {@code extraTags}. */
  public PileMetrics(Pile pile, String name, Iterable<Tag> extraTags) {
    this.pile = pile;
    this.tags = Tags.of("pile", name).and(extraTags);
  }

  public PileMetrics(Pile pile, String name) {
    this(pile, name, Tags.empty());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "cairn.pile.objects", "Live values", BaseUnits.OBJECTS, s -> s.objectCount());
    gauge(registry, "cairn.pile.segments", "Native segments held", null, s -> s.segmentCount());
    gauge(
        registry,
        "cairn.pile.capacity",
        "Bytes of all segments (what the pile takes from the OS)",
        BaseUnits.BYTES,
        s -> s.capacityBytes());
    gauge(
        registry,
        "cairn.pile.allocated",
        "Bytes of live blocks, headers included",
        BaseUnits.BYTES,
        s -> s.allocatedBytes());
    gauge(
        registry,
        "cairn.pile.utilized",
        "Payload bytes of live values",
        BaseUnits.BYTES,
        s -> s.utilizedBytes());
    gauge(registry, "cairn.pile.free", "Bytes in free blocks", BaseUnits.BYTES, s -> s.freeBytes());
    durable(registry, "cairn.pile.log.end", "Log position of the next record", d -> d.logEndLsn());
    durable(
        registry,
        "cairn.pile.log.durable",
        "Log position below which every record is on disk",
        d -> d.durableLsn());
    durable(
        registry,
        "cairn.pile.recovery.duration",
        "Time the last open took, recovery included, in seconds",
        d -> d.openMillis() / 1000.0);
    durable(
        registry,
        "cairn.pile.recovery.replay",
        "Part of the last open spent on the log (its end, its records, unfinished transactions),"
            + " in seconds",
        d -> d.replayMillis() / 1000.0);
    durable(
        registry,
        "cairn.pile.recovery.end.search",
        "Bytes of log the last open read past its end, for proof that the end had been durable",
        d -> d.endSearchBytes());
    durable(
        registry,
        "cairn.pile.recovery.records",
        "Log records the last open replayed",
        d -> d.recordsReplayed());
    FunctionCounter.builder(
            "cairn.pile.checkpoints", pile, p -> durability(p, d -> d.checkpoints()))
        .description("Checkpoints completed since the open")
        .tags(tags)
        .register(registry);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      String description,
      String unit,
      ToDoubleFunction<PileStats> value) {
    Gauge.Builder<Pile> b =
        Gauge.builder(
                name,
                pile,
                p -> {
                  try {
                    return value.applyAsDouble(p.stats());
                  } catch (PileClosedException e) {
                    return Double.NaN;
                  }
                })
            .description(description)
            .tags(tags);
    if (unit != null) {
      b.baseUnit(unit);
    }
    b.register(registry);
  }

  private void durable(
      MeterRegistry registry,
      String name,
      String description,
      ToDoubleFunction<DurabilityStats> value) {
    Gauge.builder(name, pile, p -> durability(p, value))
        .description(description)
        .tags(tags)
        .register(registry);
  }

  private static double durability(Pile p, ToDoubleFunction<DurabilityStats> value) {
    try {
      return value.applyAsDouble(p.durabilityStats());
    } catch (PileClosedException e) {
      return Double.NaN;
    }
  }
}
