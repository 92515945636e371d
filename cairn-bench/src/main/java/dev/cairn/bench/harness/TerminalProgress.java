package dev.cairn.bench.harness;

import java.io.PrintStream;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * A progress bar per phase, drawn on a terminal (stderr, so stdout keeps only the results) with
 * me.tongfei:progressbar: task, bar, values done in millions, rate and time left.
 */
public final class TerminalProgress implements Progress {
  /** Redraws twice a second: the redraw thread then costs nothing measurable. */
  private static final int REDRAW_MILLIS = 500;

  /** Narrower than the terminal: a line of exactly its width wraps on some, and is drawn twice. */
  private static final int MAX_LINE_CHARS = 100;

  private final ProgressBar bar;

  private TerminalProgress(ProgressBar bar) {
    this.bar = bar;
  }

  /** A factory of bars drawn on {@code terminal}. */
  public static Progress.Factory on(PrintStream terminal) {
    return (task, total) ->
        new TerminalProgress(
            new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setUnit("M", 1_000_000)
                .showSpeed(new DecimalFormat("0.00", DecimalFormatSymbols.getInstance(Locale.ROOT)))
                .setUpdateIntervalMillis(REDRAW_MILLIS)
                .setConsumer(new ConsoleProgressBarConsumer(terminal, MAX_LINE_CHARS))
                .build());
  }

  @Override
  public void advance(long values) {
    bar.stepBy(values);
  }

  @Override
  public void close() {
    bar.close();
  }
}
