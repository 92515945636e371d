/**
 * {@code cairn bench --html FILE}: a run's figures as a page people would rather look at.
 *
 * <p>Each workload's report turns itself into {@link dev.cairn.bench.report.RunFigures} (its
 * settings, each store's figures by name, the ratios of Cairn's to each peer's, and its JSON);
 * {@link dev.cairn.bench.report.HtmlReport} lays the page out, choosing a chart for each figure by
 * its name ({@code ...PerSec} a rate, {@code ...P99Micros} a percentile, {@code bytesPer...} a
 * size), and {@link dev.cairn.bench.report.SvgCharts} draws the charts as inline SVG. {@link
 * dev.cairn.bench.report.MachineDescription} says what the run ran on.
 *
 * <p>The page is self-contained: no script, no style sheet, font or image from anywhere else, so it
 * opens the same from a CI artifact, a mail or a disk with no network. It is also well-formed XML,
 * so a test can parse it.
 */
package dev.cairn.bench.report;
