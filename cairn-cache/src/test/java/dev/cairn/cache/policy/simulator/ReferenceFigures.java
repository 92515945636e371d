package dev.cairn.cache.policy.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Caffeine's hit ratios for each trace at its four sizes, read from the table of the traces' README
 * (the one source of these figures).
 *
 * @param trace the trace's name, e.g. {@code lirs-loop}
 * @param references the number of references
 * @param distinct the number of distinct keys
 * @param sizes the four cache sizes in entries (1%, 5%, 10% and 20% of the distinct keys)
 * @param caffeinePercent Caffeine 3.2.3's hit ratio at each size, in percent
 */
public record ReferenceFigures(
    String trace, long references, long distinct, long[] sizes, double[] caffeinePercent) {

  /** Every row of the README's table, in its order. */
  public static List<ReferenceFigures> all() {
    String readme;
    try (InputStream in = ReferenceFigures.class.getResourceAsStream("/traces/README.md")) {
      if (in == null) {
        throw new IllegalStateException("no /traces/README.md on the class path");
      }
      readme = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<ReferenceFigures> rows = new ArrayList<>();
    for (String line : readme.split("\n")) {
      if (!line.startsWith("| lirs-") && !line.startsWith("| cache2k-")) {
        continue;
      }
      String[] cells = line.split("\\|");
      // cells[0] is empty (the line starts with '|')
      long[] sizes = new long[4];
      double[] percent = new double[4];
      for (int i = 0; i < 4; i++) {
        String[] sizeAndRatio = cells[4 + i].strip().split(":");
        sizes[i] = Long.parseLong(sizeAndRatio[0].replace(",", "").strip());
        percent[i] = Double.parseDouble(sizeAndRatio[1].strip());
      }
      rows.add(
          new ReferenceFigures(
              cells[1].strip(),
              Long.parseLong(cells[2].replace(",", "").strip()),
              Long.parseLong(cells[3].replace(",", "").strip()),
              sizes,
              percent));
    }
    if (rows.size() != 11) {
      throw new IllegalStateException("expected 11 traces in the README's table: " + rows.size());
    }
    return rows;
  }

  /** This row of the table. */
  public static ReferenceFigures of(String trace) {
    return all().stream()
        .filter(row -> row.trace().equals(trace))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no such trace in the README: " + trace));
  }
}
