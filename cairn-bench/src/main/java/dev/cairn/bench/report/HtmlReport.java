package dev.cairn.bench.report;

import dev.cairn.bench.report.SvgCharts.Bar;
import dev.cairn.bench.report.SvgCharts.Line;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lays out the HTML page of {@code cairn bench --html}: the command and the machine, then a chart
 * per comparison, then every figure in a table, then the run's JSON.
 *
 * <p>Charts are chosen by figure name, so every workload gets its own without a layout of its own:
 *
 * <ol>
 *   <li><b>Ratios</b>: each rate ({@code ...PerSec}) of {@link RunFigures#ratios()}, one bar per
 *       pair, with a dashed line at 1.0x.
 *   <li><b>Throughput</b>: each rate, one bar per store.
 *   <li><b>Latency</b>: each family of percentiles ({@code getP50Micros} ... {@code
 *       getP9999Micros}, or {@code ...Us}), one line per store.
 *   <li><b>Memory</b>: each {@code bytesPer...} figure, one bar per store.
 *   <li><b>Pauses and times</b>: each other {@code ...Ms} or {@code ...Secs} figure.
 * </ol>
 *
 * <p>A store keeps its colour in every chart. The page has no script and fetches nothing; it is
 * well-formed XML. Not thread-safe; a call renders one page.
 */
public final class HtmlReport {
  /** Store colours, in run order: the first store (Cairn's, in every workload) is the blue. */
  private static final List<String> PALETTE =
      List.of(
          "#2b6cb0", "#dd6b20", "#38a169", "#805ad5", "#d53f8c", "#718096", "#b7791f", "#319795");

  private static final Pattern PERCENTILE = Pattern.compile("(.*)P(50|99|999|9999)(Micros|Us)");
  private static final List<String> PERCENTILES = List.of("50", "99", "999", "9999");

  /** What the common figures mean, for chart titles; other figures are shown by name alone. */
  private static final Map<String, String> MEANING =
      Map.ofEntries(
          Map.entry("loadPerSec", "load into an empty table, inserts/s"),
          Map.entry("mixedUniformOpsPerSec", "90% gets, 10% puts, uniform keys, ops/s"),
          Map.entry("mixedZipfOpsPerSec", "90% gets, 10% puts, Zipfian keys, ops/s"),
          Map.entry("boundedOpsPerSec", "bounded by a budget, loads on a miss, ops/s"),
          Map.entry("putsPerSec", "puts/s"),
          Map.entry("getsPerSec", "gets/s"),
          Map.entry("opsPerSec", "operations/s"),
          Map.entry("readOpsPerSec", "reads/s"),
          Map.entry("commitsPerSec", "durable commits/s"),
          Map.entry("bytesPerEntry", "process RSS growth per entry, bytes"),
          Map.entry("bytesPerValue", "process RSS growth per value, bytes"),
          Map.entry("allocatedBytesPerValue", "pile's own account per value, bytes"),
          Map.entry("gcMaxPauseMs", "longest GC pause, ms"),
          Map.entry("reopenFirstHitMs", "reopen to first hit, ms"),
          Map.entry("restartFirstHitMs", "new JVM: start to first hit, ms"),
          Map.entry("restartAotFirstHitMs", "new JVM, AOT cache: start to first hit, ms"),
          Map.entry("restartAfterKillFirstHitMs", "after SIGKILL: start to first hit, ms"),
          Map.entry("get", "get latency"),
          Map.entry("read", "read latency"),
          Map.entry("write", "write latency"),
          Map.entry("op", "latency of all operations"),
          Map.entry("commit", "commit latency"),
          Map.entry("put", "put latency"));

  private final RunFigures run;
  private final Map<String, String> colours = new LinkedHashMap<>();
  private final StringBuilder html = new StringBuilder(64 * 1024);

  private HtmlReport(RunFigures run) {
    this.run = run;
    int i = 0;
    for (String store : run.stores().keySet()) {
      colours.put(store, PALETTE.get(i++ % PALETTE.size()));
    }
  }

  /**
   * The page for one run.
   *
   * @param run the run's figures
   * @param command the command line that made them, as the user typed it
   * @param machine what it ran on, label to value ({@link MachineDescription#current()})
   * @return a complete HTML document
   */
  public static String render(RunFigures run, String command, Map<String, String> machine) {
    return new HtmlReport(run).page(command, machine);
  }

  private String page(String command, Map<String, String> machine) {
    String title = "cairn bench: " + run.workload() + " workload";
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
        .append("<meta name=\"viewport\" content=\"width=device-width\"/>")
        .append("<title>")
        .append(SvgCharts.escape(title))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head><body>\n<h1>")
        .append(SvgCharts.escape(title))
        .append("</h1>\n<pre class=\"command\">")
        .append(SvgCharts.escape(command))
        .append("</pre>\n<div class=\"facts\">");
    facts("Run", run.settings());
    facts("Machine", machine);
    html.append("</div>\n");
    ratioCharts();
    section("Throughput (higher is better)", names(name -> name.endsWith("PerSec")));
    latencyCharts();
    section(
        "Memory (lower is better)",
        names(name -> name.toLowerCase(Locale.ROOT).contains("bytesper")));
    section(
        "Pauses and times (lower is better)",
        names(
            name ->
                (name.endsWith("Ms") || name.endsWith("Secs"))
                    && !PERCENTILE.matcher(name).matches()));
    table();
    notes();
    html.append("<details><summary>The run as JSON</summary><pre class=\"json\">")
        .append(SvgCharts.escape(run.json()))
        .append("</pre></details>\n</body></html>\n");
    return html.toString();
  }

  private void facts(String heading, Map<String, String> facts) {
    html.append("<table class=\"fact\"><caption>").append(heading).append("</caption>");
    facts.forEach(
        (label, value) ->
            html.append("<tr><th>")
                .append(SvgCharts.escape(label))
                .append("</th><td>")
                .append(SvgCharts.escape(value))
                .append("</td></tr>"));
    html.append("</table>");
  }

  /** One chart per rate among the ratios: a bar per pair that has it, and a line at 1.0x. */
  private void ratioCharts() {
    Set<String> rates = new LinkedHashSet<>();
    run.ratios()
        .values()
        .forEach(r -> r.keySet().stream().filter(n -> n.endsWith("PerSec")).forEach(rates::add));
    if (rates.isEmpty()) {
      return;
    }
    html.append("<h2>Ratios: one store over another (higher is better)</h2>\n")
        .append("<p>Each bar is one store's figure divided by another's, measured in the same run;")
        .append(" the dashed line is 1.0x, even.</p>\n");
    for (String rate : rates) {
      List<Bar> bars = new ArrayList<>();
      int i = 0;
      for (Map.Entry<String, Map<String, Double>> pair : run.ratios().entrySet()) {
        Double value = pair.getValue().get(rate);
        String baseline = pair.getKey().substring(pair.getKey().indexOf('/') + 1);
        String colour = colours.getOrDefault(baseline, PALETTE.get(i % PALETTE.size()));
        i++;
        if (value != null) {
          bars.add(new Bar(pair.getKey(), value, colour));
        }
      }
      html.append(
          SvgCharts.bars(
              title(rate) + ", ratio", bars, 1.0, v -> String.format(Locale.ROOT, "%.2fx", v)));
      html.append('\n');
    }
  }

  /** A family of percentiles per chart: {@code getP50Micros} to {@code getP9999Micros}. */
  private void latencyCharts() {
    Map<String, String> families = new LinkedHashMap<>(); // prefix -> unit suffix
    for (Map<String, Double> figures : run.stores().values()) {
      for (String name : figures.keySet()) {
        Matcher m = PERCENTILE.matcher(name);
        if (m.matches()) {
          families.putIfAbsent(m.group(1), m.group(3));
        }
      }
    }
    if (families.isEmpty()) {
      return;
    }
    html.append("<h2>Latency percentiles (lower is better)</h2>\n");
    families.forEach(
        (prefix, suffix) -> {
          List<String> categories = new ArrayList<>();
          for (String p : PERCENTILES) {
            categories.add("p" + (p.length() > 2 ? p.substring(0, 2) + "." + p.substring(2) : p));
          }
          List<Line> lines = new ArrayList<>();
          run.stores()
              .forEach(
                  (store, figures) -> {
                    double[] values = new double[PERCENTILES.size()];
                    boolean any = false;
                    for (int i = 0; i < values.length; i++) {
                      Double v = figures.get(prefix + "P" + PERCENTILES.get(i) + suffix);
                      values[i] = v == null ? Double.NaN : v;
                      any |= v != null;
                    }
                    if (any) {
                      lines.add(new Line(store, values, colours.get(store)));
                    }
                  });
          String meaning = MEANING.getOrDefault(prefix, prefix + " latency");
          html.append(
              SvgCharts.percentiles(meaning + ", µs", categories, lines, HtmlReport::micros));
          html.append('\n');
        });
  }

  /** A bar chart per figure in {@code names}: a bar per store that has it. */
  private void section(String heading, List<String> names) {
    if (names.isEmpty()) {
      return;
    }
    html.append("<h2>").append(SvgCharts.escape(heading)).append("</h2>\n");
    for (String name : names) {
      List<Bar> bars = new ArrayList<>();
      run.stores()
          .forEach(
              (store, figures) -> {
                Double value = figures.get(name);
                if (value != null) {
                  bars.add(new Bar(store, value, colours.get(store)));
                }
              });
      html.append(SvgCharts.bars(title(name), bars, Double.NaN, HtmlReport::human)).append('\n');
    }
  }

  /** The figure names any store has that {@code wanted} accepts, in first-seen order. */
  private List<String> names(java.util.function.Predicate<String> wanted) {
    Set<String> names = new LinkedHashSet<>();
    run.stores().values().forEach(f -> f.keySet().stream().filter(wanted).forEach(names::add));
    return List.copyOf(names);
  }

  /** Every figure: a row per name, a column per store. */
  private void table() {
    Set<String> names = new LinkedHashSet<>();
    run.stores().values().forEach(f -> names.addAll(f.keySet()));
    if (names.isEmpty()) {
      return;
    }
    html.append("<h2>All figures</h2>\n<table class=\"figures\"><tr><th>figure</th>");
    run.stores()
        .keySet()
        .forEach(s -> html.append("<th>").append(SvgCharts.escape(s)).append("</th>"));
    html.append("</tr>");
    for (String name : names) {
      html.append("<tr><th>").append(SvgCharts.escape(name)).append("</th>");
      for (Map<String, Double> figures : run.stores().values()) {
        Double value = figures.get(name);
        html.append("<td>")
            .append(value == null ? "-" : SvgCharts.escape(human(value)))
            .append("</td>");
      }
      html.append("</tr>");
    }
    html.append("</table>\n");
  }

  private void notes() {
    if (run.notes().isEmpty()) {
      return;
    }
    html.append("<h2>Notes</h2>\n<ul>");
    run.notes()
        .forEach(
            (store, note) ->
                html.append("<li><b>")
                    .append(SvgCharts.escape(store))
                    .append("</b>: ")
                    .append(SvgCharts.escape(note))
                    .append("</li>"));
    html.append("</ul>\n");
  }

  private static String title(String name) {
    String meaning = MEANING.get(name);
    return meaning == null ? name : meaning + " (" + name + ")";
  }

  /** A value the way a reader takes it in: 12.3M, 456k, 7.89, 0.012. */
  static String human(double value) {
    double a = Math.abs(value);
    if (a >= 1e9) {
      return String.format(Locale.ROOT, "%.2fG", value / 1e9);
    }
    if (a >= 1e6) {
      return String.format(Locale.ROOT, "%.2fM", value / 1e6);
    }
    if (a >= 1e4) {
      return String.format(Locale.ROOT, "%.1fk", value / 1e3);
    }
    if (a >= 100) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.3g", value);
  }

  /** A latency given in microseconds: µs below a millisecond, ms below a second, else s. */
  static String micros(double micros) {
    if (micros >= 1e6) {
      return String.format(Locale.ROOT, "%.3g s", micros / 1e6);
    }
    if (micros >= 1e3) {
      return String.format(Locale.ROOT, "%.3g ms", micros / 1e3);
    }
    return String.format(Locale.ROOT, "%.3g µs", micros);
  }

  private static final String STYLE =
      "body{font-family:system-ui,sans-serif;margin:24px;color:#1a202c;max-width:1400px}h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px"
          + " solid #ccc}pre.command{background:#f4f4f4;padding:8px;white-space:pre-wrap}"
          + ".facts{display:flex;gap:32px;flex-wrap:wrap;align-items:flex-start}"
          + "table{border-collapse:collapse;font-size:13px}caption{text-align:left;font-weight:bold}th,td{padding:2px"
          + " 10px;text-align:left;border-bottom:1px solid #eee}table.figures"
          + " td{text-align:right;font-variant-numeric:tabular-nums}svg.chart{display:inline-block;margin:8px"
          + " 24px 8px 0;vertical-align:top}svg text{font-size:12px;fill:#1a202c}svg"
          + " text.title{font-size:13px;font-weight:bold}svg"
          + " text.axis{fill:#555}pre.json{font-size:12px}";
}
