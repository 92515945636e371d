package dev.cairn.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * Draws the report's two kinds of chart as inline SVG: horizontal bars (one figure across stores,
 * or one ratio across peers, with an optional reference line such as 1.0x), and percentile lines
 * (latency at p50 to p99.99, one line per store, on a logarithmic axis, since the tail is often a
 * hundred times the median).
 *
 * <p>Every element a test may look for carries a class: {@code bar}, {@code reference}, {@code
 * line}, {@code point}. Bars are drawn with crisp edges, so that their inside is exactly their
 * colour in a screenshot. Text is escaped; numbers are formatted with {@link Locale#ROOT}.
 */
final class SvgCharts {
  /** The width of every chart, in CSS pixels. */
  static final int WIDTH = 680;

  private static final int LABEL_WIDTH = 190;
  private static final int VALUE_WIDTH = 80;
  private static final int ROW = 26;
  private static final int BAR = 18;
  private static final int TOP = 34;

  private SvgCharts() {}

  /** One bar: its label, its value (at least 0), and its fill colour ({@code #rrggbb}). */
  record Bar(String label, double value, String colour) {}

  /** One line of a percentile chart: a value per category, NaN where there is none. */
  record Line(String label, double[] values, String colour) {}

  /**
   * Horizontal bars, one per entry, scaled from 0 to the largest value (or the reference).
   *
   * @param title the chart's title, drawn above it
   * @param bars the bars, top to bottom
   * @param reference where to draw a dashed reference line, or NaN for none
   * @param format how to write a value beside its bar
   */
  static String bars(
      String title, List<Bar> bars, double reference, DoubleFunction<String> format) {
    int height = TOP + bars.size() * ROW + 12;
    double max = Double.isNaN(reference) ? 0 : reference;
    for (Bar bar : bars) {
      max = Math.max(max, bar.value());
    }
    if (max <= 0) {
      max = 1;
    }
    double plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
    StringBuilder svg = open(height, title);
    for (int i = 0; i < bars.size(); i++) {
      Bar bar = bars.get(i);
      double y = TOP + i * ROW;
      double width = Math.max(1, plot * Math.max(0, bar.value()) / max);
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"label\">%s</text>",
              LABEL_WIDTH - 8,
              y + BAR - 4,
              escape(bar.label())));
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                  + " shape-rendering=\"crispEdges\"><title>%s: %s</title></rect>",
              LABEL_WIDTH,
              y,
              width,
              BAR,
              bar.colour(),
              escape(bar.label()),
              escape(format.apply(bar.value()))));
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%.1f\" class=\"value\">%s</text>",
              LABEL_WIDTH + width + 6,
              y + BAR - 4,
              escape(format.apply(bar.value()))));
    }
    if (!Double.isNaN(reference)) {
      double x = LABEL_WIDTH + plot * reference / max;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line class=\"reference\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
                  + " stroke=\"#222222\" stroke-dasharray=\"4 3\"/>",
              x,
              TOP - 6,
              x,
              height - 6));
    }
    return svg.append("</svg>").toString();
  }

  /**
   * Lines over categories (p50, p99, ...), on a logarithmic value axis with a grid line per power
   * of ten, and a legend on the right.
   *
   * @param title the chart's title
   * @param categories the x axis, left to right
   * @param lines one per store; each has a value per category
   * @param unit how to write a grid line's value (say, as microseconds)
   */
  static String percentiles(
      String title, List<String> categories, List<Line> lines, DoubleFunction<String> unit) {
    int height = 300;
    int left = 76;
    int right = WIDTH - 170;
    int top = TOP + 6;
    int bottom = height - 36;
    double min = Double.MAX_VALUE;
    double max = 0;
    for (Line line : lines) {
      for (double v : line.values()) {
        if (v > 0) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    if (max == 0) {
      min = 1;
      max = 10;
    }
    int lowDecade = (int) Math.floor(Math.log10(min));
    int highDecade = (int) Math.ceil(Math.log10(max));
    if (highDecade == lowDecade) {
      highDecade++;
    }
    double low = lowDecade;
    double span = highDecade - (double) lowDecade;
    StringBuilder svg = open(height, title);
    for (int d = lowDecade; d <= highDecade; d++) {
      double y = bottom - (bottom - top) * (d - low) / span;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"axis\">%s</text>",
              left,
              y,
              right,
              y,
              left - 6,
              y + 4,
              escape(unit.apply(Math.pow(10, d)))));
    }
    double step = categories.size() > 1 ? (right - left - 40.0) / (categories.size() - 1) : 0;
    for (int c = 0; c < categories.size(); c++) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">%s</text>",
              left + 20 + c * step,
              bottom + 20,
              escape(categories.get(c))));
    }
    for (int l = 0; l < lines.size(); l++) {
      Line line = lines.get(l);
      StringBuilder points = new StringBuilder();
      StringBuilder dots = new StringBuilder();
      for (int c = 0; c < line.values().length && c < categories.size(); c++) {
        double v = line.values()[c];
        if (!(v > 0)) {
          continue;
        }
        double x = left + 20 + c * step;
        double y = bottom - (bottom - top) * (Math.log10(v) - low) / span;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        dots.append(
            String.format(
                Locale.ROOT,
                "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\">"
                    + "<title>%s %s: %s</title></circle>",
                x,
                y,
                line.colour(),
                escape(line.label()),
                escape(categories.get(c)),
                escape(unit.apply(v))));
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<polyline class=\"line\" points=\"%s\" fill=\"none\" stroke=\"%s\""
                  + " stroke-width=\"2.5\"/>",
              points.toString().strip(),
              line.colour()));
      svg.append(dots);
      double legendY = top + 4 + l * 20;
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\""
                  + " shape-rendering=\"crispEdges\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" class=\"label\">%s</text>",
              right + 16,
              legendY,
              line.colour(),
              right + 36,
              legendY + 12,
              escape(line.label())));
    }
    return svg.append("</svg>").toString();
  }

  private static StringBuilder open(int height, String title) {
    return new StringBuilder(4096)
        .append(
            String.format(
                Locale.ROOT,
                "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                    + " role=\"img\"><title>%s</title>"
                    + "<text x=\"0\" y=\"18\" class=\"title\">%s</text>",
                WIDTH,
                height,
                WIDTH,
                height,
                escape(title),
                escape(title)));
  }

  /** Text made safe inside XML and HTML: the five characters that mean markup, escaped. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
