/*
 * The cost of the two wall-clock reads a cache put may make: System.currentTimeMillis() (the
 * precise CLOCK_REALTIME) and Cairn's CoarseClock.millis (CLOCK_REALTIME_COARSE through a critical
 * FFM downcall), 20M of each in a loop, five rounds in one JVM, and the coarse clock's tick.
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core
 *   $J/javac -cp cairn-core/target/classes -d /tmp/coarse docs/probes/CoarseClockCost.java
 *   $J/java --enable-native-access=ALL-UNNAMED -cp cairn-core/target/classes:/tmp/coarse \
 *       CoarseClockCost
 *
 * The first rounds include the JIT's compilation; compare the later ones.
 */
import dev.cairn.time.CoarseClock;
import java.lang.foreign.MemorySegment;

public class CoarseClockCost {
  public static void main(String[] args) {
    MemorySegment timespec = CoarseClock.timespec();
    System.out.printf(
        "coarse clock read: %b, its tick %.1f ms%n",
        CoarseClock.coarse(), CoarseClock.resolution() / 1e6);
    long sink = 0;
    int n = 20_000_000;
    for (int round = 0; round < 5; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += CoarseClock.millis(timespec);
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += System.currentTimeMillis();
      }
      long t2 = System.nanoTime();
      System.out.printf(
          "CoarseClock.millis %.1f ns, System.currentTimeMillis %.1f ns%n",
          (t1 - t0) / (double) n, (t2 - t1) / (double) n);
    }
    System.out.println(sink == 42 ? "!" : "");
  }
}
