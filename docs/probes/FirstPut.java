/*
 * A new JVM's first volatile cache: how long its open, its first table and its first put take,
 * and a second put for scale. The first put allocates the pile's first segment, which needs the
 * native calls of OsMemory (mmap, madvise), linked by the JVM's foreign linker at their first use.
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core,cairn-cache
 *   CP=cairn-core/target/classes:cairn-cache/target/classes
 *   $J/javac -cp $CP -d /tmp/first-put docs/probes/FirstPut.java
 *   $J/java --enable-native-access=ALL-UNNAMED -cp $CP:/tmp/first-put FirstPut
 *
 * Run it a few times for each build compared, alternating: one JVM's start varies by tens of ms.
 */
import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.LongCacheTable;

public class FirstPut {
  public static void main(String[] args) {
    long start = System.nanoTime();
    try (Cache cache = Cache.offHeap(CacheOptions.builder().build())) {
      long opened = System.nanoTime();
      LongCacheTable<byte[]> table = cache.longTable("first", byte[].class);
      long made = System.nanoTime();
      table.put(1, new byte[32]);
      long first = System.nanoTime();
      table.put(2, new byte[32]);
      long second = System.nanoTime();
      System.out.printf(
          "open %.1f ms, table %.1f ms, first put %.1f ms, second put %.3f ms, total %.1f ms%n",
          (opened - start) / 1e6,
          (made - opened) / 1e6,
          (first - made) / 1e6,
          (second - first) / 1e6,
          (first - start) / 1e6);
    }
  }
}
