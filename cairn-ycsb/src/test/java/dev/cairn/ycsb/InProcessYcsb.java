package dev.cairn.ycsb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBFactory;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;
import site.ycsb.workloads.CoreWorkload;

/**
 * Runs one YCSB phase, a load or a run of transactions, in this JVM, with YCSB's own pieces as
 * {@code site.ycsb.Client.main} puts them together: {@link CoreWorkload}, one {@link ClientThread}
 * per thread, each with its {@code DB} from {@link DBFactory} (the binding wrapped in YCSB's
 * measuring {@code DBWrapper}), and YCSB's text report. {@code Client.main} itself cannot run here:
 * it ends with {@code System.exit}. (A {@code ClientThread} also exits the JVM if a workload
 * throws; the binding returns a status for every failure instead.)
 *
 * <p>YCSB's measurements are one object per JVM, whose counts only grow: {@link #run} returns the
 * report of everything measured so far, and {@link YcsbReport#since} gives one phase's share.
 *
 * <p>Thread-safety: one phase at a time.
 */
final class InProcessYcsb {
  private InProcessYcsb() {}

  /**
   * The properties of {@code workloads/<name>} (this module's), with {@code overrides} over them.
   */
  static Properties workload(String name, Map<String, String> overrides) throws IOException {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of("workloads", name))) {
      props.load(in);
    }
    props.putAll(overrides);
    props.setProperty("db", CairnYcsbClient.class.getName());
    return props;
  }

  /** Loads the records ({@code -load}); returns the report so far. */
  static YcsbReport load(Properties props, int threads) throws Exception {
    return run(props, threads, false);
  }

  /** Runs the transactions ({@code -t}); returns the report so far. */
  static YcsbReport transactions(Properties props, int threads) throws Exception {
    return run(props, threads, true);
  }

  /** The report of everything measured so far in this JVM, before any phase ran too. */
  static YcsbReport report(Properties props) throws IOException {
    Measurements.setProperties(props); // used where the JVM's measurements are first made
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TextMeasurementsExporter exporter = new TextMeasurementsExporter(out);
    Measurements.getMeasurements().exportMeasurements(exporter);
    exporter.close();
    return YcsbReport.parse(out.toString(StandardCharsets.UTF_8));
  }

  private static YcsbReport run(Properties workloadProps, int threads, boolean transactions)
      throws Exception {
    Properties props = new Properties();
    props.putAll(workloadProps);
    props.setProperty("dotransactions", Boolean.toString(transactions));
    props.setProperty("threadcount", Integer.toString(threads));
    Measurements.setProperties(props); // used where the JVM's measurements are first made
    CoreWorkload workload = new CoreWorkload();
    workload.init(props);
    Tracer tracer = new Tracer.Builder("YCSB test").conf(HTraceConfiguration.EMPTY).build();
    int operations =
        Integer.parseInt(props.getProperty(transactions ? "operationcount" : "recordcount"));
    CountDownLatch done = new CountDownLatch(threads);
    List<Thread> running = new ArrayList<>();
    for (int id = 0; id < threads; id++) {
      DB db = DBFactory.newDB(props.getProperty("db"), props, tracer);
      int share = operations / threads + (id < operations % threads ? 1 : 0);
      ClientThread client = new ClientThread(db, transactions, workload, props, share, -1, done);
      client.setThreadId(id);
      client.setThreadCount(threads);
      Thread thread = new Thread(client, "ycsb-client-" + id);
      thread.start();
      running.add(thread);
    }
    for (Thread thread : running) {
      thread.join();
    }
    workload.cleanup();
    tracer.close();
    return report(props);
  }
}
