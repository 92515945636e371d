package dev.cairn.cache.lincheck;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

/**
 * Runs rounds of random per-key operations from several threads at once on a {@link KeyedTarget},
 * records each operation's history ({@link Operation}) and checks, after each round, the history of
 * every key with a {@link LinearizabilityChecker}.
 *
 * <p>Each round uses fresh keys (so each history starts from an absent key) and few of them, so
 * that each key's history is short (some 20-40 operations) and its operations overlap. Values are
 * unique per write: the writing thread's number times 2^32 plus its count of writes. Threads pause
 * at random between operations (a spin, sometimes a yield), so that their operations interleave
 * differently from round to round. Helpers ({@code helper}) run beside the workers in each round,
 * unrecorded: inserts that make the index grow, or writes that make the cache evict.
 *
 * <p>A failure names the seed, the round, the key and its history, each operation with its thread,
 * its times relative to the first invocation, its arguments and its result.
 */
final class ConcurrentRounds {

  /** How a run goes. */
  record Plan(
      String name,
      long seed,
      int threads,
      int rounds,
      int keysPerRound,
      int opsPerThreadPerRound,
      boolean evicting) {}

  /** What a run saw. */
  record Report(
      int histories,
      long operations,
      long overlapping,
      int longestHistory,
      int historiesThatNeededAnEviction,
      long statesTried) {}

  private final Plan plan;
  private final KeyedTarget target;
  private final int helpers;
  private final IntConsumer helper; // runs one round's helping work, given the round

  ConcurrentRounds(Plan plan, KeyedTarget target, int helpers, IntConsumer helper) {
    this.plan = plan;
    this.target = target;
    this.helpers = helpers;
    this.helper = helper;
  }

  Report run() throws InterruptedException {
    int parties = plan.threads() + helpers + 1;
    CyclicBarrier start = new CyclicBarrier(parties);
    CyclicBarrier end = new CyclicBarrier(parties);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Worker> workers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 1; t <= plan.threads(); t++) {
      Worker w = new Worker(t);
      workers.add(w);
      threads.add(daemon("lin-worker-" + t, () -> loop(start, end, failures, w::round)));
    }
    for (int h = 0; h < helpers; h++) {
      threads.add(daemon("lin-helper-" + h, () -> loop(start, end, failures, helper)));
    }
    LinearizabilityChecker checker = new LinearizabilityChecker(new RegisterModel(plan.evicting()));
    LinearizabilityChecker strict = new LinearizabilityChecker(new RegisterModel(false));
    int histories = 0;
    long operations = 0;
    long overlapping = 0;
    int longest = 0;
    int neededEviction = 0;
    long statesTried = 0;
    try {
      for (int round = 0; round < plan.rounds(); round++) {
        goAt = System.nanoTime() + START_SPREAD_NANOS;
        await(start);
        await(end);
        if (!failures.isEmpty()) {
          AssertionError e =
              new AssertionError(plan.name() + ": a thread failed, seed=" + plan.seed());
          failures.forEach(e::addSuppressed);
          throw e;
        }
        Map<Long, List<Operation>> byKey = new TreeMap<>();
        for (Worker w : workers) {
          for (int i = 0; i < w.ops.size(); i++) {
            byKey.computeIfAbsent(w.keys.get(i), k -> new ArrayList<>()).add(w.ops.get(i));
          }
          w.ops.clear();
          w.keys.clear();
        }
        for (Map.Entry<Long, List<Operation>> e : byKey.entrySet()) {
          List<Operation> history = e.getValue();
          LinearizabilityChecker.Result r = checker.check(history);
          histories++;
          operations += history.size();
          overlapping += overlapping(history);
          longest = Math.max(longest, history.size());
          statesTried += r.statesTried();
          if (!r.linearizable()) {
            throw notLinearizable(round, e.getKey(), history, r);
          }
          if (plan.evicting() && !strict.check(history).linearizable()) {
            neededEviction++;
          }
        }
      }
    } finally {
      stop = true;
      try {
        start.await(10, TimeUnit.SECONDS); // the threads see stop and leave
      } catch (BrokenBarrierException | TimeoutException e) {
        start.reset();
      }
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
    return new Report(histories, operations, overlapping, longest, neededEviction, statesTried);
  }

  /** How many operations of {@code history} overlap another one of it in time. */
  private static int overlapping(List<Operation> history) {
    int n = 0;
    for (int i = 0; i < history.size(); i++) {
      Operation a = history.get(i);
      for (int j = 0; j < history.size(); j++) {
        Operation b = history.get(j);
        if (i != j
            && a.invokedNanos() <= b.respondedNanos()
            && b.invokedNanos() <= a.respondedNanos()) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  private AssertionError notLinearizable(
      int round, long key, List<Operation> history, LinearizabilityChecker.Result r) {
    return new AssertionError(
        plan.name()
            + ": the history of key "
            + key
            + " in round "
            + round
            + " is not linearizable"
            + (plan.evicting() ? " (even with evictions at any moment)" : "")
            + "; at most "
            + r.longestPrefix()
            + " of its "
            + history.size()
            + " operations linearize. seed="
            + plan.seed()
            + " (-Dcairn.seed= reruns the same operations; the interleaving is the machine's)"
            + LinearizabilityChecker.describe(history));
  }

  private volatile boolean stop;

  /**
   * Workers wake from the barrier one after another; each waits until this time before its first
   * operation, so that they start together rather than one after the other's round.
   */
  private volatile long goAt;

  private static final long START_SPREAD_NANOS = 500_000;

  private static Thread daemon(String name, Runnable body) {
    return Thread.ofPlatform().name(name).daemon().start(body);
  }

  private void loop(
      CyclicBarrier start,
      CyclicBarrier end,
      ConcurrentLinkedQueue<Throwable> failures,
      IntConsumer work) {
    for (int round = 0; ; round++) {
      try {
        start.await();
      } catch (BrokenBarrierException | InterruptedException e) {
        return;
      }
      if (stop) {
        return;
      }
      try {
        work.accept(round);
      } catch (Throwable t) {
        failures.add(t);
      }
      try {
        end.await();
      } catch (BrokenBarrierException | InterruptedException e) {
        return;
      }
    }
  }

  private static void await(CyclicBarrier barrier) throws InterruptedException {
    try {
      barrier.await();
    } catch (BrokenBarrierException e) {
      throw new IllegalStateException("a round's barrier broke", e);
    }
  }

  /** One recording thread: its operations of the round, and the key of each. */
  private final class Worker {
    private final int id;
    final List<Operation> ops = new ArrayList<>();
    final List<Long> keys = new ArrayList<>();
    private long writes;
    private long neverWritten;

    Worker(int id) {
      this.id = id;
    }

    void round(int round) {
      Random random = new Random(plan.seed() * 1_000_003 + round * 131L + id);
      long firstKey = (long) round * plan.keysPerRound();
      long[] seen = new long[plan.keysPerRound()]; // the last value this thread saw, per key
      waitForTheStart();
      for (int i = 0; i < plan.opsPerThreadPerRound(); i++) {
        pause(random);
        int k = random.nextInt(plan.keysPerRound());
        long key = firstKey + k;
        Operation.Kind kind = kind(random);
        long value = 0;
        long expected = 0;
        switch (kind) {
          case PUT, PUT_IF_ABSENT, REPLACE, REPLACE_IF_EQUALS, COMPUTE_IF_ABSENT ->
              value = ((long) id << 32) | ++writes;
          default -> {}
        }
        if (kind == Operation.Kind.REPLACE_IF_EQUALS || kind == Operation.Kind.REMOVE_IF_EQUALS) {
          // mostly the value this thread last saw; else one no thread wrote (thread 0's)
          expected = random.nextInt(10) < 7 && seen[k] != 0 ? seen[k] : ++neverWritten;
        }
        long invoked = System.nanoTime();
        VarHandle.fullFence();
        long result = target.run(kind, key, value, expected);
        VarHandle.fullFence();
        long responded = System.nanoTime();
        ops.add(new Operation(id, kind, value, expected, result, invoked, responded));
        keys.add(key);
        switch (kind) {
          case GET, PUT_IF_ABSENT, COMPUTE_IF_ABSENT -> seen[k] = result != 0 ? result : value;
          case PUT, REPLACE -> seen[k] = value;
          case REPLACE_IF_EQUALS -> seen[k] = result == 1 ? value : seen[k];
          default -> {}
        }
      }
    }
  }

  private static Operation.Kind kind(Random random) {
    int r = random.nextInt(100);
    if (r < 22) {
      return Operation.Kind.PUT;
    } else if (r < 45) {
      return Operation.Kind.GET;
    } else if (r < 50) {
      return Operation.Kind.CONTAINS;
    } else if (r < 58) {
      return Operation.Kind.REMOVE;
    } else if (r < 68) {
      return Operation.Kind.PUT_IF_ABSENT;
    } else if (r < 75) {
      return Operation.Kind.REPLACE;
    } else if (r < 86) {
      return Operation.Kind.REPLACE_IF_EQUALS;
    } else if (r < 94) {
      return Operation.Kind.REMOVE_IF_EQUALS;
    }
    return Operation.Kind.COMPUTE_IF_ABSENT;
  }

  @SuppressWarnings("ThreadPriorityCheck") // lets the other workers wake on a busy machine
  private void waitForTheStart() {
    while (System.nanoTime() < goAt) {
      Thread.yield();
    }
  }

  /** Now and then a short spin or a yield, so that rounds interleave differently. */
  @SuppressWarnings("ThreadPriorityCheck") // the yield varies interleavings, it syncs nothing
  private static void pause(Random random) {
    int r = random.nextInt(16);
    if (r == 0) {
      Thread.yield();
    } else if (r < 5) {
      for (int i = random.nextInt(500); i > 0; i--) {
        Thread.onSpinWait();
      }
    }
  }
}
