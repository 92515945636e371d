/*
 * What a long String costs the pile's put: put and delete of one string of 8,192, 65,536 and
 * 1,048,576 chars into a volatile pile, over and over (about 200M chars per round), the best of
 * five rounds, per string and per char; ASCII ("abc...") and Cyrillic ("абв...", two bytes a
 * char). The put encodes the string into its thread's buffer, a piece of 4,096 chars at a time
 * (Scratch.encode), then copies it into the block.
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core
 *   $J/java --enable-native-access=ALL-UNNAMED -cp cairn-core/target/classes \
 *       docs/probes/LongStringPut.java
 */
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;

public class LongStringPut {
  public static void main(String[] args) {
    try (Pile pile = Pile.offHeap(PileOptions.defaults())) {
      for (char first : new char[] {'a', '\u0430'}) {
        for (int length : new int[] {8_192, 65_536, 1 << 20}) {
          StringBuilder b = new StringBuilder();
          while (b.length() < length) {
            b.append((char) (first + b.length() % 26));
          }
          String s = b.toString();
          int n = (int) Math.max(200, 200_000_000L / length);
          double best = Double.MAX_VALUE;
          for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
              pile.delete(pile.put(s));
            }
            best = Math.min(best, (System.nanoTime() - t0) / (double) n);
          }
          System.out.printf(
              "%s %8d chars: put and delete %.1f us, %.2f ns a char%n",
              first == 'a' ? "ASCII   " : "Cyrillic", length, best / 1000, best / length);
        }
      }
    }
  }
}
