package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.Cache;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YCSB's core workloads A, B, C, F and D against the binding, with {@code dataintegrity=true}, run
 * in this JVM by YCSB's own workload, client threads and measurements ({@link InProcessYcsb}): a
 * load of {@value #RECORDS} records, then {@value #OPERATIONS} operations of each workload from
 * {@value #THREADS} threads. Each phase must report only OK statuses, a check of every record read
 * ({@code VERIFY}) that found the values YCSB wrote, and the operations the workload asks for;
 * after the last, every record must hold all its fields (YCSB's own check looks only at the fields
 * a read returns). Workload E is left out: its scans are not supported ({@link
 * CairnYcsbClientTest}; {@link YcsbCommandLineTest} runs it).
 */
class YcsbWorkloadsTest {
  private static final int RECORDS = 2_000;
  private static final int OPERATIONS = 5_000;
  private static final int THREADS = 4;

  @TempDir Path temp;

  @Test
  void volatileCache_loadThenWorkloadsABCFD_allOkAndVerified() throws Exception {
    Map<String, String> cairn = Map.of();
    // a volatile cache lives while a client holds it: hold it from the load to the last run
    SharedCache held = SharedCache.acquire(CairnSettings.from(workload("workloada", cairn)));
    try {
      long inserted = loadAndRunAll(cairn);
      RecordCheck.assertWhole(held.table("usertable"), RECORDS + inserted);
    } finally {
      held.release();
    }
  }

  @Test
  void persistentCache_reopenedForEachPhase_loadThenWorkloadsABCFD_allOkAndVerified()
      throws Exception {
    Path dir = temp.resolve("cache");
    // each phase opens the cache, and its last client closes it: every run starts from a reopen
    Map<String, String> cairn =
        Map.of("cairn.dir", dir.toString(), "cairn.durability", "periodic", "cairn.verify", "true");
    long inserted = loadAndRunAll(cairn);
    try (Cache cache = Cache.open(dir, CairnSettings.from(new Properties()).cacheOptions())) {
      RecordCheck.assertWhole(
          cache.table("usertable", String.class, byte[].class), RECORDS + inserted);
      assertThat(cache.verify()).isEqualTo(RECORDS + inserted);
    }
  }

  /** Loads, runs A, B, C, F and D, checking each phase's report; returns D's inserts. */
  private long loadAndRunAll(Map<String, String> cairn) throws Exception {
    YcsbReport before = InProcessYcsb.report(workload("workloada", cairn));
    YcsbReport after = InProcessYcsb.load(workload("workloada", cairn), THREADS);
    YcsbReport load = after.since(before);
    assertThat(load.notOk()).as("load").isEmpty();
    assertThat(load.count("INSERT", "OK")).as("load").isEqualTo(RECORDS);
    long inserted = 0;
    for (String name :
        new String[] {"workloada", "workloadb", "workloadc", "workloadf", "workloadd"}) {
      before = after;
      after = InProcessYcsb.transactions(workload(name, cairn), THREADS);
      inserted += RunCheck.assertRun(name, after.since(before), OPERATIONS);
    }
    return inserted;
  }

  private static Properties workload(String name, Map<String, String> cairn) throws Exception {
    Map<String, String> overrides = new HashMap<>(cairn);
    overrides.put("recordcount", Integer.toString(RECORDS));
    overrides.put("operationcount", Integer.toString(OPERATIONS));
    overrides.put("dataintegrity", "true");
    return InProcessYcsb.workload(name, overrides);
  }
}
