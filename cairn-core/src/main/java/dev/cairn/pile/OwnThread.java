package dev.cairn.pile;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs file I/O of a pile on a thread of its own, and waits for it through any interrupt of the
 * caller (whose interrupt status is kept).
 *
 * <p>Why: Java closes a {@code FileChannel} for good when a thread using it is interrupted, and the
 * superblock's, the type catalog's and the segment files' channels belong to the pile, not to the
 * caller. An interrupted user thread that happened to write one of them failed the whole pile (the
 * first write after a clean reopen writes the superblock), and one interrupted during a checkpoint
 * of a {@code NONE} pile would have left half-written segment files. The log's committers have
 * their own answer (second handles, see {@code WriteAheadLog}). {@code
 * PersistentPileTest.syncPuts_onThreadsInterruptedAtRandom_neitherFailThePileNorLoseAPut} fails
 * without this.
 *
 * <p>The threads are pooled, shared by every pile, and never interrupted (the pool is never shut
 * down; an idle thread ends after {@link #IDLE_SECONDS}). Why not a new thread per call: each new
 * thread takes a fresh allocation buffer from the young generation and leaves it almost unused when
 * it ends, about 650 KiB per call. A loop of explicit checkpoints (about 100 a second) so fills the
 * young generation every few seconds, and each collection stops every writer for 17-29 ms (JFR of
 * {@code cairn bench --latency-during-checkpoint}).
 */
final class OwnThread {
  private static final long IDLE_SECONDS = 30;

  // a thread for each call that finds none idle, as many as callers wait: the calls must not
  // queue behind one another (a writer reserving tags must not wait for a checkpoint's I/O)
  private static final ExecutorService POOL =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          IDLE_SECONDS,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          OwnThread::newPoolThread);

  private static final ThreadFactory THREADS =
      Thread.ofPlatform()
          .name("cairn-io-", 0)
          .daemon()
          .inheritInheritableThreadLocals(false)
          .factory();

  private OwnThread() {}

  /**
   * A pool thread that carries nothing of the caller that happened to start it: no inheritable
   * thread locals, and Cairn's own class loader as its context loader. Why: a pool thread outlives
   * the call that started it, so a web application's class loader inherited as the context loader
   * (or a value held in an inheritable thread local) would be pinned for as long as the thread
   * lives, after the application was undeployed.
   */
  private static Thread newPoolThread(Runnable task) {
    Thread thread = THREADS.newThread(task);
    thread.setContextClassLoader(OwnThread.class.getClassLoader());
    return thread;
  }

  /**
   * Runs {@code io} on a pooled platform thread, named {@code name} while it runs, and returns when
   * it has ended, rethrowing what it threw.
   */
  static void run(String name, Runnable io) {
    Throwable[] thrown = new Throwable[1];
    Future<?> done =
        POOL.submit(
            named(
                name,
                () -> {
                  try {
                    io.run();
                  } catch (RuntimeException | Error e) {
                    thrown[0] = e;
                  }
                }));
    awaitUninterruptibly(done); // Future.get: what the task wrote is visible here
    if (thrown[0] instanceof RuntimeException e) {
      throw e;
    }
    if (thrown[0] instanceof Error e) {
      throw e;
    }
  }

  /**
   * Starts {@code io} on a pooled platform thread, named {@code name} while it runs, and returns at
   * once. What {@code io} throws is lost, so it must handle its own failures.
   */
  static void start(String name, Runnable io) {
    POOL.execute(named(name, io));
  }

  private static Runnable named(String name, Runnable io) {
    return () -> {
      Thread self = Thread.currentThread();
      String idleName = self.getName();
      self.setName(name); // for thread dumps and profiles: which pile, doing what
      try {
        io.run();
      } finally {
        self.setName(idleName);
      }
    };
  }

  private static void awaitUninterruptibly(Future<?> done) {
    uninterruptibly(
        () -> {
          try {
            done.get();
          } catch (ExecutionException e) { // the task catches what io throws; this is a bug
            throw new IllegalStateException("pile I/O task failed outside its body", e.getCause());
          }
        });
  }

  /** Waits for {@code thread} to end; an interrupt meanwhile is kept for after. */
  static void joinUninterruptibly(Thread thread) {
    uninterruptibly(thread::join);
  }

  /** Waits for {@code latch} to open; an interrupt meanwhile is kept for after. */
  static void awaitUninterruptibly(CountDownLatch latch) {
    uninterruptibly(latch::await);
  }

  /** A wait that an interrupt may cut short. */
  private interface Wait {
    void await() throws InterruptedException;
  }

  /** Waits through any interrupt, and sets the caller's interrupt status again after. */
  private static void uninterruptibly(Wait wait) {
    boolean interrupted = false;
    while (true) {
      try {
        wait.await();
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
