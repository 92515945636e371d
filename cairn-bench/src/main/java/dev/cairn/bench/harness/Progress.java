package dev.cairn.bench.harness;

/**
 * Progress of one phase of a bench run. Workers call {@link #advance} in chunks (thousands of
 * values at a time), so an implementation may synchronize without slowing the measured loop.
 */
public interface Progress extends AutoCloseable {

  /** A progress that shows nothing. */
  Progress NONE =
      new Progress() {
        @Override
        public void advance(long values) {}

        @Override
        public void close() {}
      };

  void advance(long values);

  @Override
  void close();

  /** Starts a {@link Progress} for each phase of a run. */
  @FunctionalInterface
  interface Factory {
    /** A factory that shows nothing. */
    Factory NONE = (task, total) -> Progress.NONE;

    Progress start(String task, long total);
  }
}
