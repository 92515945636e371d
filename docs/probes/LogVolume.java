/*
 * What a persistent cache's load writes to its log: N puts of new long keys with 32-byte values
 * into a new PERIODIC cache in DIR (removed first), from one thread; then the log bytes per put
 * (the pile's log end LSN, so record headers and alignment included), the index's bytes and the
 * puts a second. Each growth of an index shard logs its new region whole: the slots its rebuild
 * moved in and the zeros between them. Then the same N keys are put again (each an overwrite in
 * place, no growth) and their log bytes a put are printed: the difference is what the growths
 * and the inserts' own extra cost.
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core,cairn-cache
 *   CP=cairn-core/target/classes:cairn-cache/target/classes
 *   $J/javac -cp $CP -d /tmp/logvolume docs/probes/LogVolume.java
 *   $J/java --enable-native-access=ALL-UNNAMED -cp $CP:/tmp/logvolume \
 *       dev.cairn.cache.LogVolume /tmp/logvolume-cache 2000000      # DIR, puts
 */
package dev.cairn.cache;

import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

public class LogVolume {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long puts = Long.parseLong(args[1]);
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    CacheOptions options =
        CacheOptions.builder()
            .pile(PileOptions.builder().durability(Durability.PERIODIC).build())
            .build();
    byte[] value = new byte[32];
    try (Cache cache = Cache.open(dir, options)) {
      LongCacheTable<byte[]> table = cache.longTable("t", byte[].class);
      long lsnBefore = cache.pile().durabilityStats().logEndLsn();
      long start = System.nanoTime();
      for (long i = 0; i < puts; i++) {
        table.put(i, value);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long logBytes = cache.pile().durabilityStats().logEndLsn() - lsnBefore;
      TableStats stats = table.stats();
      System.out.printf(
          "puts %,d: log %,d B (%.1f B a put), index %,d B, %,.0f puts/s%n",
          puts, logBytes, logBytes / (double) puts, stats.indexBytes(), puts / seconds);
      long lsnOverwrites = cache.pile().durabilityStats().logEndLsn();
      for (long i = 0; i < puts; i++) {
        table.put(i, value);
      }
      long overwriteBytes = cache.pile().durabilityStats().logEndLsn() - lsnOverwrites;
      System.out.printf(
          "overwrites %,d: log %,d B (%.1f B a put)%n",
          puts, overwriteBytes, overwriteBytes / (double) puts);
    }
  }
}
