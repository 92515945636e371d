package dev.cairn.pile;

/**
 * Runs file I/O of a pile on a thread of its own, and waits for it through any interrupt of the
 * caller (whose interrupt status is kept).
 *
 * <p>Why: Java closes a {@code FileChannel} for good when a thread using it is interrupted, and
 * the superblock's, the type catalog's and the segment files' channels belong to the pile, not to
 * the caller. An interrupted user thread that happened to write one of them failed the whole pile
 * (the first write after a clean reopen writes the superblock), and one interrupted during a
 * checkpoint of a {@code NONE} pile would have left half-written segment files. The log's
 * committers have their own answer (second handles, see {@code WriteAheadLog}).
 * {@code PersistentPileTest.syncPuts_onThreadsInterruptedAtRandom_neitherFailThePileNorLoseAPut}
 * fails without this.
 */
final class OwnThread {
  private OwnThread() {}

  /**
   * Runs {@code io} on a new platform thread named {@code name} and returns when it has ended,
   * rethrowing what it threw.
   */
  static void run(String name, Runnable io) {
    Throwable[] thrown = new Throwable[1];
    Thread worker = Thread.ofPlatform().name(name).start(() -> {
      try {
        io.run();
      } catch (RuntimeException | Error e) {
        thrown[0] = e;
      }
    });
    joinUninterruptibly(worker); // join: what the worker wrote is visible here
    if (thrown[0] instanceof RuntimeException e) {
      throw e;
    }
    if (thrown[0] instanceof Error e) {
      throw e;
    }
  }

  /** Waits for {@code thread} to end; an interrupt meanwhile is kept for after. */
  static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
