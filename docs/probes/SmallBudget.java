/*
 * Where a small cache's budget goes under churn: N puts of new long keys with 1-char String values
 * (32-byte entries) into a volatile cache of budget B, then what the table holds: entries and
 * their bytes, the index's bytes, and the index regions retired by rebuilds and not yet freed
 * (held a grace of 100 ms for lock-free readers, counted against the budget meanwhile); again
 * after 300 ms and one more put. Package dev.cairn.cache for the retired list (CacheCore).
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
 *   ./mvnw -q install -DskipTests -pl cairn-core,cairn-cache
 *   CP=cairn-core/target/classes:cairn-cache/target/classes
 *   $J/javac -cp $CP -d /tmp/smallbudget docs/probes/SmallBudget.java
 *   $J/java --enable-native-access=ALL-UNNAMED -cp $CP:/tmp/smallbudget \
 *       dev.cairn.cache.SmallBudget 1000000 1000000      # budget bytes, puts
 */
package dev.cairn.cache;

public class SmallBudget {
  public static void main(String[] args) throws Exception {
    long budget = Long.parseLong(args[0]);
    long puts = Long.parseLong(args[1]);
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(budget).build())) {
      CacheTable<Long, String> table = cache.table("t", Long.class, String.class);
      for (long i = 0; i < puts; i++) {
        table.put(i, "x");
      }
      report(cache, table);
      Thread.sleep(300);
      table.put(-1L, "y");
      report(cache, table);
    }
  }

  private static void report(Cache cache, CacheTable<Long, String> table) {
    TableStats s = table.stats();
    long retired = 0;
    for (CacheCore.Retired r : cache.core().retiredRegions()) {
      retired += r.bytes();
    }
    System.out.printf(
        "entries %,d (%,d B), index %,d B, retired regions %,d B (%d), used %,d of %,d B%n",
        s.entries(),
        s.entryBytes(),
        s.indexBytes(),
        retired,
        cache.core().retiredRegions().size(),
        cache.stats().usedBytes(),
        cache.stats().budgetBytes());
  }
}
