package dev.cairn.cache.policy.simulator;

import dev.cairn.cache.policy.FrequencySketch;
import dev.cairn.cache.policy.TinyLfuClock;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * The comparison behind the probation grace (docs/CACHE-POLICY.md): the policy without it against
 * the policy as shipped, whose entries leaving the window survive one pass of the hand in probation
 * while the sketch has {@code GRACE_MIN_SKETCH_BYTES_PER_ENTRY} bytes or more per entry ({@link
 * TinyLfuClock.Options#probationGrace}), over the 44 points of the traces, with three sketch
 * widths: the cache's (a 16 KiB floor: 1 to 1,600 bytes per entry at these sizes), 1 byte per entry
 * (what a cache of more than 16,384 entries has) and 8 bytes per entry (Caffeine's).
 *
 * <p>Run: {@code ./mvnw -B -o -q test-compile -pl cairn-cache}, then {@code java -cp
 * cairn-cache/target/classes:cairn-cache/target/test-classes:<xz jar>
 * dev.cairn.cache.policy.simulator.ProbationGraceReport}.
 */
public final class ProbationGraceReport {
  private ProbationGraceReport() {}

  private record Sketch(String name, LongUnaryOperator minBytesForSize) {}

  private static final Sketch[] SKETCHES = {
    new Sketch("the cache's (16 KiB floor)", size -> FrequencySketch.MIN_BYTES),
    new Sketch("1 B/entry", size -> PolicyTraceTest.ONE_BYTE_FLOOR),
    new Sketch("8 B/entry", size -> 8 * size),
  };

  public static void main(String[] args) {
    System.out.println("| sketch | grace | mean − Caffeine | points > 2 below | worst point |");
    System.out.println("|---|---:|---:|---:|---|");
    for (Sketch sketch : SKETCHES) {
      for (int grace = 0; grace <= 1; grace++) {
        TinyLfuClock.Options options = TinyLfuClock.Options.DEFAULT.withProbationGrace(grace);
        double sum = 0;
        int points = 0;
        int below = 0;
        double worst = Double.MAX_VALUE;
        String worstPoint = "";
        for (ReferenceFigures row : ReferenceFigures.all()) {
          Trace trace = Trace.load(row.trace());
          for (int i = 0; i < 4; i++) {
            long size = row.sizes()[i];
            ClockSimulation sim =
                new ClockSimulation(
                    "grace " + grace,
                    size,
                    size,
                    trace.distinct(),
                    options,
                    sketch.minBytesForSize().applyAsLong(size));
            double difference = Simulator.hitPercent(trace, sim) - row.caffeinePercent()[i];
            sum += difference;
            points++;
            if (difference < -2) {
              below++;
            }
            if (difference < worst) {
              worst = difference;
              worstPoint = row.trace() + " at " + size;
            }
          }
        }
        System.out.printf(
            Locale.ROOT,
            "| %s | %d | %+.2f | %d | %s, %+.2f |%n",
            sketch.name(),
            grace,
            sum / points,
            below,
            worstPoint,
            worst);
      }
    }
  }
}
