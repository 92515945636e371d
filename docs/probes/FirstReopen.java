/*
 * How long a persistent pile's first reopen in a process takes, beside the reopens after it: the
 * bench's "reopen to first get" is the first, after the load, in the JVM that loaded. Creates a
 * pile of N 32-byte values (durability NONE) in DIR, closes it, then REPS times opens it, gets
 * the first value and closes it again, and prints the first open-and-get and the median of the
 * others. Run it against two builds' cairn-core jars, alternating, each in fresh JVMs:
 *
 *   java --enable-native-access=ALL-UNNAMED -Xmx2g -cp cairn-core/target/cairn-core-*-SNAPSHOT.jar \
 *       docs/probes/FirstReopen.java /tmp/first-reopen 3000000 40
 *
 * DIR must not exist (it is created; delete it between runs).
 */
import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.nio.file.Path;
import java.util.Arrays;

public class FirstReopen {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    int reps = Integer.parseInt(args[2]);
    PileOptions options = PileOptions.builder().durability(Durability.NONE).build();
    long first;
    try (Pile pile = Pile.open(dir, options)) {
      byte[] value = new byte[32];
      first = pile.put(value);
      for (int i = 1; i < n; i++) {
        value[0] = (byte) i;
        pile.put(value);
      }
    }
    long[] nanos = new long[reps];
    for (int r = 0; r < reps; r++) {
      long start = System.nanoTime();
      try (Pile pile = Pile.open(dir, options)) {
        if (pile.getBytes(first).length != 32) {
          throw new AssertionError("the first value is not 32 bytes");
        }
        nanos[r] = System.nanoTime() - start;
      }
    }
    long firstNanos = nanos[0];
    long[] rest = Arrays.copyOfRange(nanos, 1, reps);
    Arrays.sort(rest);
    System.out.printf(
        "first reopen to first get %.2f ms; the %d after it: median %.2f ms%n",
        firstNanos / 1e6, rest.length, rest.length == 0 ? 0 : rest[rest.length / 2] / 1e6);
  }
}
