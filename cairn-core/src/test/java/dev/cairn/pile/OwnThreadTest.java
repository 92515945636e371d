package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OwnThreadTest {

  @Test
  void run_takesTheTaskOffTheCallersThread_namedForIt_andReturnsWhenItHasEnded() {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    AtomicReference<String> nameWhileRunning = new AtomicReference<>();
    int[] written = new int[1];

    OwnThread.run(
        "cairn-test-task",
        () -> {
          ranOn.set(Thread.currentThread());
          nameWhileRunning.set(Thread.currentThread().getName());
          written[0] = 42; // plain write: run's return must make it visible
        });

    assertThat(ranOn.get()).isNotNull().isNotSameAs(Thread.currentThread());
    assertThat(nameWhileRunning.get()).isEqualTo("cairn-test-task");
    assertThat(ranOn.get().getName()).as("its pool name again, once idle").startsWith("cairn-io-");
    assertThat(written[0]).isEqualTo(42);
  }

  @Test
  void run_rethrowsWhatTheTaskThrew() {
    assertThatThrownBy(
            () ->
                OwnThread.run(
                    "t",
                    () -> {
                      throw new IllegalStateException("disk said no");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("disk said no");
    assertThatThrownBy(
            () ->
                OwnThread.run(
                    "t",
                    () -> {
                      throw new AssertionError("broken");
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessage("broken");
  }

  @Test
  void anInterruptOfTheCaller_neitherReachesTheTask_norIsLost() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean taskSawInterrupt = new AtomicBoolean();
    AtomicBoolean callerKeptInterrupt = new AtomicBoolean();
    AtomicBoolean callerReturnedEarly = new AtomicBoolean();
    Thread caller =
        Thread.ofPlatform()
            .start(
                () -> {
                  OwnThread.run(
                      "t",
                      () -> {
                        started.countDown();
                        try {
                          release.await();
                        } catch (InterruptedException e) {
                          taskSawInterrupt.set(true);
                        }
                        taskSawInterrupt.compareAndSet(
                            false, Thread.currentThread().isInterrupted());
                      });
                  callerReturnedEarly.set(release.getCount() != 0);
                  callerKeptInterrupt.set(Thread.currentThread().isInterrupted());
                });
    started.await();
    caller.interrupt();
    Thread.sleep(50); // the caller must go on waiting through its interrupt
    assertThat(caller.isAlive()).isTrue();
    release.countDown();
    caller.join();

    assertThat(taskSawInterrupt).isFalse();
    assertThat(callerReturnedEarly).isFalse();
    assertThat(callerKeptInterrupt).isTrue();
  }

  @Test
  void callsOneAfterAnother_reuseThreads_ratherThanStartingOneEach() {
    Set<Thread> used = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      OwnThread.run("t", () -> used.add(Thread.currentThread()));
    }
    // a call may find the last thread not yet idle again and start another; never one per call
    assertThat(used.size()).isLessThanOrEqualTo(20);
  }

  @Test
  void aTaskMayItselfRunATask_andCallersDoNotQueueBehindOneAnother() throws Exception {
    AtomicReference<Thread> inner = new AtomicReference<>();
    OwnThread.run("outer", () -> OwnThread.run("inner", () -> inner.set(Thread.currentThread())));
    assertThat(inner.get()).isNotNull();

    CountDownLatch blockerRunning = new CountDownLatch(1);
    CountDownLatch unblock = new CountDownLatch(1);
    Thread blocked =
        Thread.ofPlatform()
            .start(
                () ->
                    OwnThread.run(
                        "slow",
                        () -> {
                          blockerRunning.countDown();
                          try {
                            unblock.await();
                          } catch (InterruptedException e) {
                            throw new AssertionError(e);
                          }
                        }));
    blockerRunning.await();
    AtomicBoolean ran = new AtomicBoolean();
    OwnThread.run("quick", () -> ran.set(true)); // must not wait for "slow"
    assertThat(ran).isTrue();
    unblock.countDown();
    blocked.join();
  }

  @Test
  void start_returnsAtOnce_andRunsTheTaskOnANamedPoolThread() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ended = new CountDownLatch(1);
    AtomicReference<String> nameWhileRunning = new AtomicReference<>();

    OwnThread.start(
        "cairn-test-background",
        () -> {
          nameWhileRunning.set(Thread.currentThread().getName());
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          ended.countDown();
        });

    assertThat(ended.getCount()).as("start must not wait for the task").isEqualTo(1);
    release.countDown();
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(nameWhileRunning.get()).isEqualTo("cairn-test-background");
  }

  @Test
  void poolThreads_keepNothingOfTheCallerThatStartedThem() throws Exception {
    // a caller with its own context loader and an inheritable thread local, as a web
    // application's request thread might have: the threads it happens to start must pin neither
    ClassLoader callersLoader = new URLClassLoader(new URL[0], null);
    InheritableThreadLocal<String> callersLocal = new InheritableThreadLocal<>();
    int tasks = 24; // more than run at once anywhere else: some threads are surely new
    CountDownLatch allRunning = new CountDownLatch(tasks);
    CountDownLatch release = new CountDownLatch(1);
    Set<ClassLoader> loadersSeen = ConcurrentHashMap.newKeySet();
    Set<String> localsSeen = ConcurrentHashMap.newKeySet();
    Thread caller =
        Thread.ofPlatform()
            .unstarted(
                () -> {
                  callersLocal.set("request-42");
                  for (int i = 0; i < tasks; i++) {
                    OwnThread.start(
                        "t",
                        () -> {
                          loadersSeen.add(Thread.currentThread().getContextClassLoader());
                          localsSeen.add(String.valueOf(callersLocal.get()));
                          allRunning.countDown();
                          try {
                            release.await();
                          } catch (InterruptedException e) {
                            throw new AssertionError(e);
                          }
                        });
                  }
                });
    caller.setContextClassLoader(callersLoader);
    caller.start();
    caller.join();
    assertThat(allRunning.await(10, TimeUnit.SECONDS)).isTrue();
    release.countDown();

    assertThat(loadersSeen).containsOnly(OwnThread.class.getClassLoader());
    assertThat(localsSeen).containsOnly("null");
  }
}
