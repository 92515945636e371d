package dev.cairn.bench.harness;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileDirectory;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * {@code --recovery}: how fast a pile recovers from a crash with a full log. A child JVM ({@link
 * RecoveryFiller}) creates a pile in {@code DIR/pile} with durability periodic and a log large
 * enough that no checkpoint starts before the target ({@link RecoveryPlan}), puts values until the
 * log since the last checkpoint holds about the target, and reports; this JVM kills it with SIGKILL
 * and then, in order:
 *
 * <ol>
 *   <li>drops the page cache if allowed ({@link PageCache}) and not declined, so that recovery
 *       reads the log from the disk, and reads the first log file with {@code dd} for the disk's
 *       sequential rate ({@code ddReadMBps}), then drops the cache again;
 *   <li>{@code readOnlyReplaySecs}: a read-only inspection of the directory ({@link
 *       PileDirectory#inspect}), which reads and replays the log into memory and writes nothing; it
 *       also counts the bytes and records replayed exactly ({@code recoveryLogBytes}, {@code
 *       recoveryLogRecords}). Then the cache is dropped again;
 *   <li>{@code recoveryOpenSecs}: {@code Pile.open}, from the call to its return: the replay, then
 *       the checkpoint that makes the recovered state durable; and {@code replayMBps}, the log's
 *       bytes over that time. Then one value is read back (one of the last puts) and checked, and
 *       the pile must hold every put the filler made.
 * </ol>
 *
 * <p>Why the inspection first, although it replays too: it is the only way through the public API
 * to learn the exact log size (the filler can only estimate it), and with the cache dropped after
 * it the open that follows reads as cold as without it. Where the cache cannot be dropped, the log
 * the filler just wrote is cached anyway, and both figures are warm ({@code coldCache} false).
 */
final class RecoveryBench {
  /** Preallocating a large log and filling it: minutes for tens of GiB, on a slow disk. */
  private static final Duration FILL_TIMEOUT = Duration.ofMinutes(30);

  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

  private final BenchConfig config;
  private final Consumer<String> notices;

  RecoveryBench(BenchConfig config, Consumer<String> notices) {
    if (config.recovery() == null) {
      throw new IllegalArgumentException("not a --recovery run");
    }
    this.config = config;
    this.notices = notices;
  }

  /**
   * @throws StoreFailedException if the filler failed, or the crashed pile did not recover every
   *     put it acknowledged
   */
  BenchReport run() throws InterruptedException {
    RecoveryPlan plan = config.recovery();
    Path directory = config.storeDirectory(StoreKind.PILE);
    ValueSource values = new ValueSource(config.valueKind(), config.valueSize(), BenchRunner.SEED);
    MachineFigures machine = new MachineFigures();
    StoreResult result = new StoreResult(StoreKind.PILE);

    RecoveryFiller.Filled filled = fillAndKill(directory, plan);
    try {
      boolean cold = config.dropCaches() && PageCache.drop();
      machine.coldCache(cold);
      if (!cold && config.dropCaches()) {
        notices.accept(
            "the page cache could not be dropped (that needs root): recovery reads"
                + " the log from memory, and dd is skipped");
      }
      Optional<Path> firstLogFile =
          PileDirectory.files(directory).stream()
              .filter(file -> file.kind() == PileDirectory.PileFile.Kind.LOG)
              .map(PileDirectory.PileFile::path)
              .findFirst();
      if (cold && firstLogFile.isPresent()) {
        OptionalDouble dd = DiskReadProbe.readMBps(firstLogFile.get());
        dd.ifPresentOrElse(
            machine::ddReadMBps, () -> notices.accept("dd did not run: no disk read rate"));
        PageCache.drop(); // dd left that file in the cache
      }

      long inspectStart = System.nanoTime();
      PileDirectory.Inspection crashed = PileDirectory.inspect(directory);
      double readOnlySeconds = (System.nanoTime() - inspectStart) / 1e9;
      long logBytes = crashed.logBytesSinceCheckpoint();
      if (crashed.lastCloseClean() || logBytes == 0) {
        throw new StoreFailedException(
            "the pile in "
                + directory
                + " left no log to recover (clean close: "
                + crashed.lastCloseClean()
                + ", log bytes: "
                + logBytes
                + "): a checkpoint ran"
                + " before the kill");
      }
      if (cold) {
        PageCache.drop(); // the inspection read the log
      }

      byte[] buffer = values.newBuffer();
      long openStart = System.nanoTime();
      try (Pile pile = Pile.open(directory, plan.pileOptions(config.valueKind()))) {
        double openSeconds = (System.nanoTime() - openStart) / 1e9;
        checkRecovered(pile, filled, values, buffer);
        result
            .put(Metric.RECOVERY_LOG_BYTES, (double) logBytes)
            .put(Metric.RECOVERY_LOG_RECORDS, (double) crashed.logRecordsSinceCheckpoint())
            .put(Metric.RECOVERY_OPEN_SECS, openSeconds)
            .put(Metric.REPLAY_MBPS, logBytes / openSeconds / 1e6)
            .put(Metric.READ_ONLY_REPLAY_SECS, readOnlySeconds)
            .put(Metric.READ_ONLY_REPLAY_MBPS, logBytes / readOnlySeconds / 1e6);
      }
    } catch (IOException e) {
      throw new StoreFailedException(
          "the crashed pile in " + directory + " could not be recovered: " + e, e);
    }
    return new BenchReport(config, List.of(result), machine);
  }

  /** Every put the filler made is there, and one of its last puts reads back right. */
  private static void checkRecovered(
      Pile pile, RecoveryFiller.Filled filled, ValueSource values, byte[] buffer) {
    long count = pile.stats().objectCount();
    if (count != filled.puts()) {
      throw new StoreFailedException(
          "the recovered pile holds "
              + count
              + " values, the filler put "
              + filled.puts()
              + " and let the log reach the OS before the kill");
    }
    long checksum = PileStore.checksumOf(pile, values.kind(), filled.pointer(), buffer);
    if (checksum != values.checksumOf(filled.index())) {
      throw new StoreFailedException(
          "the recovered pile returned a wrong value for index "
              + filled.index()
              + " (pointer "
              + filled.pointer()
              + ")");
    }
  }

  /** Runs a filler until it has filled the log, and kills it with SIGKILL. */
  private RecoveryFiller.Filled fillAndKill(Path directory, RecoveryPlan plan)
      throws InterruptedException {
    List<String> command =
        RecoveryFiller.command(
            directory, config.valueKind(), config.valueSize(), config.threads(), plan);
    Process child;
    try {
      // the filler's stderr is ours: its failures, if any, appear where the user looks
      child = new ProcessBuilder(command).redirectError(Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new StoreFailedException(
          "cannot start the filler JVM " + command.getFirst() + ": " + e, e);
    }
    try {
      CompletableFuture<RecoveryFiller.Filled> filled = new CompletableFuture<>();
      Thread.ofPlatform()
          .daemon()
          .name("recovery-filler-stdout")
          .start(() -> readFilled(child, filled));
      RecoveryFiller.Filled result;
      try {
        result = filled.get(FILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new StoreFailedException(
            "the filler JVM did not fill the log within " + FILL_TIMEOUT.toMinutes() + " min", e);
      } catch (ExecutionException e) {
        child.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        throw new StoreFailedException(
            "the filler JVM ended before it filled the log ("
                + (child.isAlive() ? "still running" : "exit code " + child.exitValue())
                + "; its errors are on stderr): "
                + String.join(" ", command),
            e.getCause());
      }
      // SIGKILL: no shutdown hooks, no close, no final checkpoint
      child.toHandle().destroyForcibly();
      if (!child.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new StoreFailedException("the filler JVM survived SIGKILL for " + EXIT_TIMEOUT);
      }
      return result;
    } finally {
      child.destroyForcibly(); // a failure above must not leave the child running
      child.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Reads the filler's stdout until its FILLED line, so that it never blocks on a full pipe. */
  private static void readFilled(Process child, CompletableFuture<RecoveryFiller.Filled> filled) {
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        RecoveryFiller.Filled parsed = RecoveryFiller.Filled.parse(line);
        if (parsed != null) {
          filled.complete(parsed);
        }
      }
      filled.completeExceptionally(new EOFException("the filler's stdout ended"));
    } catch (IOException e) {
      filled.completeExceptionally(e);
    }
  }
}
