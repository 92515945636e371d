package dev.cairn.bench.harness;

import dev.cairn.bench.cache.CacheBench;
import dev.cairn.bench.cache.CacheBenchConfig;
import dev.cairn.bench.cache.CacheBenchReport;
import dev.cairn.bench.cache.CacheStoreKind;
import dev.cairn.bench.cache.KeyOrder;
import dev.cairn.bench.petclinic.PetclinicBench;
import dev.cairn.bench.petclinic.PetclinicConfig;
import dev.cairn.bench.report.HtmlReport;
import dev.cairn.bench.report.MachineDescription;
import dev.cairn.bench.report.RunFigures;
import dev.cairn.cli.CommandFailedException;
import dev.cairn.cli.CountConverter;
import dev.cairn.pile.Durability;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn bench}: puts N values into a Pile and into a {@code ConcurrentHashMap}, gets them
 * back, and compares throughput, memory and GC pauses; with {@code --dir}, the pile is persistent
 * (and {@code --reopen} measures its restart); with {@code --commits}, it measures durable
 * single-put commits against RocksDB's; with {@code --recovery}, the open of a pile killed with a
 * full log; with {@code --latency-during-checkpoint}, put latency while checkpoints run. The
 * measuring is done by {@link BenchRunner}; this class only turns options into a {@link
 * BenchConfig} and prints the report.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Puts N values into a Pile and into a ConcurrentHashMap<Long, byte[]>, with T threads,"
          + " then gets them all back, and prints for each store: puts/s, gets/s, bytes per"
          + " value (growth of the process RSS while loading it, and the live heap's), the"
          + " longest and the total GC pause during its puts and gets, and the pile/map ratio"
          + " of each.",
      "",
      "Values come from a pool of 64K distinct values made before the stores run, cycled by"
          + " index, identically for both stores: N values made ahead would sit on the heap, and"
          + " a new value per put would be garbage, and either would distort the pile's GC and"
          + " RSS figures. The map keeps a string as its UTF-8 bytes, the smallest heap form."
          + " Gets copy a value into a reused buffer (pile) or return the stored array (map),"
          + " and are checked by checksum.",
      "",
      "The pile runs first and is closed before the map runs, so the pile is measured on a"
          + " clean heap. The pile's pointers (a long[N]) are made before its baseline and not"
          + " counted. RSS figures need N of a million or more to rise above fixed costs (the"
          + " pile takes memory a 64 MiB segment at a time). An RSS growth that cannot be told"
          + " from the JVM's own (under 64 MiB, or under what the pile allocated by its own"
          + " account) is shown as unreliable, null in the JSON with the reason under"
          + " \"unreliable\"; the pile's own account (allocatedBytesPerValue) stands beside it.",
      "",
      "The map needs about 110 bytes of heap per 32-byte value: for large N give it heap"
          + " (JAVA_OPTS=-Xmx16g) or run --stores pile.",
      "",
      "--kind person: values are Person records (3 short strings, an int, a double, a long, a"
          + " LocalDate), a pool of 64K distinct ones. The pile stores each with its generated"
          + " object codec and decodes it on get; the map (ConcurrentHashMap<Long, Person>) holds"
          + " a deep copy of each (its own strings and date, as n real people would have) and"
          + " returns the object. Gets are checked by id.",
      "",
      "Persistent: with --dir DIR the pile is opened with Pile.open in DIR/pile (with"
          + " --durability, default none), and its close, which writes the final checkpoint, is"
          + " timed too. --stores pile,mapped runs a volatile pile and a persistent one"
          + " (DIR/mapped) in the same run, and prints their ratio. DIR must be empty or absent;"
          + " --fresh first deletes what an earlier bench left there (and nothing else: it refuses"
          + " a DIR holding other files). The files stay after the run, for cairn inspect.",
      "",
      "--reopen: after the load, the persistent pile is closed, the page cache is dropped (when"
          + " root may write /proc/sys/vm/drop_caches; else the reads are warm and say so) and dd"
          + " reads one segment file for the disk's rate; then the pile is reopened and timed to"
          + " its first get, and every value is read back in index order.",
      "",
      "--commits: instead of the load, T threads each commit values of --size bytes, one durable"
          + " put per commit (durability sync), for --seconds or --count commits, into the pile"
          + " in DIR/pile and, with --stores pile,rocksdb, into RocksDB in DIR/rocksdb (sync"
          + " writes, one put per commit), and with cache among --stores, into a persistent Cairn"
          + " cache in DIR/cache (one long key per commit: entry and index slot in one record)."
          + " Reports commits/s and commit latency percentiles, and the raw fsync latency of DIR's"
          + " disk measured first.",
      "",
      "--recovery: a child JVM fills a new pile in DIR/pile (durability periodic, 4 KiB byte[]"
          + " values unless --kind or --size say otherwise) until --log-gb of log is written"
          + " since its last checkpoint, and is killed with SIGKILL; the page cache is dropped"
          + " (as for --reopen) and the crashed pile is opened and timed: recoveryOpenSecs (the"
          + " replay and the checkpoint that ends it) and replayMBps; readOnlyReplaySecs times a"
          + " read-only open of it first (replay into memory only), which also counts the log's"
          + " bytes. The log is preallocated at about 4.5 x --log-gb, in DIR.",
      "",
      "--latency-during-checkpoint: after a warm-up that runs until the JIT is quiet (at most"
          + " 30 s), T threads put values as fast as they can (or at --rate)"
          + " for --seconds into a fresh pile in DIR/pile/baseline, then into another in"
          + " DIR/pile/checkpointing while one more thread calls checkpoint() in a loop; reports"
          + " put latency percentiles of both (put*, baseline*), their rates, the checkpoints"
          + " completed, and what else stopped the JVM (GC pauses, JIT compiling time, a sleeping"
          + " thread's lateness, CPU steal).",
      "",
      "--workload cache: keyed tables of long keys and byte[] values of --size bytes (default"
          + " 32), each store in a JVM of its own, one after another: Cairn's cache (a"
          + " LongCacheTable), ConcurrentHashMap<Long, byte[]> and Caffeine (on the heap, sized"
          + " 400 B per entry), Chronicle Map (sized by n, as it must be) and Ehcache 3's off-heap"
          + " tier. T threads load keys 0..n-1 into the empty store (loadPerSec; bytesPerEntry,"
          + " the process RSS growth per entry), then run 90%% gets and 10%% puts for --seconds"
          + " (default 10) over uniform keys and over Zipfian ones (exponent 0.99, scrambled),"
          + " each get copying the value out and checking its key (mixed*OpsPerSec; get latency"
          + " percentiles of every get; gcMaxPauseMs). With --budget-fraction F, the bounded"
          + " workload instead. With --dir, Cairn's cache is persistent in DIR/cache (durability"
          + " default periodic); with --reopen it is closed, reopened and timed to its first hit"
          + " (reopenFirstHitMs), then restarted in a new JVM and timed from process start to"
          + " first hit (restartFirstHitMs), then again with the JVM's ahead-of-time cache of"
          + " classes, trained on one restart (restartAotFirstHitMs; DIR/restart.aot), and again,"
          + " without it, after a JVM writing to it is killed with"
          + " SIGKILL (restartAfterKillFirstHitMs). Ratios are Cairn's figure over each peer's."
          + " --stores cairn-jcache,caffeine-jcache adds each cache through its JSR-107 provider.",
      "",
      "--workload petclinic: Spring PetClinic's model (owners, two pets each, a visit each) in four"
          + " configurations, each in a JVM of its own: hibernate (Hibernate 7 over H2 in files, no"
          + " second-level cache), hibernate-ehcache and hibernate-cairn (Ehcache 3 or Cairn as its"
          + " JCache second-level and query cache), cairn-direct (Cairn's cache as the store of"
          + " record, persistent, SYNC). --n owners (default 10,000) are created, then T threads"
          + " run for --seconds (default 10; unmeasured for as long first, at most 10 s) 70%% owner"
          + " pages, 20%% searches by last name, 5%% new visits, 5%% owner updates; reports ops/s"
          + " and latency percentiles of reads, writes and all operations, and the throughput"
          + " ratios. Databases and cache go to --dir (default target/petclinic).",
    },
    footer = {
      "",
      "Examples:",
      "  cairn bench                                  # both stores, defaults",
      "  cairn bench --n 200k --json                  # small run, JSON on stdout",
      "  JAVA_OPTS=-Xmx2g cairn bench --n 100M --stores pile",
      "  cairn bench --dir /tmp/cb --stores pile,mapped   # volatile and mapped, one run",
      "  cairn bench --dir /tmp/cb --fresh --reopen --stores pile",
      "  cairn bench --dir /tmp/cb --fresh --commits --threads 16 --stores pile,rocksdb",
      "  cairn bench --dir /tmp/cb --fresh --commits --threads 16 --stores pile,cache",
      "  cairn bench --kind person --json",
      "  cairn bench --dir /tmp/cb --fresh --recovery --log-gb 2 --json",
      "  cairn bench --dir /tmp/cb --fresh --latency-during-checkpoint --durability periodic",
      "  cairn bench --workload cache --json",
      "  cairn bench --workload cache --stores cairn,caffeine,ehcache --budget-fraction 0.5",
      "  cairn bench --workload cache --stores cairn --dir /tmp/cb --fresh --reopen",
      "  cairn bench --workload petclinic --json",
      "  cairn bench --workload cache --stores cairn,chm --html report.html   # charts",
      "  cairn bench --workload cache --stores cairn-jcache,cairn --rounds 4   # medians",
    })
public final class BenchCommand implements Callable<Integer> {

  /*
   * The default N: 10M takes about 10 s for both stores together on the reference machine
   * (2 cores, 24 GiB), fits the map (about 1.1 GiB live) in ./cairn's default 4 GiB heap, and
   * makes the pile's fixed cost (a 64 MiB segment per busy stripe) under 1 % of its figures.
   * Larger N changes the pile's figures little; the map's need more heap.
   */
  @Option(
      names = {"-n", "--n"},
      paramLabel = "N",
      defaultValue = "10_000_000",
      converter = CountConverter.class,
      description =
          "Values to put into each store, then get (default: ${DEFAULT-VALUE}, about 10 s for"
              + " both stores on 2 cores). Accepts 5_000_000 or 5M.")
  private int n;

  @Option(
      names = {"-t", "--threads"},
      paramLabel = "T",
      defaultValue = "2",
      description =
          "Threads; each takes an equal share of the indices (default: ${DEFAULT-VALUE}).")
  private int threads;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      defaultValue = "string",
      description =
          "Value kind: string (ASCII String, stored as UTF-8), bytes (random byte[]) or person"
              + " (a 7-field record, stored with its object codec) (default: ${DEFAULT-VALUE};"
              + " with --recovery: bytes).")
  private BenchValueKind kind;

  @Option(
      names = "--size",
      paramLabel = "SIZE",
      defaultValue = "32",
      description =
          "Characters of a string, bytes of a byte[]; not for person (default: ${DEFAULT-VALUE},"
              + " as in the seed system's string[32] benchmark; with --recovery: 4096).")
  private int size;

  @Option(
      names = "--workload",
      paramLabel = "WORKLOAD",
      defaultValue = "load",
      description =
          "load (the default: the pile against a map, and --commits, --recovery,"
              + " --latency-during-checkpoint), or cache: keyed tables, Cairn's cache against"
              + " ConcurrentHashMap, Caffeine, Chronicle Map and Ehcache, or petclinic:"
              + " Hibernate with and without a second-level cache against Cairn (see below).")
  private String workloadName;

  @Option(
      names = "--stores",
      paramLabel = "STORE",
      split = ",",
      description =
          "Stores to measure, comma-separated: pile, mapped (a persistent pile beside the"
              + " volatile one; needs --dir), map, rocksdb (needs --dir; bytes or strings), cache"
              + " (a persistent Cairn cache; --commits only)"
              + " (default: pile,map;"
              + " with --commits: pile). They always run in that order. With --workload cache:"
              + " cairn, chm, caffeine, chronicle, ehcache (default: all, in that order).")
  private List<String> stores;

  @Option(
      names = "--budget-fraction",
      paramLabel = "F",
      description =
          "With --workload cache: the bounded workload instead, each store bounded to F of the"
              + " data's bytes (n x (8 + size)); Zipfian gets with a put on each miss. Reports"
              + " boundedOpsPerSec and hitRatio.")
  private Double budgetFraction;

  @Option(
      names = "--keys",
      paramLabel = "ORDER",
      description =
          "With --workload cache: sequential (keys 0..n-1, the default) or scattered (n distinct"
              + " longs spread over the whole range, so that no store's hash keeps neighbouring"
              + " keys together).")
  private String keys;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      description = "With --workload cache: the seed of the keys drawn (default: random, printed).")
  private Long seed;

  @Option(
      names = "--rounds",
      paramLabel = "R",
      description =
          "With --workload cache: run every store R times, the stores' order reversed in every"
              + " other round, and report each figure as its median over the rounds and each"
              + " ratio as the median of the rounds' own ratios, with the lowest and highest"
              + " (ratiosLowest, ratiosHighest; every round under byRound). For a machine whose"
              + " speed drifts from one minute to the next. Default: 1.")
  private Integer rounds;

  @Option(
      names = "--get-order",
      paramLabel = "ORDER",
      defaultValue = "random",
      description =
          "Order of the gets in each thread's share: random (a full-period stride, far-apart"
              + " reads) or sequential (index order, which prefetching flatters)"
              + " (default: ${DEFAULT-VALUE}).")
  private GetOrder getOrder;

  @Option(
      names = "--churn",
      paramLabel = "CYCLES",
      defaultValue = "0",
      description =
          "After the gets, delete a random half of the values and put them back, CYCLES times,"
              + " and report the RSS growth this adds as a percentage of the load's"
              + " (default: ${DEFAULT-VALUE}: no churn).")
  private int churn;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "Make the pile persistent, in DIR/pile (each store that keeps files has a"
              + " subdirectory). DIR must be empty or absent (see --fresh).")
  private Path directory;

  @Option(
      names = "--fresh",
      description =
          "Delete what an earlier bench left in --dir first; refuses if DIR holds anything else.")
  private boolean fresh;

  @Option(
      names = "--durability",
      paramLabel = "LEVEL",
      description =
          "The persistent pile's durability: none, periodic or sync (default: none; with"
              + " --commits: sync, the only level it accepts; with --recovery: periodic, the only"
              + " level it accepts). Needs --dir.")
  private Durability durability;

  @Option(
      names = "--reopen",
      description =
          "After the load, close the persistent pile, drop the page cache if allowed, reopen it,"
              + " and time the first get and a read of every value; then restart it in a new JVM"
              + " and time process start to first get (RocksDB too, with --stores pile,rocksdb)."
              + " Needs --dir.")
  private boolean reopen;

  @Option(
      names = "--write-before-kill",
      paramLabel = "S",
      description =
          "With --workload cache --reopen: how long the JVM that is killed with SIGKILL overwrites"
              + " random keys first, in seconds (default: 1); the longer, the more log the restart"
              + " after it replays (restartAfterKillRecordsReplayed), up to what a checkpoint"
              + " leaves (a quarter of the log).")
  private Double writeBeforeKill;

  @Option(
      names = "--drop-caches",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "With --reopen or --recovery: drop the whole machine's page cache first, when allowed"
              + " (root), so that the reads come from the disk (default: ${DEFAULT-VALUE};"
              + " --no-drop-caches on a shared machine reads warm).")
  private boolean dropCaches;

  @Option(
      names = "--commits",
      description =
          "Measure durable single-put commits (pile, and rocksdb and cache if in --stores) instead"
              + " of the"
              + " load. Needs --dir.")
  private boolean commits;

  /** Long enough for thousands of commits at fsync speed, short enough to run in a loop. */
  private static final int DEFAULT_COMMIT_SECONDS = 5;

  /**
   * Long enough for hundreds of checkpoints and millions of puts (a p99.9 of a million samples is
   * the thousandth worst), short enough that the pile stays within a few GiB.
   */
  private static final int DEFAULT_LATENCY_SECONDS = 5;

  @Option(
      names = "--seconds",
      paramLabel = "S",
      description =
          "With --commits: how long each store commits; with --latency-during-checkpoint: how long"
              + " each phase puts (default: 5); with --workload cache: each measured phase"
              + " (default: 10).")
  private Integer seconds;

  @Option(
      names = "--count",
      paramLabel = "COUNT",
      converter = CountConverter.class,
      description = "With --commits: commit COUNT times in all per store, instead of --seconds.")
  private Integer count;

  @Option(
      names = "--recovery",
      description =
          "Measure crash recovery: fill a pile's log in a child JVM, kill it, and time Pile.open"
              + " of what it left. Needs --dir.")
  private boolean recovery;

  /** 1 GiB of log: a large pile's usual log between checkpoints, and its worst-case recovery. */
  private static final double DEFAULT_LOG_GIB = 1;

  @Option(
      names = "--log-gb",
      paramLabel = "GIB",
      description =
          "With --recovery: the log to replay, in GiB (2^30 bytes); fractions allowed, such as"
              + " 0.01 (default: 1).")
  private Double logGib;

  @Option(
      names = "--log-file-mib",
      paramLabel = "MIB",
      description =
          "With --dir and a log: the size of each of the pile's four log files, in MiB (default:"
              + " the pile's, 64 with sync and 256 with periodic). A larger log gives checkpoints"
              + " more time before writers must wait for log space.")
  private Integer logFileMib;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "1M",
      converter = CountConverter.class,
      description =
          "Before each store's timed load, put and read back N values (at most a tenth of --n) in a"
              + " throwaway store of the same kind, so that JIT compilation is not timed; 0 for"
              + " none (default: ${DEFAULT-VALUE}). With --workload cache: N keys loaded into a"
              + " throwaway store of the same kind, in rounds until the JIT is quiet (at most 12"
              + " rounds or 30 s), in the store's own JVM. With --commits,"
              + " any N but 0 means commits in throwaway stores first, in rounds of two seconds"
              + " until the JIT is quiet (at most 30 s; one round of at most 10,000 with --count).")
  private int warmup;

  @Option(
      names = "--huge-pages",
      negatable = true,
      description =
          "Ask the OS for transparent huge pages (2 MiB) for the piles' segments in memory"
              + " (PileOptions.hugePages): fewer TLB misses for gets in random order. Needs"
              + " Linux, native access (the cairn launcher enables it) and transparent huge pages"
              + " set to madvise or always. Default: off for the pile's load; on for --workload"
              + " cache, as a cache's default options have them (--no-huge-pages to compare).")
  private Boolean hugePages;

  @Option(
      names = "--latency-during-checkpoint",
      description =
          "Measure put latency while another thread checkpoints in a loop, against the same puts"
              + " without it. Needs --dir.")
  private boolean latencyDuringCheckpoint;

  @Option(
      names = "--rate",
      paramLabel = "PUTS",
      converter = CountConverter.class,
      description =
          "With --latency-during-checkpoint: put at this many puts a second, all threads"
              + " together, each put timed from when it was due (so a stall also counts against"
              + " the puts queued behind it), instead of as fast as possible: latency at a load"
              + " the machine sustains, not at saturation.")
  private Integer rate;

  @Option(
      names = "--pace",
      paramLabel = "HOW",
      description =
          "With --rate: park (default) sleeps until each put is due, and the OS's late wake-ups"
              + " count against the puts; spin busy-waits instead, as a thread with work queued"
              + " would, taking a core per thread (use fewer threads than cores).")
  private String pace;

  @Option(
      names = "--checkpoint-every",
      paramLabel = "MS",
      description =
          "With --latency-during-checkpoint: start a checkpoint every MS milliseconds instead of"
              + " back to back (back to back still when one takes longer), as a pile's own"
              + " checkpoints come; the puts that overlapped a checkpoint are reported apart"
              + " (putDuringCheckpoint...).")
  private Integer checkpointEvery;

  @Option(names = "--json", description = "Print one JSON document on stdout instead of a table.")
  private boolean json;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description =
          "Also write the run to FILE as one self-contained HTML page: charts of the ratios,"
              + " throughput, latency percentiles, memory and pauses, every figure in a table,"
              + " the command and the machine. The page has no script and fetches nothing.")
  private Path html;

  @Option(
      names = "--progress",
      negatable = true,
      description =
          "Draw progress bars on stderr (default: only when stderr is a terminal, CI is unset"
              + " and --json is not given).")
  private Boolean progress;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (workloadName.equals("cache")) {
      return callCache();
    }
    if (workloadName.equals("petclinic")) {
      return callPetclinic();
    }
    if (!workloadName.equals("load")) {
      throw new ParameterException(
          spec.commandLine(),
          "--workload must be load, cache or petclinic: --workload " + workloadName);
    }
    BenchConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (config.workload() == Workload.LOAD) {
      requireMemoryFor(config);
    }
    prepareDirectory(); // last of the checks: --fresh deletes files a refused run would waste

    PrintWriter err = spec.commandLine().getErr();
    BenchReport report;
    try {
      report =
          new BenchRunner(
                  config,
                  showProgress() ? TerminalProgress.on(System.err) : Progress.Factory.NONE,
                  notices(err))
              .run();
    } catch (StoreFailedException e) {
      throw new CommandFailedException(e.getMessage(), e);
    }

    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? JsonReport.render(report) : TableReport.render(report));
    out.flush();
    writeHtml(report.runFigures());
    return 0;
  }

  /** With {@code --html FILE}: the run's page, written to FILE (see {@link HtmlReport}). */
  private void writeHtml(RunFigures figures) {
    if (html == null) {
      return;
    }
    String page = HtmlReport.render(figures, commandLine(), MachineDescription.current());
    try {
      Path parent = html.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(html, page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CommandFailedException("cannot write --html " + html + ": " + e, e);
    }
    notices(spec.commandLine().getErr()).accept("wrote the HTML report to " + html);
  }

  /** The command as the user typed it, each argument quoted for a POSIX shell if it must be. */
  private String commandLine() {
    StringBuilder line = new StringBuilder("cairn");
    for (String arg : spec.root().commandLine().getParseResult().originalArgs()) {
      line.append(' ');
      if (arg.matches("[A-Za-z0-9_./:=,+@%-]+")) {
        line.append(arg);
      } else {
        line.append('\'').append(arg.replace("'", "'\\''")).append('\'');
      }
    }
    return line.toString();
  }

  /** Makes --dir ready for the run, if given (see {@link BenchDirectory#prepare}). */
  private void prepareDirectory() {
    if (directory == null) {
      return;
    }
    try {
      BenchDirectory.prepare(directory, fresh);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    } catch (IOException e) {
      throw new CommandFailedException("cannot prepare --dir " + directory + ": " + e, e);
    }
  }

  /** Where a run's notices go: stderr, each on a line of its own, at once. */
  private static java.util.function.Consumer<String> notices(PrintWriter err) {
    return notice -> {
      err.println("cairn bench: " + notice);
      err.flush();
    };
  }

  /** The options that mean nothing to {@code --workload cache}. */
  private static final List<String> NOT_FOR_CACHE =
      List.of(
          "--kind",
          "--get-order",
          "--churn",
          "--commits",
          "--count",
          "--recovery",
          "--log-gb",
          "--log-file-mib",
          "--latency-during-checkpoint",
          "--rate",
          "--pace",
          "--checkpoint-every");

  /** The default length of each measured phase of {@code --workload cache}. */
  private static final int DEFAULT_CACHE_SECONDS = 10;

  /** The Zipfian exponent of {@code --workload cache}, YCSB's. */
  private static final double CACHE_ZIPF_THETA = 0.99;

  private int callCache() throws InterruptedException {
    CacheBenchConfig config;
    try {
      for (String option : NOT_FOR_CACHE) {
        if (given(option)) {
          throw new IllegalArgumentException(option + " does not apply to --workload cache");
        }
      }
      if (directory == null && (fresh || durability != null)) {
        throw new IllegalArgumentException("--fresh and --durability need --dir");
      }
      if (writeBeforeKill != null && !reopen) {
        throw new IllegalArgumentException("--write-before-kill needs --reopen");
      }
      config =
          new CacheBenchConfig(
              n,
              threads,
              size,
              seconds == null ? DEFAULT_CACHE_SECONDS : seconds,
              CACHE_ZIPF_THETA,
              keys == null ? KeyOrder.SEQUENTIAL : KeyOrder.of(keys),
              warmup,
              budgetFraction == null ? 0 : budgetFraction,
              stores == null
                  ? CacheBenchConfig.DEFAULT_STORES
                  : stores.stream().map(CacheStoreKind::of).toList(),
              directory,
              durability == null ? Durability.PERIODIC : durability,
              reopen,
              dropCaches,
              writeBeforeKill == null
                  ? CacheBenchConfig.DEFAULT_WRITE_BEFORE_KILL_SECONDS
                  : writeBeforeKill,
              hugePages == null || hugePages,
              seed != null ? seed : new java.util.Random().nextLong(),
              rounds == null ? 1 : rounds);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    prepareDirectory();
    PrintWriter err = spec.commandLine().getErr();
    CacheBenchReport report;
    try {
      report = new CacheBench(config, notices(err)).run();
    } catch (IOException e) {
      throw new CommandFailedException("cache bench failed: " + e, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? report.json() : report.table());
    out.flush();
    writeHtml(report.runFigures());
    return 0;
  }

  /** The owners --workload petclinic creates when --n is not given. */
  private static final int DEFAULT_PETCLINIC_OWNERS = 10_000;

  private int callPetclinic() throws InterruptedException {
    PetclinicBench bench;
    try {
      for (String option : NOT_FOR_CACHE) {
        if (given(option)) {
          throw new IllegalArgumentException(option + " does not apply to --workload petclinic");
        }
      }
      if (writeBeforeKill != null || rounds != null) {
        throw new IllegalArgumentException(
            "--write-before-kill and --rounds do not apply to --workload petclinic");
      }
      int owners = given("--n") ? n : DEFAULT_PETCLINIC_OWNERS;
      if (owners < 1) {
        throw new IllegalArgumentException("--n must be at least 1 owner: " + owners);
      }
      Path where = directory == null ? Path.of("target", "petclinic") : directory;
      bench =
          new PetclinicBench(
              owners,
              Math.max(1, owners / 10),
              threads,
              seconds == null ? DEFAULT_CACHE_SECONDS : seconds,
              stores == null
                  ? List.of(PetclinicConfig.values())
                  : stores.stream().map(PetclinicConfig::of).toList(),
              where,
              seed != null ? seed : new java.util.Random().nextLong());
      BenchDirectory.prepare(where, true);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    } catch (IOException e) {
      throw new CommandFailedException("cannot prepare the petclinic directory: " + e, e);
    }
    PetclinicBench.Report report;
    try {
      report = bench.run(notices(spec.commandLine().getErr()));
    } catch (IOException e) {
      throw new CommandFailedException("petclinic bench failed: " + e, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? report.json() : report.table());
    out.flush();
    writeHtml(report.runFigures());
    return 0;
  }

  /**
   * The run the options ask for; the defaults that depend on the workload (stores, durability,
   * seconds) are settled here, and the record checks the combination.
   *
   * @throws IllegalArgumentException naming the rule the options break
   */
  private BenchConfig config() {
    if (directory == null && (fresh || durability != null)) {
      throw new IllegalArgumentException("--fresh and --durability need --dir");
    }
    if (budgetFraction != null
        || seed != null
        || keys != null
        || writeBeforeKill != null
        || rounds != null) {
      throw new IllegalArgumentException(
          "--budget-fraction, --keys, --seed, --write-before-kill and --rounds apply to --workload"
              + " cache");
    }
    if (!commits && !latencyDuringCheckpoint && seconds != null) {
      throw new IllegalArgumentException(
          "--seconds applies to --commits and --latency-during-checkpoint");
    }
    if (!latencyDuringCheckpoint && rate != null) {
      throw new IllegalArgumentException("--rate applies to --latency-during-checkpoint");
    }
    if (rate == null && pace != null) {
      throw new IllegalArgumentException("--pace applies to --rate");
    }
    Pacing pacing = Pacing.PARK;
    if (pace != null) {
      pacing =
          switch (pace) {
            case "park" -> Pacing.PARK;
            case "spin" -> Pacing.SPIN;
            default ->
                throw new IllegalArgumentException("--pace must be park or spin: --pace " + pace);
          };
    }
    if (!latencyDuringCheckpoint && checkpointEvery != null) {
      throw new IllegalArgumentException(
          "--checkpoint-every applies to --latency-during-checkpoint");
    }
    if (!commits && count != null) {
      throw new IllegalArgumentException("--count applies to --commits");
    }
    if (seconds != null && count != null) {
      throw new IllegalArgumentException("give --seconds or --count, not both");
    }
    if (!recovery && logGib != null) {
      throw new IllegalArgumentException("--log-gb applies to --recovery");
    }
    boolean onePile = commits || recovery || latencyDuringCheckpoint;
    List<StoreKind> chosen =
        stores != null
            ? stores.stream().map(StoreKind::of).toList()
            : onePile ? List.of(StoreKind.PILE) : List.of(StoreKind.PILE, StoreKind.MAP);
    Durability level =
        durability != null
            ? durability
            : commits ? Durability.SYNC : recovery ? Durability.PERIODIC : Durability.NONE;
    CommitPlan plan = null;
    if (commits) {
      plan =
          count != null
              ? CommitPlan.forCount(count)
              : CommitPlan.forSeconds(seconds == null ? DEFAULT_COMMIT_SECONDS : seconds);
    }
    BenchValueKind valueKind = kind;
    int valueSize = size;
    if (recovery) {
      // a large value grows the log fastest: the fill takes seconds, not minutes
      valueKind = given("--kind") ? kind : BenchValueKind.BYTES;
      valueSize = given("--size") ? size : RECOVERY_VALUE_BYTES;
    }
    if (!valueKind.sized() && given("--size")) {
      throw new IllegalArgumentException(
          "--size does not apply to --kind " + valueKind.label() + ": its size is its encoding's");
    }
    return new BenchConfig(
        n,
        threads,
        valueKind,
        valueSize,
        chosen,
        getOrder,
        churn,
        directory,
        level,
        reopen,
        dropCaches,
        plan,
        recovery ? RecoveryPlan.ofGibibytes(logGib == null ? DEFAULT_LOG_GIB : logGib) : null,
        latencyDuringCheckpoint
            ? Duration.ofSeconds(seconds == null ? DEFAULT_LATENCY_SECONDS : seconds)
            : null,
        logFileMib == null ? 0 : (long) logFileMib << 20,
        hugePages != null && hugePages,
        warmup,
        rate == null ? 0 : rate,
        checkpointEvery == null ? 0 : checkpointEvery,
        pacing);
  }

  /** The values --recovery puts unless told otherwise: 4 KiB, a page, of log each. */
  private static final int RECOVERY_VALUE_BYTES = 4096;

  /** Whether the user gave {@code option}, rather than its default applying. */
  private boolean given(String option) {
    return spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  /**
   * Refuses a run whose payload alone exceeds the machine's memory: the pile has no budget by
   * default, and would otherwise grow until the OS kills the process, or swaps the machine.
   */
  private void requireMemoryFor(BenchConfig config) {
    long payloadBytes = (long) config.n() * config.payloadBytesPerValue();
    long machineBytes =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    if (payloadBytes > machineBytes) {
      throw new ParameterException(
          spec.commandLine(),
          String.format(
              Locale.ROOT,
              "n x size must fit in this machine's memory: n=%d size=%d needs %,d MiB, memory is"
                  + " %,d MiB",
              config.n(),
              config.valueSize(),
              payloadBytes >> 20,
              machineBytes >> 20));
    }
  }

  private boolean showProgress() {
    if (progress != null) {
      return progress;
    }
    String ci = System.getenv("CI");
    boolean underCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    return !json && !underCi && stderrIsTerminal();
  }

  /**
   * Java cannot ask whether stderr is a terminal, so ./cairn tells it ({@code [ -t 2 ]}) through
   * the property {@code cairn.stderr.terminal}. Without it, the best guess is whether the JVM has
   * an interactive console at all.
   */
  // SystemConsoleNull: System.console() is still documented to return null where there is no
  // console; the null check stays, and isTerminal() answers the question
  @SuppressWarnings("SystemConsoleNull")
  private static boolean stderrIsTerminal() {
    String told = System.getProperty("cairn.stderr.terminal");
    if (told != null) {
      return Boolean.parseBoolean(told);
    }
    var console = System.console();
    return console != null && console.isTerminal();
  }
}
