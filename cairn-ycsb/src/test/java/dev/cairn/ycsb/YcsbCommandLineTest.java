package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.Cache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YCSB's own command, {@code site.ycsb.Client}, as a user runs it (docs/YCSB.md): a load, then
 * workloads A and E, each in a new JVM on one persistent cache directory, with {@code
 * dataintegrity=true}. A finds every record the load wrote, and its report has only OK statuses and
 * a verified value for every read ({@link RunCheck}); E's report shows its scans NOT_IMPLEMENTED
 * and its inserts OK. Every record is whole at the end. (Every workload but E runs on both kinds of
 * cache in {@link YcsbWorkloadsTest}, in this JVM: a new JVM per run costs a second or more.)
 */
class YcsbCommandLineTest {
  private static final int RECORDS = 2_000;
  private static final int OPERATIONS = 5_000;

  @TempDir Path temp;

  @Test
  void loadThenWorkloadsAE_inNewJvms_persistentCache() throws Exception {
    Path dir = temp.resolve("cache");

    YcsbReport load = client("-load", "workloada", dir);
    assertThat(load.notOk()).as("load").isEmpty();
    assertThat(load.count("INSERT", "OK")).as("load").isEqualTo(RECORDS);

    long inserted = 0;
    for (String workload : List.of("workloada", "workloade")) {
      inserted += RunCheck.assertRun(workload, client("-t", workload, dir), OPERATIONS);
    }

    try (Cache cache = Cache.open(dir, CairnSettings.from(new Properties()).cacheOptions())) {
      RecordCheck.assertWhole(
          cache.table("usertable", String.class, byte[].class), RECORDS + inserted);
    }
  }

  /** Runs {@code site.ycsb.Client} in a new JVM; returns its report. */
  private YcsbReport client(String phase, String workload, Path dir) throws Exception {
    String label = phase.substring(1) + "-" + workload;
    String java = ProcessHandle.current().info().command().orElseThrow();
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            java,
            "-Xmx256m",
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            "site.ycsb.Client",
            phase,
            "-db",
            CairnYcsbClient.class.getName(),
            "-P",
            Path.of("workloads", workload).toString(),
            "-threads",
            "4"));
    for (String p :
        List.of(
            "recordcount=" + RECORDS,
            "operationcount=" + OPERATIONS,
            "dataintegrity=true",
            "cairn.dir=" + dir,
            "cairn.durability=periodic",
            "cairn.verify=true")) {
      command.add("-p");
      command.add(p);
    }
    Path out = temp.resolve(label + ".out");
    Path err = temp.resolve(label + ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(label + ": YCSB did not finish in 120 s; stderr:\n" + read(err));
    }
    String stdout = read(out);
    String stderr = read(err);
    assertThat(process.exitValue()).as(label + ": exit status; stderr:\n" + stderr).isZero();
    assertThat(stderr)
        .as(label + ": the last client checked the cache as it closed it")
        .contains("index and pile agree");
    return YcsbReport.parse(stdout);
  }

  private static String read(Path file) throws Exception {
    return Files.readString(file);
  }
}
