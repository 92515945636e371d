package dev.cairn.bench.harness;

import dev.cairn.cli.json.JsonWriter;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link BenchReport} as one JSON document, for scripts and CI to compare runs:
 *
 * <pre>
 * {"n":..., "threads":..., "valueKind":"string", "valueSize":32, "getOrder":"random",
 *  "workload":"load", "dir":"/tmp/b", "durability":"none", "coldCache":true, "ddReadMBps":...,
 *  "stores":{"pile":{"putsPerSec":..., "getsPerSec":..., "bytesPerValue":..., "gcMaxPauseMs":...,
 *                    "gcTotalMs":..., "reopenFirstGetMs":..., "readAllSecs":..., ...},
 *            "map":{...}},
 *  "ratios":{"putsPerSec":..., ...}}
 * </pre>
 *
 * Keys are {@link Metric#key()}s; a figure not measured is left out, a ratio without a value is
 * {@code null}. A figure measured but unreliable ({@link MemoryGrowth}: {@code bytesPerValue} when
 * the RSS growth is below the JVM's own noise or below the pile's own account, {@code
 * heapBytesPerValue} when the live heap shrank) is {@code null}, its ratios too, and {@code
 * "unreliable"} gives the reason, by store and key: {@code "unreliable":{"pile":{"bytesPerValue":
 * "RSS grew 19.5 MiB over the load, ..."}}}; the pile's own account ({@code
 * allocatedBytesPerValue}) stands beside it. {@code "ratios"} is pile/map, empty unless both ran;
 * the other {@link Comparison}s appear under their own keys only when both of their stores ran.
 * {@code "dir"} and {@code "durability"} are null for a run in memory. The machine's figures
 * ({@code fsyncMicros}, {@code ddReadMBps}, {@code coldCache}) and {@code "skipped"} (store:
 * reason) appear when the run measured them or skipped a store. {@code "workload"} is {@code load},
 * {@code commits}, {@code recovery} or {@code latencyDuringCheckpoint}; {@code --commits} runs add
 * {@code "seconds"} and {@code "warmupSeconds"}, or {@code "count"} and {@code "warmupCount"} (the
 * commits each store made in a throwaway store first; 0 with {@code --warmup 0}), {@code
 * --latency-during-checkpoint} runs {@code "seconds"} (and {@code "rate"} when paced, {@code
 * "checkpointEveryMs"} when spaced), and {@code --recovery} runs {@code "recoveryLogTargetBytes"}.
 * {@code "valueSize"} is null for {@code person} values, whose size is their encoding's. A load run
 * has {@code "warmup"} after {@code "getOrder"}: the values each store put in a throwaway store
 * before its timed run ({@code --warmup}). {@code "hugePages": true} follows when the run asked for
 * them ({@code --huge-pages}).
 */
public final class JsonReport {
  private static final int RATIO_DECIMALS = 3;

  private JsonReport() {}

  public static String render(BenchReport report) {
    BenchConfig config = report.config();
    JsonWriter json = new JsonWriter().beginObject();
    json.field("n", config.n())
        .field("threads", config.threads())
        .field("valueKind", config.valueKind().label());
    if (config.valueKind().sized()) {
      json.field("valueSize", config.valueSize());
    } else {
      json.nullField("valueSize"); // an object's size is its encoding's: see payloadBytesPerValue
    }
    json.field("getOrder", config.getOrder().label());
    if (config.workload() == Workload.LOAD) {
      json.field("warmup", config.warmupValues());
    }
    if (config.hugePages()) {
      json.field("hugePages", true);
    }
    CommitPlan commits = config.commits();
    json.field("workload", config.workload().label());
    if (commits != null && commits.byCount()) {
      CommitPlan warmUp = CommitBench.warmUpPlan(config);
      json.field("count", commits.count())
          .field("warmupCount", warmUp == null ? 0 : warmUp.count());
    } else if (commits != null) {
      CommitPlan warmUp = CommitBench.warmUpPlan(config);
      json.field("seconds", commits.duration().toSeconds())
          .field("warmupSeconds", warmUp == null ? 0 : warmUp.duration().toSeconds());
    }
    if (config.latencyDuringCheckpoint() != null) {
      json.field("seconds", config.latencyDuringCheckpoint().toSeconds());
      if (config.putRate() > 0) {
        json.field("rate", config.putRate()).field("pace", config.pacing().label());
      }
      if (config.checkpointEveryMillis() > 0) {
        json.field("checkpointEveryMs", config.checkpointEveryMillis());
      }
    }
    if (config.recovery() != null) {
      json.field("recoveryLogTargetBytes", config.recovery().logBytes());
    }
    if (config.directory() == null) {
      json.nullField("dir").nullField("durability");
    } else {
      json.field("dir", config.directory().toAbsolutePath().normalize().toString())
          .field("durability", config.durability().name().toLowerCase(Locale.ROOT));
    }
    machine(json, report.machine());

    json.beginObject("stores");
    for (StoreResult result : report.results()) {
      json.beginObject(result.store().label());
      metrics(json, figures(result), false);
      json.endObject();
    }
    json.endObject();
    for (Comparison comparison : Comparison.values()) {
      if (comparison == Comparison.PILE_TO_MAP || report.comparisons().contains(comparison)) {
        json.beginObject(comparison.jsonKey());
        metrics(json, report.ratios(comparison), true);
        json.endObject();
      }
    }
    if (report.results().stream().anyMatch(r -> !r.unreliable().isEmpty())) {
      json.beginObject("unreliable");
      for (StoreResult result : report.results()) {
        if (!result.unreliable().isEmpty()) {
          json.beginObject(result.store().label());
          result.unreliable().forEach((metric, reason) -> json.field(metric.key(), reason));
          json.endObject();
        }
      }
      json.endObject();
    }
    if (!report.machine().skipped().isEmpty()) {
      json.beginObject("skipped");
      report.machine().skipped().forEach((store, reason) -> json.field(store.label(), reason));
      json.endObject();
    }
    return json.endObject().toString();
  }

  private static void machine(JsonWriter json, MachineFigures machine) {
    machine.fsyncMicros().ifPresent(micros -> json.field("fsyncMicros", micros, 1));
    if (machine.coldCache() != null) {
      json.field("coldCache", machine.coldCache());
    }
    machine.ddReadMBps().ifPresent(mbps -> json.field("ddReadMBps", mbps, 1));
  }

  /** A store's figures in {@link Metric} order, an unreliable one as null. */
  private static Map<Metric, Double> figures(StoreResult result) {
    Map<Metric, Double> figures = new EnumMap<>(Metric.class);
    figures.putAll(result.values());
    result.unreliable().keySet().forEach(metric -> figures.put(metric, null));
    return figures;
  }

  private static void metrics(JsonWriter json, Map<Metric, Double> values, boolean ratios) {
    for (Map.Entry<Metric, Double> entry : values.entrySet()) {
      Double value = entry.getValue();
      if (value == null) {
        json.nullField(entry.getKey().key());
      } else {
        json.field(
            entry.getKey().key(), value, ratios ? RATIO_DECIMALS : entry.getKey().decimals());
      }
    }
  }

  /** A JSON number in plain notation (no exponent), rounded to {@code decimals}. */
  static String number(double value, int decimals) {
    return JsonWriter.number(value, decimals);
  }
}
