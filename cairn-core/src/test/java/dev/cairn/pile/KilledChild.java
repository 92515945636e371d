package dev.cairn.pile;

import static org.assertj.core.api.Assertions.fail;

import dev.cairn.process.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM running a workload's {@code main} on a pile directory, whose standard output lines go
 * to a consumer on a reader thread, and which the test kills with SIGKILL: the launching side of
 * {@link SyncCommitKillNineTest} and {@link PeriodicLossWindowTest}, as {@link KillNineTest}
 * launches {@link CrashWorkload}.
 */
final class KilledChild {

  private static final long READY_SECONDS = 30;
  private static final long EXIT_SECONDS = 10;

  private final Process process;
  private final Path stderr;
  private final List<String> command;
  private final Thread reader;
  private final CountDownLatch readyOrEnd = new CountDownLatch(1);
  private volatile boolean ready;
  private volatile Throwable failure;

  /**
   * Starts {@code main} with {@code args}; each line it prints other than {@code READY} goes to
   * {@code lines}, on one thread, in order.
   */
  KilledChild(Class<?> main, List<String> args, Path stderr, Consumer<String> lines)
      throws IOException {
    command =
        ChildJvm.command(
            main,
            List.of(Pile.class),
            List.of("-Xmx256m", "--enable-native-access=ALL-UNNAMED"),
            args);
    this.stderr = stderr;
    process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  if (line.equals("READY")) {
                    ready = true;
                    readyOrEnd.countDown();
                  } else {
                    lines.accept(line);
                  }
                }
              } catch (IOException | RuntimeException e) {
                failure = e;
              } finally {
                readyOrEnd.countDown();
              }
            },
            "killed-child-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Waits for READY; fails the test if the child never got there. */
  void awaitReady(String label) throws InterruptedException {
    readyOrEnd.await(READY_SECONDS, TimeUnit.SECONDS);
    if (!ready) {
      fail(label + ": the child never printed READY" + report());
    }
  }

  /**
   * Kills the child with SIGKILL after {@code delayMillis} and waits until every line it printed
   * has been consumed. Returns {@code System.nanoTime()} just before the signal.
   */
  long killAfter(long delayMillis, String label) throws InterruptedException {
    try {
      Thread.sleep(delayMillis);
      if (!process.isAlive()) {
        fail(label + ": the child exited before the kill" + report());
      }
      long killNanos = System.nanoTime();
      // through the handle: Process.destroy* would also close our end of its stdout
      process.toHandle().destroyForcibly();
      if (!process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS)) {
        fail(label + ": the child survived SIGKILL");
      }
      reader.join(TimeUnit.SECONDS.toMillis(EXIT_SECONDS));
      if (reader.isAlive()) {
        fail(label + ": the child's stdout did not end after the kill");
      }
      if (failure != null) {
        throw new AssertionError(label + ": reading the child's stdout failed", failure);
      }
      return killNanos;
    } finally {
      process.destroyForcibly();
      process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private String report() {
    process.destroyForcibly();
    String errors;
    try {
      process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS);
      errors = Files.readString(stderr);
    } catch (IOException | InterruptedException e) {
      errors = "(unreadable: " + e + ")";
    }
    return "\n  command: " + String.join(" ", command) + "\n  stderr:\n" + errors;
  }
}
