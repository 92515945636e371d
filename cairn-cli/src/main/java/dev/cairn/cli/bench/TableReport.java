package dev.cairn.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Writes a {@link BenchReport} as a text table for people: one row per metric, one column per
 * store, and a pile/map column when both ran.
 */
public final class TableReport {
  private static final String MISSING = "-";

  private TableReport() {}

  public static String render(BenchReport report) {
    BenchConfig config = report.config();
    Map<Metric, Double> ratios = report.ratios();
    boolean withRatios = report.results().size() > 1;

    List<String[]> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("metric"));
    report.results().forEach(r -> header.add(r.store().label()));
    if (withRatios) {
      header.add("pile/map");
    }
    rows.add(header.toArray(String[]::new));
    for (Metric metric : Metric.values()) {
      if (report.results().stream().allMatch(r -> r.get(metric).isEmpty())) {
        continue;
      }
      List<String> row = new ArrayList<>(List.of(metric.label()));
      for (StoreResult result : report.results()) {
        row.add(format(result.get(metric), metric.decimals()));
      }
      if (withRatios) {
        Double ratio = ratios.get(metric);
        row.add(ratio == null ? MISSING : String.format(Locale.ROOT, "%.2f", ratio));
      }
      rows.add(row.toArray(String[]::new));
    }

    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            Locale.ROOT,
            "cairn bench: n=%,d threads=%d kind=%s size=%d get-order=%s%n",
            config.n(),
            config.threads(),
            config.valueKind().label(),
            config.valueSize(),
            config.getOrder().label()));
    appendAligned(table, rows);
    if (withRatios) {
      table.append("pile/map: above 1 is better for puts/s and gets/s, below 1 for the rest\n");
    }
    return table.toString();
  }

  /** First column left-aligned, the figures right-aligned, each column as wide as its widest cell. */
  private static void appendAligned(StringBuilder table, List<String[]> rows) {
    int columns = rows.getFirst().length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    for (String[] row : rows) {
      table.append(row[0]).append(" ".repeat(widths[0] - row[0].length()));
      for (int c = 1; c < columns; c++) {
        table.append("  ").append(" ".repeat(widths[c] - row[c].length())).append(row[c]);
      }
      table.append('\n');
    }
  }

  private static String format(OptionalDouble value, int decimals) {
    return value.isEmpty()
        ? MISSING
        : String.format(Locale.ROOT, "%,." + decimals + "f", value.getAsDouble());
  }
}
