package dev.cairn.bench.harness;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileFullException;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * {@code --latency-during-checkpoint}: what checkpoints do to the writers' latency. T threads put
 * values as fast as they can for {@code --seconds}, each put timed, in two phases, each into a
 * fresh persistent pile with the run's durability and otherwise default options:
 *
 * <ol>
 *   <li><b>warm-up</b>, in {@code DIR/pile/warmup}, deleted after each round, not measured: rounds
 *       of puts with the checkpoint loop (two seconds each, no longer than a phase), the first with
 *       checkpoints back to back even with {@code --checkpoint-every}, the others paced as the
 *       measured phase will be, until {@link JitClock#QUIET_ROUNDS} rounds in a row pass in which
 *       the JIT compiled for less than {@link JitClock#QUIET_MILLIS}, or the warm-up has run {@link
 *       #WARM_UP_LIMIT} (and at most {@link #WARM_UP_PHASES} phases' length). Why: with one
 *       checkpoint a second, {@code perf sched timehist} caught C1 and C2 compiling the
 *       checkpoint's code in the measured phase, a put waiting 4-6.5 ms for a core behind them, and
 *       a fixed three seconds of warm-up still left about ten compiles a second in it ({@code
 *       -XX:+PrintCompilation}): code that runs once a second crosses the JIT's thresholds late.
 *       The run reports how long it warmed up ({@code warmupSecs}) and how long the JIT compiled in
 *       each measured phase ({@code jitMs}, {@code baselineJitMs});
 *   <li><b>baseline</b>, in {@code DIR/pile/baseline}: the puts alone. The pile's own background
 *       checkpoints still run when its log fills (durability periodic or sync), as in any use; with
 *       durability none there are none;
 *   <li><b>checkpointing</b>, in {@code DIR/pile/checkpointing}: the same puts while one more
 *       thread calls {@code pile.checkpoint()} in a loop, so that a checkpoint is always under way:
 *       the worst case of the background checkpointer. With {@code --checkpoint-every MS} the loop
 *       starts one every MS milliseconds instead, as a pile's own checkpoints come, and the puts
 *       whose time overlapped one ({@code putsDuringCheckpoint}) get percentiles of their own
 *       ({@code putDuringCheckpointP999Us} and so on).
 * </ol>
 *
 * <p>Each measured phase first runs {@link #SETTLE} (or its own length, if shorter) on its pile and
 * threads without recording anything: put latencies, checkpoint figures, GC pauses, steal and the
 * sleeper all count from then on.
 *
 * <p>Implementation notes
 *
 * <p><b>What is timed.</b> Each put from the call to its return, recorded in nanoseconds in its
 * thread's own {@link Histogram} (nothing shared to contend on), the histograms added after the
 * phase. The rate is all puts over the time from the threads' common release to the last one's
 * finish. Values come from the run's {@link ValueSource} (default: 32-character strings); the
 * pointers are dropped, as in {@link CommitBench}.
 *
 * <p><b>Paced ({@code --rate R}).</b> Each thread then puts at R/T a second: put k of a thread is
 * due at the phase's start plus k intervals, the thread waits until then if it is early (parks, or
 * with {@code --pace spin} busy-waits: see {@link Pacing}), and the put's latency runs from when it
 * was due, not from when it began. A stall therefore counts against every put queued behind it (no
 * coordinated omission, so no correction is reported), and so does the load generator's own
 * lateness: a park overshooting by tens of microseconds, or a thread the scheduler runs late, is
 * charged to the pile. That is conservative, and it is the latency a caller issuing puts at that
 * rate would see. Paced runs also time each put from its call alone ({@code
 * putCallDuringCheckpointP999Us}, {@code baselineCallP999Us} and so on), to tell what the pile took
 * from what the wait to begin added. Below the machine's rate, the log's flusher and the
 * checkpointer can find a core, which a saturating loop on two cores never leaves them
 * (docs/BENCHMARKS.md has what that does and does not change).
 *
 * <p><b>Coordinated omission.</b> Unpaced, each thread puts in a closed loop: while a put is
 * stalled (say behind a checkpoint that holds every stripe lock), the puts that would have been
 * made meanwhile are never made, so the stall counts once among millions of fast puts and the plain
 * percentiles hide it; the rate shows it instead. The {@code ...Corrected} percentiles add those
 * missing samples back (HdrHistogram's {@code copyCorrectedForCoordinatedOmission}), taking as the
 * intended interval between one thread's puts the baseline's mean: they are the latencies a writer
 * issuing puts at the baseline's rate would see.
 *
 * <p><b>What else stops a put.</b> Each phase also reports how late a thread that only sleeps woke
 * ({@code hiccupP99Us} and so on, {@link HiccupMeter}), its GC pauses ({@code gcPauses}, {@code
 * gcMaxPauseMs}) and, on Linux, the share of CPU time the hypervisor took ({@code stealPct}, {@link
 * CpuSteal}), each with a {@code baseline...} twin: a stall of the JVM, the OS or the VM stops
 * every thread, and the puts' tail shows it whatever the pile does. The sleeper is one more thread
 * on the machine's cores, waking a thousand times a second.
 *
 * <p><b>Bounded memory.</b> Puts that run for a minute would fill the machine, so each pile gets a
 * budget of a quarter of the physical memory; a put refused for it ends that thread's phase early,
 * and the run says so.
 *
 * <p><b>On two cores</b>, T put threads, the checkpoint loop and the log's flusher share two CPUs:
 * a put can wait for the scheduler for milliseconds, which the tail percentiles include. That is
 * the latency a caller on such a machine would see, not the pile's alone.
 */
final class CheckpointLatencyBench {
  /** Longer puts are recorded as this: a put stalled a minute has failed anyway. */
  private static final long MAX_RECORDED_NANOS = TimeUnit.MINUTES.toNanos(1);

  private static final int MEMORY_SHARE_DIVISOR = 4;

  /** One round of the warm-up (no longer than a phase). */
  private static final Duration WARM_UP_ROUND = Duration.ofSeconds(2);

  /** The longest the warm-up runs (and no longer than {@link #WARM_UP_PHASES} phases). */
  static final Duration WARM_UP_LIMIT = Duration.ofSeconds(30);

  /** The longest the warm-up runs, in phases' lengths: a one-second test run stops at six. */
  static final int WARM_UP_PHASES = 6;

  private static final String WARM_UP_PHASE = "warmup";

  /**
   * How long each measured phase runs, on its pile and threads, before it records anything: each
   * phase has a new pile and new threads, whose first calls met thread-local lookups the compiled
   * put path had never missed, and C2 spent 0.5-0.7 s recompiling it within the measured seconds
   * (JFR), while puts waited for a core.
   */
  private static final Duration SETTLE = Duration.ofSeconds(2);

  private final BenchConfig config;
  private final Consumer<String> notices;
  private final ValueSource values;

  /**
   * One phase's outcome.
   *
   * @param latencies every put's latency, all threads together
   * @param puts puts made, all threads together
   * @param elapsedNanos from the common release to the last thread's finish
   * @param checkpoints checkpoints the loop completed (0 without it)
   * @param checkpointNanos their total time
   * @param checkpointMaxNanos the longest of them
   * @param budgetReached whether a put was refused for the memory budget
   * @param gcPauses the GC pauses between the common release and the last thread's finish
   * @param stealPercent the share of CPU time the hypervisor took meanwhile (NaN: unknown)
   * @param hiccups how late a sleeping thread woke meanwhile, nanoseconds ({@link HiccupMeter})
   * @param duringCheckpoint the latencies of the puts that overlapped a checkpoint of the loop
   * @param jitMillis how long the JIT compiled meanwhile, all compiler threads (NaN: unknown)
   * @param calls every put's time from its call to its return (paced: without the wait to begin)
   * @param callsDuringCheckpoint those of the puts whose call overlapped a checkpoint
   */
  private record Phase(
      Histogram latencies,
      long puts,
      long elapsedNanos,
      long checkpoints,
      long checkpointNanos,
      long checkpointMaxNanos,
      boolean budgetReached,
      GcPauses gcPauses,
      double stealPercent,
      Histogram hiccups,
      Histogram duringCheckpoint,
      double jitMillis,
      Histogram calls,
      Histogram callsDuringCheckpoint) {}

  /**
   * When the loop's checkpoints ran, for the put threads to tell whether a put overlapped one: it
   * did if one is running when it returns, or one ended after the put was due. {@code lastEndNanos}
   * is written before {@code running} is cleared, and read after it, so a put that sees the flag
   * down sees the end of the checkpoint that raised it.
   *
   * <p>Branch-free on purpose: the put loop is compiled while no checkpoint runs (the baseline),
   * and a branch it had never taken there became an uncommon trap that deoptimized the loop, and
   * the pile's put path inlined in it, at the first checkpoint of the measured phase (JFR: C2
   * recompiling them for 120 ms while puts waited for a core).
   */
  static final class CheckpointWindows {
    volatile int running; // 1 while a checkpoint of the loop runs
    volatile long lastEndNanos = System.nanoTime(); // before any put is due

    /** 1 if a put due at {@code dueNanos} and returning now overlapped a checkpoint, else 0. */
    int overlapIndex(long dueNanos) {
      int endedSinceDue = (int) ((lastEndNanos - dueNanos) >>> 63) ^ 1;
      return running | endedSinceDue;
    }
  }

  CheckpointLatencyBench(BenchConfig config, Consumer<String> notices) {
    if (config.latencyDuringCheckpoint() == null) {
      throw new IllegalArgumentException("not a --latency-during-checkpoint run");
    }
    this.config = config;
    this.notices = notices;
    this.values = new ValueSource(config.valueKind(), config.valueSize(), BenchRunner.SEED);
  }

  /**
   * @throws StoreFailedException if a put or checkpoint failed, or the files could not be written
   */
  BenchReport run() throws InterruptedException {
    Path root = config.storeDirectory(StoreKind.PILE);
    Path warmUp = root.resolve("warmup");
    Duration duration = config.latencyDuringCheckpoint();
    Phase baseline;
    Phase checkpointing;
    double warmUpSeconds;
    try (GcPauseMonitor gc = new GcPauseMonitor()) {
      warmUpSeconds = warmUp(warmUp, duration, gc);
      baseline = measure(root.resolve("baseline"), "baseline", false, duration, gc);
      checkpointing = measure(root.resolve("checkpointing"), "checkpointing", true, duration, gc);
    }

    StoreResult result =
        new StoreResult(StoreKind.PILE)
            .put(Metric.PUTS_PER_SEC, checkpointing.puts() * 1e9 / checkpointing.elapsedNanos())
            .put(Metric.PUT_P50_US, percentileMicros(checkpointing, 50))
            .put(Metric.PUT_P99_US, percentileMicros(checkpointing, 99))
            .put(Metric.PUT_P999_US, percentileMicros(checkpointing, 99.9))
            .put(Metric.PUT_MAX_US, checkpointing.latencies().getMaxValue() / 1e3)
            .put(Metric.CHECKPOINTS, (double) checkpointing.checkpoints())
            .put(
                Metric.PUTS_DURING_CHECKPOINT,
                (double) checkpointing.duringCheckpoint().getTotalCount())
            .put(Metric.BASELINE_PUTS_PER_SEC, baseline.puts() * 1e9 / baseline.elapsedNanos())
            .put(Metric.BASELINE_P50_US, percentileMicros(baseline, 50))
            .put(Metric.BASELINE_P99_US, percentileMicros(baseline, 99))
            .put(Metric.BASELINE_P999_US, percentileMicros(baseline, 99.9))
            .put(Metric.BASELINE_MAX_US, baseline.latencies().getMaxValue() / 1e3)
            .put(Metric.BASELINE_CALL_P999_US, baseline.calls().getValueAtPercentile(99.9) / 1e3)
            .put(Metric.BASELINE_CALL_MAX_US, baseline.calls().getMaxValue() / 1e3)
            .put(Metric.GC_PAUSES, (double) checkpointing.gcPauses().count())
            .put(Metric.GC_MAX_PAUSE_MS, checkpointing.gcPauses().maxMillis())
            .put(Metric.STEAL_PCT, checkpointing.stealPercent())
            .put(Metric.BASELINE_GC_PAUSES, (double) baseline.gcPauses().count())
            .put(Metric.BASELINE_GC_MAX_PAUSE_MS, baseline.gcPauses().maxMillis())
            .put(Metric.BASELINE_STEAL_PCT, baseline.stealPercent())
            .put(Metric.HICCUP_P99_US, checkpointing.hiccups().getValueAtPercentile(99) / 1e3)
            .put(Metric.HICCUP_P999_US, checkpointing.hiccups().getValueAtPercentile(99.9) / 1e3)
            .put(Metric.HICCUP_MAX_US, checkpointing.hiccups().getMaxValue() / 1e3)
            .put(Metric.BASELINE_HICCUP_P99_US, baseline.hiccups().getValueAtPercentile(99) / 1e3)
            .put(
                Metric.BASELINE_HICCUP_P999_US, baseline.hiccups().getValueAtPercentile(99.9) / 1e3)
            .put(Metric.BASELINE_HICCUP_MAX_US, baseline.hiccups().getMaxValue() / 1e3)
            .put(Metric.JIT_MS, checkpointing.jitMillis())
            .put(Metric.BASELINE_JIT_MS, baseline.jitMillis())
            .put(Metric.WARMUP_SECS, warmUpSeconds);
    if (config.putRate() > 0) { // paced: latencies already run from when each put was due
      addCheckpointFigures(result, checkpointing);
      return new BenchReport(config, List.of(result), new MachineFigures());
    }
    // one thread's mean time between puts in the baseline: the pace a stalled writer falls behind
    long intervalNanos =
        Math.max(
            1, Math.round((double) baseline.elapsedNanos() * config.threads() / baseline.puts()));
    Histogram correctedCheckpointing =
        checkpointing.latencies().copyCorrectedForCoordinatedOmission(intervalNanos);
    Histogram correctedBaseline =
        baseline.latencies().copyCorrectedForCoordinatedOmission(intervalNanos);
    result
        .put(Metric.PUT_P99_CORRECTED_US, correctedCheckpointing.getValueAtPercentile(99) / 1e3)
        .put(Metric.PUT_P999_CORRECTED_US, correctedCheckpointing.getValueAtPercentile(99.9) / 1e3)
        .put(Metric.BASELINE_P99_CORRECTED_US, correctedBaseline.getValueAtPercentile(99) / 1e3)
        .put(Metric.BASELINE_P999_CORRECTED_US, correctedBaseline.getValueAtPercentile(99.9) / 1e3);
    addCheckpointFigures(result, checkpointing);
    return new BenchReport(config, List.of(result), new MachineFigures());
  }

  private static void addCheckpointFigures(StoreResult result, Phase checkpointing) {
    if (checkpointing.checkpoints() > 0) {
      result
          .put(
              Metric.CHECKPOINT_MEAN_MS,
              checkpointing.checkpointNanos() / 1e6 / checkpointing.checkpoints())
          .put(Metric.CHECKPOINT_MAX_MS, checkpointing.checkpointMaxNanos() / 1e6);
    }
    addTail(
        result,
        checkpointing.duringCheckpoint(),
        Metric.PUT_DURING_CHECKPOINT_P99_US,
        Metric.PUT_DURING_CHECKPOINT_P999_US,
        Metric.PUT_DURING_CHECKPOINT_MAX_US);
    addTail(
        result,
        checkpointing.callsDuringCheckpoint(),
        Metric.PUT_CALL_DURING_CHECKPOINT_P99_US,
        Metric.PUT_CALL_DURING_CHECKPOINT_P999_US,
        Metric.PUT_CALL_DURING_CHECKPOINT_MAX_US);
  }

  /** p99, p99.9 and max of {@code latencies} in microseconds, if it holds any. */
  private static void addTail(
      StoreResult result, Histogram latencies, Metric p99, Metric p999, Metric max) {
    if (latencies.getTotalCount() > 0) {
      result
          .put(p99, latencies.getValueAtPercentile(99) / 1e3)
          .put(p999, latencies.getValueAtPercentile(99.9) / 1e3)
          .put(max, latencies.getMaxValue() / 1e3);
    }
  }

  private static double percentileMicros(Phase phase, double percentile) {
    return phase.latencies().getValueAtPercentile(percentile) / 1e3;
  }

  /**
   * Runs warm-up rounds until the JIT is quiet or the time is up (see the class comment); returns
   * the seconds it took.
   */
  private double warmUp(Path directory, Duration phase, GcPauseMonitor gc)
      throws InterruptedException {
    // no longer than the phases: a one-second test run need not warm up for thirty
    Duration round = phase.compareTo(WARM_UP_ROUND) < 0 ? phase : WARM_UP_ROUND;
    Duration limit =
        phase.multipliedBy(WARM_UP_PHASES).compareTo(WARM_UP_LIMIT) < 0
            ? phase.multipliedBy(WARM_UP_PHASES)
            : WARM_UP_LIMIT;
    long start = System.nanoTime();
    long paced = TimeUnit.MILLISECONDS.toNanos(config.checkpointEveryMillis());
    JitClock.Settling settling = new JitClock.Settling();
    boolean quiet = false;
    for (int rounds = 0; !quiet && System.nanoTime() - start < limit.toNanos(); rounds++) {
      // back to back first: the checkpoint's code gets hot soonest
      Phase warm = measure(directory, WARM_UP_PHASE, true, rounds == 0 ? 0 : paced, round, gc);
      try {
        BenchDirectory.deleteTree(directory);
      } catch (IOException e) {
        throw new StoreFailedException(
            "cannot delete the warm-up pile in " + directory + ": " + e, e);
      }
      quiet = settling.settledAfter(warm.jitMillis());
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private Phase measure(
      Path directory, String phase, boolean checkpointing, Duration duration, GcPauseMonitor gc)
      throws InterruptedException {
    return measure(
        directory,
        phase,
        checkpointing,
        TimeUnit.MILLISECONDS.toNanos(config.checkpointEveryMillis()),
        duration,
        gc);
  }

  private Phase measure(
      Path directory,
      String phase,
      boolean checkpointing,
      long checkpointEveryNanos,
      Duration duration,
      GcPauseMonitor gc)
      throws InterruptedException {
    long budgetBytes = memoryBudgetBytes();
    PileOptions options =
        config
            .tune(PileOptions.builder())
            .durability(config.durability())
            .codecs(config.valueKind().codecs())
            .maxMemoryBytes(budgetBytes)
            .build();
    Phase outcome;
    try (Pile pile = Pile.open(directory, options)) {
      outcome = run(pile, phase, checkpointing, checkpointEveryNanos, duration, gc);
    } catch (IOException e) {
      throw new StoreFailedException(
          "the pile in " + directory + " could not write its files: " + e.getMessage(), e);
    }
    if (outcome.budgetReached()) {
      notices.accept(
          String.format(
              Locale.ROOT,
              "%s: the pile reached its budget of %,d MiB (a quarter of the machine's memory)"
                  + " after %,d puts, and the phase ended early",
              phase,
              budgetBytes >> 20,
              outcome.puts()));
    }
    return outcome;
  }

  private Phase run(
      Pile pile,
      String phase,
      boolean checkpointing,
      long checkpointEveryNanos,
      Duration duration,
      GcPauseMonitor gc)
      throws InterruptedException {
    int threads = config.threads();
    boolean warmingUp = phase.equals(WARM_UP_PHASE);
    CountDownLatch ready = new CountDownLatch(threads + (checkpointing ? 1 : 0));
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean putsDone = new AtomicBoolean();
    AtomicBoolean failed = new AtomicBoolean();
    AtomicBoolean budgetReached = new AtomicBoolean();
    Histogram[] latencies = new Histogram[threads]; // the puts that overlapped no checkpoint
    Histogram[] duringCheckpoint = new Histogram[threads];
    Histogram[] calls = new Histogram[threads]; // call to return, overlapping no checkpoint
    Histogram[] callsDuringCheckpoint = new Histogram[threads];
    CheckpointWindows windows = new CheckpointWindows();
    long[] puts = new long[threads];
    long[] finishNanos = new long[threads];
    Throwable[] failures = new Throwable[threads + 1];
    long[] deadline = new long[1];
    long[] recordFrom = new long[1];
    // the checkpoint loop's figures: count, total nanos, longest nanos
    long[] checkpoints = new long[3];
    Thread[] workers = new Thread[threads];
    long[] startNanos = new long[1];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      latencies[t] = new Histogram(MAX_RECORDED_NANOS, 3);
      duringCheckpoint[t] = new Histogram(MAX_RECORDED_NANOS, 3);
      calls[t] = new Histogram(MAX_RECORDED_NANOS, 3);
      callsDuringCheckpoint[t] = new Histogram(MAX_RECORDED_NANOS, 3);
      workers[t] =
          Thread.ofPlatform()
              .name("bench-" + phase + "-put-" + t)
              .unstarted(
                  () -> {
                    ready.countDown();
                    try {
                      start.await();
                      Histogram discarded = new Histogram(MAX_RECORDED_NANOS, 3);
                      puts[thread] =
                          putLoop(
                              pile,
                              thread,
                              startNanos[0],
                              recordFrom[0],
                              deadline[0],
                              new Histogram[] {
                                latencies[thread], duringCheckpoint[thread], discarded, discarded
                              },
                              new Histogram[] {
                                calls[thread], callsDuringCheckpoint[thread], discarded, discarded
                              },
                              windows,
                              failed,
                              budgetReached);
                    } catch (Throwable e) {
                      failures[thread] = e;
                      failed.set(true);
                    }
                    finishNanos[thread] = System.nanoTime();
                  });
      workers[t].start();
    }
    Thread checkpointer = null;
    if (checkpointing) {
      checkpointer =
          Thread.ofPlatform()
              .name("bench-checkpoint-loop")
              .start(
                  () -> {
                    ready.countDown();
                    try {
                      start.await();
                      checkpointLoop(
                          pile,
                          putsDone,
                          failed,
                          checkpoints,
                          recordFrom[0],
                          windows,
                          checkpointEveryNanos);
                    } catch (Throwable e) {
                      failures[threads] = e;
                      failed.set(true);
                    }
                  });
    }
    ready.await();
    startNanos[0] = System.nanoTime();
    // settling no longer than the phase: a one-second test run need not wait two
    long settleNanos = warmingUp ? 0 : Math.min(SETTLE.toNanos(), duration.toNanos());
    recordFrom[0] = startNanos[0] + settleNanos;
    deadline[0] = recordFrom[0] + duration.toNanos(); // all three published by start's countDown
    start.countDown();
    for (long now = System.nanoTime(); now - recordFrom[0] < 0; now = System.nanoTime()) {
      LockSupport.parkNanos(recordFrom[0] - now);
    }
    GcPauseMonitor.Window gcWindow = gc.begin();
    double jitBefore = JitClock.millis();
    CpuSteal.Reading stealBefore = CpuSteal.read();
    HiccupMeter hiccupMeter = HiccupMeter.start();
    for (Thread worker : workers) {
      worker.join();
    }
    Histogram hiccups = hiccupMeter.stop();
    double jitDuring = JitClock.millis() - jitBefore;
    double stealPercent = CpuSteal.percentSince(stealBefore);
    putsDone.set(true);
    GcPauses gcPauses = gc.end(gcWindow); // reads the counters first, then waits for the longest

    if (checkpointer != null) {
      checkpointer.join();
    }
    for (Throwable failure : failures) {
      if (failure != null) {
        throw new StoreFailedException(
            "pile failed during the " + phase + " phase: " + failure, failure);
      }
    }

    Histogram all = new Histogram(MAX_RECORDED_NANOS, 3);
    Histogram allDuringCheckpoint = new Histogram(MAX_RECORDED_NANOS, 3);
    Histogram allCalls = new Histogram(MAX_RECORDED_NANOS, 3);
    Histogram allCallsDuringCheckpoint = new Histogram(MAX_RECORDED_NANOS, 3);
    long total = 0;
    long lastFinish = recordFrom[0];
    for (int t = 0; t < threads; t++) {
      all.add(latencies[t]); // the puts that overlapped no checkpoint
      all.add(duringCheckpoint[t]);
      allDuringCheckpoint.add(duringCheckpoint[t]);
      allCalls.add(calls[t]);
      allCalls.add(callsDuringCheckpoint[t]);
      allCallsDuringCheckpoint.add(callsDuringCheckpoint[t]);
      total += puts[t];
      lastFinish = Math.max(lastFinish, finishNanos[t]);
    }
    return new Phase(
        all,
        total,
        Math.max(1, lastFinish - recordFrom[0]),
        checkpoints[0],
        checkpoints[1],
        checkpoints[2],
        budgetReached.get(),
        gcPauses,
        stealPercent,
        hiccups,
        allDuringCheckpoint,
        jitDuring,
        allCalls,
        allCallsDuringCheckpoint);
  }

  /**
   * One thread's puts until {@code deadlineNanos}, another thread's failure, or the memory budget,
   * as fast as it can or, paced, each at its due time from {@code startNanos}. Each latency from
   * {@code recordFromNanos} on goes to {@code byOverlap[1]} if the put overlapped a checkpoint of
   * the loop, else to {@code byOverlap[0]}; earlier ones to {@code byOverlap[2]} or {@code [3]},
   * discarded (an index, not a branch: see {@link CheckpointWindows}). The same goes for {@code
   * callsByOverlap}, with each put timed from its call instead of from when it was due, and its
   * overlap judged over that time. Returns how many it made from {@code recordFromNanos} on.
   */
  private long putLoop(
      Pile pile,
      int thread,
      long startNanos,
      long recordFromNanos,
      long deadlineNanos,
      Histogram[] byOverlap,
      Histogram[] callsByOverlap,
      CheckpointWindows windows,
      AtomicBoolean failed,
      AtomicBoolean budgetReached) {
    int threads = config.threads();
    double intervalNanos = config.putRate() == 0 ? 0 : 1e9 * threads / config.putRate();
    boolean spin = config.pacing() == Pacing.SPIN;
    long sequence = 0;
    long recorded = 0;
    while (!failed.get()) {
      // interleave the threads over the pool, so that they put different values
      Object value = values.value((int) (sequence * threads + thread));
      long begin = System.nanoTime();
      if (intervalNanos > 0) {
        long due = startNanos + (long) (sequence * intervalNanos);
        while (begin < due) {
          if (spin) {
            Thread.onSpinWait();
          } else {
            LockSupport.parkNanos(due - begin);
          }
          begin = System.nanoTime();
        }
        begin = due; // timed from when it was due: lateness counts, whoever caused it
        if (due >= deadlineNanos) {
          break;
        }
      }
      long called = intervalNanos > 0 ? System.nanoTime() : begin;
      try {
        pile.put(value);
      } catch (PileFullException full) {
        budgetReached.set(true);
        break;
      }
      long end = System.nanoTime();
      long latency = Math.min(end - begin, MAX_RECORDED_NANOS);
      int settling = (int) ((begin - recordFromNanos) >>> 63); // begin: when it was due
      byOverlap[windows.overlapIndex(begin) | settling << 1].recordValue(latency);
      callsByOverlap[windows.overlapIndex(called) | settling << 1].recordValue(
          Math.min(end - called, MAX_RECORDED_NANOS));
      recorded += 1 - settling;
      sequence++;
      if (end >= deadlineNanos) {
        break;
      }
    }
    return recorded;
  }

  /**
   * Checkpoints until the puts are done, back to back, or one starting every {@code everyNanos} (0:
   * back to back); {@code figures} gets count, total and longest nanos of those that ended from
   * {@code recordFromNanos} on, {@code windows} when each ran.
   */
  private static void checkpointLoop(
      Pile pile,
      AtomicBoolean putsDone,
      AtomicBoolean failed,
      long[] figures,
      long recordFromNanos,
      CheckpointWindows windows,
      long everyNanos) {
    long next = System.nanoTime();
    while (!putsDone.get() && !failed.get()) {
      if (everyNanos > 0) {
        for (long now = System.nanoTime();
            now - next < 0 && !putsDone.get();
            now = System.nanoTime()) {
          LockSupport.parkNanos(Math.min(next - now, 10_000_000L)); // wakes for the end too
        }
        if (putsDone.get()) {
          return;
        }
      }
      long begin = System.nanoTime();
      windows.running = 1;
      try {
        pile.checkpoint();
      } finally {
        windows.lastEndNanos = System.nanoTime();
        windows.running = 0;
      }
      long nanos = windows.lastEndNanos - begin;
      // every checkpoint the recorded puts overlapped counts, one begun while the phase settled
      // too: a first checkpoint of a new pile at full speed can outlast a one-second phase, which
      // then reported no checkpoint at all beside puts that all overlapped one
      if (windows.lastEndNanos - recordFromNanos >= 0) {
        figures[0]++;
        figures[1] += nanos;
        figures[2] = Math.max(figures[2], nanos);
      }
      next = begin + everyNanos;
    }
  }

  /** A quarter of the machine's memory: room for the map-free pile, and for everyone else. */
  private static long memoryBudgetBytes() {
    long machineBytes =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return Math.max(PileOptions.DEFAULT_SEGMENT_BYTES, machineBytes / MEMORY_SHARE_DIVISOR);
  }
}
