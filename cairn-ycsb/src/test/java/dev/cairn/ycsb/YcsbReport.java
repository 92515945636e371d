package dev.cairn.ycsb;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The status counts of YCSB's text report: each line {@code [OPERATION], Return=STATUS, count}
 * (YCSB counts every status a measured operation returned, and with {@code dataintegrity=true} the
 * outcome of each record's check under {@code VERIFY}: {@code OK}, {@code UNEXPECTED_STATE} for a
 * wrong value, {@code ERROR} for a record read back empty).
 *
 * @param counts "OPERATION STATUS" to its count
 */
record YcsbReport(Map<String, Long> counts) {
  private static final Pattern RETURN =
      Pattern.compile("^\\[([A-Z-]+)\\], Return=([A-Z_]+), (\\d+)$", Pattern.MULTILINE);

  static YcsbReport parse(String text) {
    Map<String, Long> counts = new TreeMap<>();
    Matcher m = RETURN.matcher(text);
    while (m.find()) {
      counts.merge(m.group(1) + " " + m.group(2), Long.parseLong(m.group(3)), Long::sum);
    }
    return new YcsbReport(counts);
  }

  /** How many {@code operation}s returned {@code status}. */
  long count(String operation, String status) {
    return counts.getOrDefault(operation + " " + status, 0L);
  }

  /** The counts of every status other than OK, by "OPERATION STATUS": empty if all went well. */
  Map<String, Long> notOk() {
    Map<String, Long> notOk = new TreeMap<>();
    counts.forEach(
        (what, count) -> {
          if (!what.endsWith(" OK") && count > 0) {
            notOk.put(what, count);
          }
        });
    return notOk;
  }

  /** What this report counts beyond {@code earlier} (YCSB's counts only grow within a JVM). */
  YcsbReport since(YcsbReport earlier) {
    Map<String, Long> counts = new TreeMap<>(this.counts);
    earlier.counts.forEach((what, count) -> counts.merge(what, -count, Long::sum));
    counts.values().removeIf(count -> count == 0);
    return new YcsbReport(counts);
  }
}
