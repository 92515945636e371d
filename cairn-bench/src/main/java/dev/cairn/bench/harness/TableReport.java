package dev.cairn.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Writes a {@link BenchReport} as a text table for people: one row per metric, one column per
 * store, and a ratio column for each {@link Comparison} whose stores both ran (pile/map,
 * mapped/pile, pile/rocksdb); then why any figure shown as "unreliable" is ({@link MemoryGrowth}),
 * the machine's figures, and any store skipped.
 */
public final class TableReport {
  private static final String MISSING = "-";
  private static final String UNRELIABLE = "unreliable";

  private TableReport() {}

  public static String render(BenchReport report) {
    BenchConfig config = report.config();
    List<Comparison> comparisons = report.comparisons();
    List<Map<Metric, Double>> ratios = comparisons.stream().map(report::ratios).toList();

    List<String[]> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("metric"));
    report.results().forEach(r -> header.add(r.store().label()));
    comparisons.forEach(c -> header.add(c.label()));
    rows.add(header.toArray(String[]::new));
    for (Metric metric : Metric.values()) {
      if (report.results().stream().noneMatch(r -> r.reported(metric))) {
        continue;
      }
      List<String> row = new ArrayList<>(List.of(metric.label()));
      for (StoreResult result : report.results()) {
        row.add(
            result.unreliable().containsKey(metric)
                ? UNRELIABLE
                : format(result.get(metric), metric.decimals()));
      }
      for (Map<Metric, Double> comparisonRatios : ratios) {
        Double ratio = comparisonRatios.get(metric);
        row.add(ratio == null ? MISSING : String.format(Locale.ROOT, "%.2f", ratio));
      }
      rows.add(row.toArray(String[]::new));
    }

    StringBuilder table = new StringBuilder();
    table.append(headline(config)).append('\n');
    appendAligned(table, rows);
    if (!comparisons.isEmpty()) {
      table.append(
          String.join(", ", comparisons.stream().map(Comparison::label).toList())
              + ": above 1 is better for the first store in "
              + String.join(", ", higherIsBetterLabels(report))
              + "; below 1 for the rest\n");
    }
    for (StoreResult result : report.results()) {
      result
          .unreliable()
          .forEach(
              (metric, reason) ->
                  table
                      .append(result.store().label())
                      .append(' ')
                      .append(metric.label())
                      .append(": ")
                      .append(UNRELIABLE)
                      .append(", ")
                      .append(reason)
                      .append('\n'));
    }
    appendMachine(table, report.machine());
    return table.toString();
  }

  private static String headline(BenchConfig config) {
    StringBuilder line = new StringBuilder("cairn bench: ");
    CommitPlan commits = config.commits();
    switch (config.workload()) {
      case LOAD ->
          line.append(
              String.format(
                  Locale.ROOT,
                  "n=%,d threads=%d %s get-order=%s",
                  config.n(),
                  config.threads(),
                  kindAndSize(config),
                  config.getOrder().label()));
      case COMMITS ->
          line.append(
              String.format(
                  Locale.ROOT,
                  "commits threads=%d size=%d %s",
                  config.threads(),
                  config.valueSize(),
                  commits.byCount()
                      ? String.format(Locale.ROOT, "count=%,d", commits.count())
                      : "seconds=" + commits.duration().toSeconds()));
      case RECOVERY ->
          line.append(
              String.format(
                  Locale.ROOT,
                  "recovery log=%,.3f GiB threads=%d %s",
                  config.recovery().logBytes() / (double) (1L << 30),
                  config.threads(),
                  kindAndSize(config)));
      case LATENCY_DURING_CHECKPOINT ->
          line.append(
              String.format(
                  Locale.ROOT,
                  "latency during checkpoint threads=%d %s seconds=%d",
                  config.threads(),
                  kindAndSize(config),
                  config.latencyDuringCheckpoint().toSeconds()));
    }
    if (config.directory() != null) {
      line.append(" dir=")
          .append(config.directory())
          .append(" durability=")
          .append(config.durability().name().toLowerCase(Locale.ROOT));
    }
    return line.toString();
  }

  /** "kind=string size=32", or "kind=person" for an object, whose size is its encoding's. */
  private static String kindAndSize(BenchConfig config) {
    String kind = "kind=" + config.valueKind().label();
    return config.valueKind().sized() ? kind + " size=" + config.valueSize() : kind;
  }

  /** The labels of the shown metrics where more is better. */
  private static List<String> higherIsBetterLabels(BenchReport report) {
    List<String> labels = new ArrayList<>();
    for (Metric metric : Metric.values()) {
      if (metric.higherIsBetter()
          && report.results().stream().anyMatch(r -> r.get(metric).isPresent())) {
        labels.add(metric.label());
      }
    }
    return labels;
  }

  private static void appendMachine(StringBuilder table, MachineFigures machine) {
    machine
        .fsyncMicros()
        .ifPresent(
            micros ->
                table.append(
                    String.format(
                        Locale.ROOT,
                        "raw fsync (4 KiB write + force, median): %,.1f us%n",
                        micros)));
    if (machine.coldCache() != null) {
      table.append(
          machine.coldCache()
              ? "reads after the restart came from a cold page cache (dropped with"
                  + " /proc/sys/vm/drop_caches)\n"
              : "reads after the restart came from a WARM page cache: dropping it needs root (or"
                  + " was declined), so read figures flatter the disk\n");
    }
    machine
        .ddReadMBps()
        .ifPresent(
            mbps ->
                table.append(
                    String.format(
                        Locale.ROOT,
                        "disk sequential read (dd of a pile file): %,.1f MB/s%n",
                        mbps)));
    machine
        .skipped()
        .forEach(
            (store, reason) ->
                table
                    .append("skipped ")
                    .append(store.label())
                    .append(": ")
                    .append(reason)
                    .append('\n'));
  }

  /**
   * First column left-aligned, the figures right-aligned, each column as wide as its widest cell.
   */
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
