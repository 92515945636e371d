package dev.cairn.cli.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Writes a {@link BenchReport} as one JSON document, for scripts and CI to compare runs:
 *
 * <pre>
 * {"n":..., "threads":..., "valueKind":"string", "valueSize":32, "getOrder":"random",
 *  "stores":{"pile":{"putsPerSec":..., "getsPerSec":..., "bytesPerValue":..., "gcMaxPauseMs":...,
 *                    "gcTotalMs":..., ...}, "map":{...}},
 *  "ratios":{"putsPerSec":..., ...}}
 * </pre>
 *
 * Keys are {@link Metric#key()}s; a figure not measured is left out, a ratio without a value is
 * {@code null}. Written by hand: the format is small and fixed, and a JSON library would be the
 * CLI's largest dependency.
 */
public final class JsonReport {
  private static final int RATIO_DECIMALS = 3;

  private JsonReport() {}

  public static String render(BenchReport report) {
    BenchConfig config = report.config();
    StringBuilder json = new StringBuilder(1024);
    json.append("{\n");
    field(json, 1, "n").append(config.n()).append(",\n");
    field(json, 1, "threads").append(config.threads()).append(",\n");
    field(json, 1, "valueKind").append(quote(config.valueKind().label())).append(",\n");
    field(json, 1, "valueSize").append(config.valueSize()).append(",\n");
    field(json, 1, "getOrder").append(quote(config.getOrder().label())).append(",\n");
    field(json, 1, "stores").append("{");
    String separator = "\n";
    for (StoreResult result : report.results()) {
      json.append(separator);
      field(json, 2, result.store().label());
      metrics(json, 2, result.values(), false);
      separator = ",\n";
    }
    json.append("\n").append(indent(1)).append("},\n");
    field(json, 1, "ratios");
    metrics(json, 1, report.ratios(), true);
    json.append("\n}\n");
    return json.toString();
  }

  private static void metrics(StringBuilder json, int depth, Map<Metric, Double> values, boolean ratios) {
    if (values.isEmpty()) {
      json.append("{}");
      return;
    }
    json.append("{");
    String separator = "\n";
    for (Map.Entry<Metric, Double> entry : values.entrySet()) {
      json.append(separator);
      field(json, depth + 1, entry.getKey().key());
      Double value = entry.getValue();
      json.append(
          value == null
              ? "null"
              : number(value, ratios ? RATIO_DECIMALS : entry.getKey().decimals()));
      separator = ",\n";
    }
    json.append("\n").append(indent(depth)).append("}");
  }

  private static StringBuilder field(StringBuilder json, int depth, String key) {
    return json.append(indent(depth)).append(quote(key)).append(": ");
  }

  private static String indent(int depth) {
    return "  ".repeat(depth);
  }

  /** Quotes a key or label; they are plain ASCII words, so escaping quote and backslash suffices. */
  private static String quote(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** A JSON number in plain notation (no exponent), rounded to {@code decimals}. */
  static String number(double value, int decimals) {
    return BigDecimal.valueOf(value)
        .setScale(decimals, RoundingMode.HALF_EVEN)
        .stripTrailingZeros()
        .toPlainString();
  }
}
