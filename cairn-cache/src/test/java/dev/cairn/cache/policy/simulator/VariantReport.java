package dev.cairn.cache.policy.simulator;

import dev.cairn.cache.policy.TinyLfuClock;
import java.util.List;
import java.util.Locale;

/**
 * The comparison behind the choice of the window (docs/CACHE-POLICY.md): the policy as shipped (an
 * adaptive window held in a ring), with a fixed 1% window, and with no window at all (TinyLFU
 * admission of each new entry against the hand's victim, the design that needs no ring), beside
 * Caffeine's reference figures and LRU. Also the hand's cost, in slots passed per reference.
 *
 * <p>Run: {@code ./mvnw -B -o -q test-compile -pl cairn-cache}, then {@code java -cp
 * cairn-cache/target/classes:cairn-cache/target/test-classes:<xz jar>
 * dev.cairn.cache.policy.simulator.VariantReport [trace...]}. The largest window is the hill
 * climber's largest window share over the run, as a percentage of the budget: the ring's size.
 */
public final class VariantReport {
  private static final List<String> VARIANTS = List.of("adaptive", "fixed 1%", "no window");

  private VariantReport() {}

  static TinyLfuClock.Options options(String variant) {
    return switch (variant) {
      case "adaptive" -> TinyLfuClock.Options.DEFAULT;
      case "fixed 1%" -> new TinyLfuClock.Options(0.99, false, 42, 1);
      case "no window" -> new TinyLfuClock.Options(1.0, false, 42, 1);
      default -> throw new IllegalArgumentException("no such variant: " + variant);
    };
  }

  public static void main(String[] args) {
    List<String> only = List.of(args);
    System.out.println(
        "| trace | size | Caffeine | LRU | "
            + String.join(" | ", VARIANTS)
            + " | hand steps/ref | largest window |");
    System.out.println("|---|---|---|---|" + "---|".repeat(VARIANTS.size()) + "---|---|");
    for (ReferenceFigures row : ReferenceFigures.all()) {
      if (!only.isEmpty() && !only.contains(row.trace())) {
        continue;
      }
      Trace trace = Trace.load(row.trace());
      for (int i = 0; i < 4; i++) {
        long size = row.sizes()[i];
        StringBuilder line = new StringBuilder();
        line.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.2f | %.2f |",
                row.trace(),
                size,
                row.caffeinePercent()[i],
                Simulator.hitPercent(trace, LinkedPolicy.lru(size, trace.distinct()))));
        double steps = 0;
        double windowPercent = 0;
        for (String variant : VARIANTS) {
          ClockSimulation sim =
              new ClockSimulation(variant, size, size, trace.distinct(), options(variant));
          line.append(String.format(Locale.ROOT, " %.2f |", Simulator.hitPercent(trace, sim)));
          if (steps == 0) {
            steps = (double) sim.policy().handSteps() / trace.length();
            windowPercent = 100.0 * sim.maxWindowBytes() / size;
          }
        }
        line.append(String.format(Locale.ROOT, " %.2f | %.0f%% |", steps, windowPercent));
        System.out.println(line);
      }
    }
  }
}
