package dev.cairn.bench.report;

import java.util.LinkedHashMap;
import java.util.Map;

/** A cache run's figures, as a real one has them, for the report's tests. */
final class SampleRuns {
  private SampleRuns() {}

  /** The stores of {@link #cache()}, in run order. */
  static final String[] STORES = {"cairn", "chm", "caffeine"};

  /** Three stores, two ratios, each with three rates, get percentiles, bytes and a GC pause. */
  static RunFigures cache() {
    Map<String, Map<String, Double>> stores = new LinkedHashMap<>();
    stores.put("cairn", store(3.1e6, 4.2e6, 5.0e6, 1.1, 9.5, 31.0, 88.2, 122.5, 14));
    stores.put("chm", store(5.9e6, 2.1e6, 3.3e6, 0.4, 3.0, 210.0, 5100.0, 131.0, 311));
    stores.put("caffeine", store(2.0e6, 1.6e6, 2.9e6, 0.6, 4.1, 540.0, 8800.0, 180.4, 702));
    Map<String, Map<String, Double>> ratios = new LinkedHashMap<>();
    ratios.put("cairn/chm", ratio(stores, "chm"));
    ratios.put("cairn/caffeine", ratio(stores, "caffeine"));
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("entries", "10,000,000");
    settings.put("threads", "2");
    return new RunFigures(
        "cache",
        settings,
        stores,
        ratios,
        Map.of("chronicle", "skipped: a test's note <with markup> & an ampersand"),
        "{\"workload\": \"cache\"}");
  }

  private static Map<String, Double> store(
      double load,
      double uniform,
      double zipf,
      double p50,
      double p99,
      double p999,
      double p9999,
      double bytes,
      double gc) {
    Map<String, Double> f = new LinkedHashMap<>();
    f.put("loadPerSec", load);
    f.put("bytesPerEntry", bytes);
    f.put("gcMaxPauseMs", gc);
    f.put("mixedUniformOpsPerSec", uniform);
    f.put("mixedZipfOpsPerSec", zipf);
    f.put("getP50Micros", p50);
    f.put("getP99Micros", p99);
    f.put("getP999Micros", p999);
    f.put("getP9999Micros", p9999);
    f.put("hitRatio", Double.NaN); // not measured: left out of every chart and table
    return f;
  }

  private static Map<String, Double> ratio(Map<String, Map<String, Double>> stores, String peer) {
    Map<String, Double> r = new LinkedHashMap<>();
    for (String rate : new String[] {"loadPerSec", "mixedUniformOpsPerSec", "mixedZipfOpsPerSec"}) {
      r.put(rate, stores.get("cairn").get(rate) / stores.get(peer).get(rate));
    }
    return r;
  }

  /** Bars in {@link #cache()}'s page: 3 rates x 2 ratios, then 3 rates, 1 size, 1 pause x 3. */
  static final int BARS = 3 * 2 + (3 + 1 + 1) * 3;

  /** Charts in {@link #cache()}'s page: 3 ratio charts, 3 rates, 1 latency, 1 size, 1 pause. */
  static final int CHARTS = 3 + 3 + 1 + 1 + 1;
}
