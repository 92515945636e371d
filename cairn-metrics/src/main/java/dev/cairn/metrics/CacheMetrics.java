package dev.cairn.metrics;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheStats;
import dev.cairn.cache.TableStats;
import dev.cairn.pile.PileClosedException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Binds a Cairn cache's figures to a Micrometer registry: the cache's budget and bytes used, and
 * for each of its tables (tag {@code cache=TABLE}) the meters of Micrometer's own cache binders
 * ({@code cache.gets} by {@code result=hit|miss}, {@code cache.puts}, {@code cache.evictions},
 * {@code cache.size}) and Cairn's ({@code cache.removals} by {@code cause=explicit|expired|
 * evicted}, {@code cairn.cache.bytes} of entries and index, {@code cairn.cache.loads}). The tables
 * bound are those that exist when {@link #bindTo} runs; bind again after creating more. Meters of a
 * closed cache read NaN. The cache's pile has its own binder, {@link PileMetrics}.
 *
 * {@snippet class=dev.cairn.metrics.MetricsTest region=cache}
 *
 * <p>Thread-safety: the meters read {@link Cache#stats} from the registry's threads.
 */
public final class CacheMetrics implements MeterBinder {
  private final Cache cache;
  private final Tags tags;

  /** Meters of {@code cache}, tagged {@code cairn.cache=name} and {@code extraTags}. */
  public CacheMetrics(Cache cache, String name, Iterable<Tag> extraTags) {
    this.cache = cache;
    this.tags = Tags.of("cairn.cache", name).and(extraTags);
  }

  public CacheMetrics(Cache cache, String name) {
    this(cache, name, Tags.empty());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("cairn.cache.budget", cache, c -> stats(c, s -> budget(s)))
        .description("The byte budget of all the cache's tables (NaN for none)")
        .baseUnit(BaseUnits.BYTES)
        .tags(tags)
        .register(registry);
    Gauge.builder("cairn.cache.used", cache, c -> stats(c, s -> s.usedBytes()))
        .description("Bytes counted against the budget: entries and index of every table")
        .baseUnit(BaseUnits.BYTES)
        .tags(tags)
        .register(registry);
    for (String table : cache.tableNames()) {
      bindTable(registry, table);
    }
  }

  private static double budget(CacheStats s) {
    return s.budgetBytes() == Long.MAX_VALUE ? Double.NaN : s.budgetBytes();
  }

  private void bindTable(MeterRegistry registry, String table) {
    Tags t = tags.and("cache", table);
    counter(
        registry,
        "cache.gets",
        "Reads that returned a value",
        t.and("result", "hit"),
        table,
        TableStats::hits);
    counter(
        registry,
        "cache.gets",
        "Reads that found no value",
        t.and("result", "miss"),
        table,
        TableStats::misses);
    counter(registry, "cache.puts", "Entries written", t, table, TableStats::puts);
    counter(
        registry,
        "cache.evictions",
        "Entries evicted for the budget",
        t,
        table,
        TableStats::evictions);
    counter(
        registry,
        "cache.removals",
        "Entries removed by a call",
        t.and("cause", "explicit"),
        table,
        TableStats::removals);
    counter(
        registry,
        "cache.removals",
        "Entries found or swept expired",
        t.and("cause", "expired"),
        table,
        TableStats::expirations);
    counter(
        registry,
        "cache.removals",
        "Entries evicted for the budget",
        t.and("cause", "evicted"),
        table,
        TableStats::evictions);
    Gauge.builder("cache.size", cache, c -> table(c, table, TableStats::entries))
        .description("Live entries (expired ones not yet swept included)")
        .tags(t)
        .register(registry);
    Gauge.builder("cairn.cache.bytes", cache, c -> table(c, table, TableStats::entryBytes))
        .description("Bytes of the table's entries in the pile")
        .baseUnit(BaseUnits.BYTES)
        .tags(t.and("part", "entries"))
        .register(registry);
    Gauge.builder("cairn.cache.bytes", cache, c -> table(c, table, TableStats::indexBytes))
        .description("Bytes of the table's index")
        .baseUnit(BaseUnits.BYTES)
        .tags(t.and("part", "index"))
        .register(registry);
    FunctionTimer.builder(
            "cairn.cache.loads",
            cache,
            c -> (long) table(c, table, TableStats::loads), // NaN (closed) counts as 0
            c -> table(c, table, TableStats::loadNanos),
            TimeUnit.NANOSECONDS)
        .description("Values made by a loader, and the time spent in loaders")
        .tags(t)
        .register(registry);
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String description,
      Tags t,
      String table,
      ToDoubleFunction<TableStats> value) {
    FunctionCounter.builder(name, cache, c -> table(c, table, value))
        .description(description)
        .tags(t)
        .register(registry);
  }

  private static double stats(Cache c, ToDoubleFunction<CacheStats> value) {
    try {
      return value.applyAsDouble(c.stats());
    } catch (PileClosedException e) {
      return Double.NaN;
    }
  }

  private static double table(Cache c, String table, ToDoubleFunction<TableStats> value) {
    return stats(
        c,
        s -> {
          for (TableStats t : s.tables()) {
            if (t.name().equals(table)) {
              return value.applyAsDouble(t);
            }
          }
          return Double.NaN;
        });
  }
}
